import type { WebClient } from '@slack/web-api';
import type { Logger } from '../observability/logger.js';
import type { DeliveryOutcome, WorkspaceMetrics } from '../observability/metrics.js';
import { findTagged, postTagged, type Tag, tellPerson } from '../outbound/ledger.js';
import type { OutgoingMessage, SlackPublisher } from '../outbound/publisher.js';
import { classifySlackError, type RefusalHint } from '../outbound/refusals.js';
import type { SlackAccess } from '../outbound/slack-access.js';
import type {
  ChannelRepository,
  OutboxItem,
  OutboxRepository,
  SubscriptionRepository,
  TicketCardRepository,
} from '../store/store.js';

/** The Slack message metadata type every delivered event carries: how an unknown outcome is resolved. */
export const eventMetadataType = 'confdesk_ticket_event';

/** The ledger's tag of an outbox item's message. */
const tagOf = (item: OutboxItem): Tag => ({
  type: eventMetadataType,
  payload: { ticket_id: item.ticketId, event_id: item.eventId },
});

export interface DeliveryOptions {
  store: OutboxRepository & ChannelRepository & SubscriptionRepository & TicketCardRepository;
  /**
   * A Web API client that never retries by itself (`retryConfig: {retries: 0}`,
   * `rejectRateLimitedCalls: true`): a blind retry of chat.postMessage can post twice.
   */
  slack: WebClient;
  logger: Logger;
  /** This process's name in leases (several replicas share one PostgreSQL store). */
  owner: string;
  /** Slack allows about one message per second per channel. */
  paceMs?: number;
  /** Items claimed at once (default 200), at most `perChannel` of a channel (default 5): all channels move together. */
  batch?: number;
  perChannel?: number;
  leaseMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Renders each item (the publisher): a ticket's card the poller queued (a followed ticket new to a
   * channel), a platform event, a state broadcast, a person's line.
   */
  publisher: Pick<SlackPublisher, 'render' | 'notice'>;
  /** Whether Slack still takes the token: while it refuses it, nothing is claimed (see `SlackAccess`). */
  slackAccess: Pick<SlackAccess, 'usable' | 'refused'>;
  /** Counts each item's outcome, and the posts the ledger found already made. */
  metrics?: Pick<WorkspaceMetrics, 'delivery' | 'duplicateAvoided'> | undefined;
}

/** The metrics' name for what became of an item. */
const counted: Record<Outcome, DeliveryOutcome> = {
  delivered: 'delivered',
  retry: 'retry',
  gone: 'parked',
  dead: 'dead',
};

/** Refusals a card may pass without its blocks: it is posted again as its plain text, so its thread exists. */
const blocksRefused = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_blocks_too_long']);

/**
 * The delivery worker: takes leased items from the outbox and posts them, each channel's in order and
 * at Slack's pace. An item is a ticket's card (posted once, then its link is saved), an event (in the
 * card's thread) or a state-change broadcast (in the channel). Exactly once as far as Slack allows:
 * every message carries the item's id in its metadata; a 429 means nothing was posted (retry after
 * `Retry-After`); a network error or 5xx is an unknown outcome, resolved by looking for that
 * metadata before posting again. A channel that refuses the bot is parked: its items are kept and the
 * people who subscribed it are told once. A message Slack refuses for good (see `classifySlackError`)
 * is set aside as a dead letter and the channel goes on; a card refused for its blocks is posted as
 * its plain text, and an event whose thread refuses replies (its card was deleted) in the channel.
 */
