import { runAs } from '../../observability/last-resort.js';
import type { Logger } from '../../observability/logger.js';
import type { SlackPublisher } from '../../outbound/publisher.js';
import type { PlatformClient } from '../../platform/client.js';
import { runInLane } from '../../platform/lane.js';
import type { WebhookSignal } from '../../platform/webhook-signal.js';
import type { TicketService } from '../../services/tickets.js';
import type { Store } from '../../store/store.js';
import { Poller, settleMs } from '../poller/poller.js';

export interface WebhookIntakeOptions {
  platform: PlatformClient;
  store: Store;
  logger: Logger;
  publisher: SlackPublisher;
  tickets: TicketService;
  timeScale?: number | undefined;
}

/**
 * What a replica that does not run a workspace's jobs does with its webhooks: writes what they tell
 * to the shared store (an event to the outbox, a ticket to read to the read backlog) for the replica
 * running the jobs to deliver and read. No timer, no scan: a poller used only for its webhook side
 * (a ticket never seen goes to the read backlog instead of waiting for a scan that does not run here).
 */
export function webhookIntake(o: WebhookIntakeOptions) {
  const scale = o.timeScale ?? 1;
  const poller = new Poller({
    platform: o.platform,
    store: o.store,
    logger: o.logger.child({ job: 'webhooks' }),
    mayDeliver: (sub, ticket) => o.tickets.maySee(sub.createdBy, ticket),
    publisher: o.publisher,
    settleMs: settleMs / scale,
    holdMs: settleMs / scale,
  });
  let stopping = false;
  const cards = o.publisher.cards;
  // The cards of a ticket a webhook changed are brought up to date from here (no job runs here to).
  const refreshCards = () =>
    void runAs('webhook cards', () => runInLane('background', () => cards.run(() => stopping))).catch(
      (error: unknown) => o.logger.error({ err: error }, 'could not update the cards of a changed ticket'),
    );
  return {
    onWebhook: (signal: WebhookSignal) => runInLane('background', () => poller.onSignal(signal)),
    /** The cards' changes are refreshed from here (again after the jobs, which took them over, stopped). */
    listen(): void {
      stopping = false;
      cards.whenChanged(refreshCards);
    },
    /** Resolves once the ticket changes waiting out their hold are written, and the cards' run ended. */
    async settled(): Promise<void> {
      stopping = true;
      await Promise.all([poller.settled(), cards.run(() => true)]);
    },
  };
}
