import { type ChangeCover, coverable, coveredBy, coverOf } from '../domain/change-cover.js';
import { followMatches } from '../domain/follow-filter.js';
import type { Logger } from '../observability/logger.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { PlatformClient } from '../platform/client.js';
import type { TicketRecord } from '../platform/schemas.js';
import type { Store, Subscription } from '../store/store.js';

/*
 * What each channel gets of a changed ticket: the second of the poller's two jobs (the first, which
 * tickets changed, is `change-finder.ts`). The rules it applies are the domain's (`followMatches`,
 * the covers of `change-cover.ts`); the rights check is the caller's (`mayDeliver`).
 */

const background = { priority: 'background' as const };

/**
 * A new subscription starts with the events of the minute before it (context for whoever just
 * subscribed) rather than the ticket's whole history, which stays one click away (Timeline).
 */
const historyMs = 60_000;

type NewItem = Parameters<Store['advance']>[0][number];

export interface CollectorOptions {
  platform: PlatformClient;
  store: Store;
  logger: Logger;
  /**
   * Whether the person who added a subscription may (still) see this ticket: a job that posts checks
   * the rights of the person it posts for, as every door does. A failure to find out is thrown, and
   * the ticket is looked at again on the next scan.
   */
  mayDeliver?: ((sub: Subscription, ticket: TicketRecord) => Promise<boolean>) | undefined;
  /** Told of each new version of a ticket: every card of it is re-rendered (`outbound/publisher.ts`). */
  publisher?: Pick<SlackPublisher, 'ticketChanged'> | undefined;
}

/** Writes a changed ticket's events to the outbox, for each channel that wants them. */
export class Collector {
  constructor(private readonly o: CollectorOptions) {}

  /** The channels interested in a ticket: those watching it, and those whose follow filter matches. */
  private async channelsFor(t: TicketRecord): Promise<{ channel: string; sub: Subscription }[]> {
    const subs = await this.o.store.subscriptionsForTicket(String(t.id));
    const matching = subs.filter((s) => s.kind === 'watch' || followMatches(s.filter, t));
    const wanted: Subscription[] = [];
    for (const s of matching) {
      if (!this.o.mayDeliver || (await this.o.mayDeliver(s, t))) wanted.push(s);
      else
        this.o.logger.info(
          { subscription: s.id, channel: s.channel, ticketId: String(t.id) },
          'not delivered: the person who added this subscription may not see this ticket',
        );
    }
    const byChannel = new Map<string, Subscription>();
    for (const s of wanted) if (!byChannel.has(s.channel)) byChannel.set(s.channel, s);
    return [...byChannel].map(([channel, sub]) => ({ channel, sub }));
  }

  /**
   * Fetches a changed ticket's events and writes those its channels want to the outbox, after the
   * ticket's card for channels that have none yet; for channels that asked (`broadcast`), a state
   * change also adds a message in the channel itself. A platform event of a change a person made from
   * Slack is left out of the channels that got their line (`ChangeCover`; only the kinds such a change
   * writes, see `coverable`). Then every card of a new version is re-rendered, by the publisher,
   * whether or not a channel subscribes.
   */
  async collect(t: TicketRecord): Promise<number> {
    const { platform, store } = this.o;
    const ticketId = String(t.id);
    const before = await store.lastSeen(ticketId);
    const channels = await this.channelsFor(t);
    const modified = t.modified?.toISOString() ?? '';
    const seen = { ticketId, modified, state: t.state };
    if (!channels.length) {
      await store.markSeen(seen.ticketId, seen.modified, seen.state);
      await this.cardsChanged(t, before?.modified);
      return 0;
    }
    const events = [];
    for await (const e of platform.paginate('listTicketEvents', { ticketId, limit: 100 }, background))
      events.push(e);
    const stateChanged = before !== undefined && before.state !== t.state;
    const covers = await this.coversOf(ticketId);
    const items: NewItem[] = [];
    for (const { channel, sub } of channels) {
      const item = (eventId: string, payload: Record<string, unknown>) =>
        items.push({ ticketId, eventId, channel, payload });
      if (!(await store.find(ticketId, channel))) item('card', { card: true });
      const kinds = Array.isArray(sub.filter.events) ? (sub.filter.events as string[]) : undefined;
      const since = sub.createdAt.getTime() - historyMs;
      const said = covers.get(channel) ?? [];
      for (const e of events)
        if (
          (!kinds || kinds.includes(e.eventName)) &&
          e.timestamp.getTime() >= since &&
          !(coverable(e) && said.some((c) => coveredBy(c, e.timestamp)))
        )
          item(e.id, {
            eventName: e.eventName,
            timestamp: e.timestamp.toISOString(),
            source: e.source ?? null,
          });
      if (stateChanged && sub.filter.broadcast === true)
        // Facts, not text: delivery renders them (buildStateBroadcast), escaping what the platform wrote.
        item(`state:${t.state}:${modified}`, {
          broadcast: true,
          ticketId,
          reference: t.reference ?? null,
          from: before?.state ?? null,
          to: t.state ?? null,
        });
    }
    // The events and the version they come from are recorded together.
    const written = await store.advance(items, seen);
    await this.cardsChanged(t, before?.modified);
    return written;
  }

  /** The changes people made from Slack on a ticket (their lines' covers), by channel. */
  private async coversOf(ticketId: string): Promise<Map<string, ChangeCover[]>> {
    const byChannel = new Map<string, ChangeCover[]>();
    for (const i of await this.o.store.outboxOf(ticketId)) {
      const cover = coverOf(i.payload);
      if (cover) byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), cover]);
    }
    return byChannel;
  }

  /** A version not looked at before (not a second look at the same one): the publisher re-renders the cards. */
  private async cardsChanged(t: TicketRecord, previous: string | undefined): Promise<void> {
    const modified = t.modified?.toISOString();
    if (!this.o.publisher || !modified || previous === modified) return;
    await this.o.publisher
      .ticketChanged({ ticket: t, previous })
      .catch((error: unknown) =>
        this.o.logger.warn({ err: error, ticketId: String(t.id) }, 'could not refresh the ticket’s cards'),
      );
  }
}