export class DeliveryWorker {
  private readonly paceMs: number;
  private readonly lastPost = new Map<string, number>();
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Claimed and not settled yet, and which of them are being posted now (for a shutdown's count). */
  private readonly held = new Set<OutboxItem>();
  private readonly posting = new Set<OutboxItem>();
  private stopping = false;
  private released = 0;

  constructor(private readonly o: DeliveryOptions) {
    this.paceMs = o.paceMs ?? 1_100;
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Claims one batch and delivers it; answers how many items were settled as delivered. */
  async runOnce(): Promise<number> {
    const { store, owner, batch = 200, perChannel = 5, leaseMs = 60_000 } = this.o;
    if (this.stopping || !(await this.o.slackAccess.usable())) return 0;
    const items = await store.claim(owner, batch, leaseMs, perChannel);
    for (const i of items) this.held.add(i);
    const byChannel = new Map<string, OutboxItem[]>();
    for (const i of items) byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), i]);
    // Channels in parallel, each in order at Slack's pace.
    const counts = await Promise.all([...byChannel].map(([channel, list]) => this.deliverAll(channel, list)));
    return counts.reduce((a, b) => a + b, 0);
  }

  private async deliverAll(channel: string, list: OutboxItem[]): Promise<number> {
    const { store } = this.o;
    let delivered = 0;
    let outcome: Outcome = 'delivered';
    if (await store.isGone(channel)) outcome = 'gone';
    for (const item of list) {
      if (outcome === 'gone') {
        await store.settle(item, { status: 'parked' });
        this.o.metrics?.delivery('parked');
      }
      // After a failure the rest wait for the next claim, which keeps the channel's order; while the
      // bot stops, they are released as they were, for the next start to take at once.
      else if (outcome === 'retry' || this.stopping) {
        if (this.stopping) this.released++;
        await store.settle(item, { status: item.status });
      } else {
        this.posting.add(item);
        outcome = await this.deliver(item).finally(() => this.posting.delete(item));
        this.o.metrics?.delivery(counted[outcome]);
        if (outcome === 'delivered') delivered++;
      }
      this.held.delete(item);
    }
    return delivered;
  }

  /**
   * Shutting down: nothing more is claimed, and each channel's post in progress is the last (the
   * rest of the batch is released as it was: pending, or unknown and checked before posting).
   */
  drain(): void {
    this.stopping = true;
  }

  /**
   * The shutdown's time is up: every item still claimed is released at once instead of waiting for
   * its lease to run out. One being posted now is left `unknown` (it may reach Slack), so the next
   * claim looks for it in Slack before posting it again: never lost, never posted twice.
   */
  async abandon(): Promise<{ released: number; unknown: number }> {
    let unknown = 0;
    for (const item of [...this.held]) {
      const posting = this.posting.has(item);
      if (await this.o.store.settle(item, { status: posting ? 'unknown' : item.status }))
        if (posting) unknown++;
        else this.released++;
    }
    this.held.clear();
    return { released: this.released, unknown };
  }

  private async pace(channel: string): Promise<void> {
    const wait = (this.lastPost.get(channel) ?? 0) + this.paceMs - this.now().getTime();
    if (wait > 0) await this.sleep(wait);
    this.lastPost.set(channel, this.now().getTime());
  }

  /**
   * Posts one item; answers whether it is (now known to be) in Slack, to retry, the channel is gone,
   * or Slack refused it for good (dead: the channel goes on).
   */
  async deliver(item: OutboxItem): Promise<Outcome> {
    const { store, slack, logger } = this.o;
    const isCard = item.payload.card === true;
    const threadTs =
      isCard || item.payload.broadcast === true
        ? undefined
        : (await store.find(item.ticketId, item.channel))?.ts;
    const done = async (ts: string): Promise<Outcome> => {
      if (isCard) await store.save({ ticketId: item.ticketId, channel: item.channel, ts });
      await store.settle(item, { status: 'delivered', slackTs: ts });
      return 'delivered';
    };
    const later = async (ms: number, status: OutboxItem['status']): Promise<Outcome> => {
      await store.settle(item, { status, retryAt: new Date(this.now().getTime() + ms) });
      return 'retry';
    };
    if (item.status === 'unknown') {
      // An earlier attempt may have posted without our knowing: look before posting again, and if
      // Slack cannot tell us now, ask again later rather than risk a second post.
      let found: string | undefined;
      try {
        found = await findTagged(
          this.o.slack,
          { channel: item.channel, threadTs, oldest: item.createdAt },
          tagOf(item),
        );
      } catch (error) {
        const failure = classifySlackError(error);
        if (failure.kind === 'token') {
          await this.o.slackAccess.refused(failure.code);
          return later(0, 'unknown');
        }
        logger.warn({ err: error, channel: item.channel }, 'could not check an earlier attempt; later');
        return later(failure.kind === 'rate_limited' ? failure.retryAfterMs : 2_000, 'unknown');
      }
      if (found) {
        this.o.metrics?.duplicateAvoided();
        return done(found);
      }
    }
    if (isCard && (await store.find(item.ticketId, item.channel))) {
      await store.settle(item, { status: 'delivered' }); // posted by a person's /ticket watch meanwhile
      this.o.metrics?.duplicateAvoided();
      return 'delivered';
    }
    let message: OutgoingMessage;
    try {
      message = await this.o.publisher.render(item);
    } catch (error) {
      logger.warn({ err: error, ticket: item.ticketId }, 'could not read a ticket for its card; later');
      return later(5_000, item.status);
    }
    let thread = threadTs;
    for (;;) {
      await this.pace(item.channel);
      // Stopping while it waited for the channel's pace: not posted, released as it was.
      if (this.stopping) return later(0, item.status).finally(() => this.released++);
      try {
        return done(
          await postTagged(slack, { channel: item.channel, threadTs: thread }, message, tagOf(item)),
        );
      } catch (error) {
        const failure = classifySlackError(error);
        const context = {
          channel: item.channel,
          ticket: item.ticketId,
          event: item.eventId,
          reason: failure.code,
        };
        switch (failure.kind) {
          case 'rate_limited': // Nothing was posted: try again once Slack allows it.
            return later(failure.retryAfterMs, 'pending');
          case 'token': // Nothing was posted, and nothing can be: the jobs pause until Slack takes the token.
            await this.o.slackAccess.refused(failure.code);
            return later(0, 'pending');
          case 'gone':
            await this.park(item, failure.code);
            return 'gone';
          case 'thread':
            if (!thread) return this.setAside(item, failure.code, 'content', error);
            // Nothing was posted: the card is gone (or the channel has no threads), the event is not.
            logger.info(context, 'the card’s thread refuses replies; posting the event in the channel');
            thread = undefined;
            continue;
          case 'refused':
            if (isCard && 'blocks' in message && blocksRefused.has(failure.code)) {
              logger.warn(context, 'Slack refused a ticket card’s blocks; posting its text alone');
              message = { text: message.text };
              continue;
            }
            return this.setAside(item, failure.code, failure.hint, error);
          default:
            // Network error or 5xx: it may or may not have been posted. Resolved on the next attempt.
            logger.warn({ ...context, err: error }, 'unknown outcome of a delivery');
            return later(2_000, 'unknown');
        }
      }
    }
  }

  /**
   * Settles an item Slack refused for good as dead, so the channel's next items go on, and tells the
   * people who subscribed the channel once per reason: what was set aside, and who can help.
   */
  private async setAside(
    item: OutboxItem,
    reason: string,
    hint: RefusalHint,
    error: unknown,
  ): Promise<Outcome> {
    const { store, slack, logger } = this.o;
    const { channel } = item;
    await store.settle(item, { status: 'dead', reason });
    // Slack's own explanation (json pointers into the blocks), never the message itself.
    const details = ((error as { data?: { response_metadata?: { messages?: unknown } } }).data
      ?.response_metadata?.messages ?? []) as unknown[];
    logger.warn(
      {
        channel,
        ticket: item.ticketId,
        event: item.eventId,
        reason,
        ...(Array.isArray(details) && details.length
          ? { details: details.slice(0, 5).map((d) => String(d).slice(0, 200)) }
          : {}),
      },
      'Slack refused a ticket delivery for good; set aside as a dead letter',
    );
    if (!(await store.markDeadLetterTold(channel, reason))) return 'dead';
    const what =
      item.payload.card === true ? 'card' : item.payload.broadcast === true ? 'broadcast' : 'event';
    const notice = this.o.publisher.notice({
      kind: 'set-aside',
      channel,
      what,
      reason,
      fix: hint === 'channel' ? 'channel' : 'operator',
    });
    const people = new Set((await store.subscriptionsOf(channel)).map((s) => s.createdBy));
    for (const user of people) await tellPerson(slack, user, notice, logger);
    return 'dead';
  }

  /** Keeps the channel's items (parked) and tells the people who subscribed it, once. */
  private async park(item: OutboxItem, reason: string): Promise<void> {
    const { store, slack, logger } = this.o;
    const { channel } = item;
    await store.settle(item, { status: 'parked' });
    if (!(await store.markGone(channel, reason))) return;
    logger.warn({ channel, error: reason }, 'channel cannot receive ticket events any more; keeping them');
    const people = new Set((await store.subscriptionsOf(channel)).map((s) => s.createdBy));
    const notice = this.o.publisher.notice({ kind: 'parked', channel, reason });
    for (const user of people) await tellPerson(slack, user, notice, logger);
  }
}

type Outcome = 'delivered' | 'retry' | 'gone' | 'dead';
