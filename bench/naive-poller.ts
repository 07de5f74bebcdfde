import type { PlatformClient } from '../src/platform/client.js';
import type { Store } from '../src/store/store.js';

/**
 * The baseline of the events benchmark, kept here only: every cycle reads the events of every
 * watched ticket (one request each, on the budget's background lane), and writes the new ones to
 * the same outbox the real poller uses (events from its start on).
 */
export class NaivePoller {
  private readonly since = Date.now();
  /** Set to end the cycle in progress (one cycle of 1,000 tickets takes two hours of budget). */
  stopped = false;

  constructor(
    private readonly platform: PlatformClient,
    private readonly store: Store,
  ) {}

  async cycle(): Promise<void> {
    const watched = new Map<string, string[]>();
    for (let c = 0; c < 10; c++)
      for (const s of await this.store.subscriptionsOf(`CB${c}`))
        if (s.ticketId) watched.set(s.ticketId, [...(watched.get(s.ticketId) ?? []), s.channel]);
    for (const [ticketId, channels] of watched) {
      if (this.stopped) return;
      const events = await this.platform.listTicketEvents(
        { ticketId, limit: 100 },
        { priority: 'background' },
      );
      await this.store.advance(
        events.items
          .filter((e) => e.timestamp.getTime() >= this.since)
          .flatMap((e) =>
            channels.map((channel) => ({
              ticketId,
              eventId: e.id,
              channel,
              payload: { eventName: e.eventName },
            })),
          ),
      );
    }
  }
}
