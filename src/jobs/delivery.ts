import { ErrorCode, type WebClient } from '@slack/web-api';
import type { MessagePayload } from '../blocks/conference-card.js';
import { buildStateBroadcast, eventText } from '../blocks/ticket-card.js';
import type { Logger } from '../observability/logger.js';
import type { OutboxItem, Store } from '../store/store.js';

/** The Slack message metadata type every delivered event carries: how an unknown outcome is resolved. */
export const eventMetadataType = 'confdesk_ticket_event';

/** Slack answers that mean the channel cannot receive messages from the bot any more. */
export const gone = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'missing_scope']);

export interface DeliveryOptions {
  store: Store;
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
  /** The ticket's card, for the cards the poller queued (a followed ticket new to a channel). */
  renderCard?: (ticketId: string) => Promise<MessagePayload>;
}

/** The settings scope marking channels the bot can no longer post in. */
export const goneScope = 'gone-channel';

/**
 * The delivery worker: takes leased items from the outbox and posts them, each channel's in order and
 * at Slack's pace. An item is a ticket's card (posted once, then its link is saved), an event (in the
 * card's thread) or a state-change broadcast (in the channel). Exactly once as far as Slack allows:
 * every message carries the item's id in its metadata; a 429 means nothing was posted (retry after
 * `Retry-After`); a network error or 5xx is an unknown outcome, resolved by looking for that
 * metadata before posting again. A channel that refuses the bot is parked: its items are kept and the
 * people who subscribed it are told once.
 */
export class DeliveryWorker {
  private readonly paceMs: number;
  private readonly lastPost = new Map<string, number>();
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: DeliveryOptions) {
    this.paceMs = o.paceMs ?? 1_100;
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Claims one batch and delivers it; answers how many items were settled as delivered. */
  async runOnce(): Promise<number> {
    const { store, owner, batch = 200, perChannel = 5, leaseMs = 60_000 } = this.o;
    const items = await store.claim(owner, batch, leaseMs, perChannel);
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
    if (await store.getSetting(goneScope, channel)) outcome = 'gone';
    for (const item of list) {
      if (outcome === 'gone') await store.settle(item, { status: 'parked' });
      // After a failure the rest wait for the next claim, which keeps the channel's order.
      else if (outcome === 'retry') await store.settle(item, { status: item.status });
      else {
        outcome = await this.deliver(item);
        if (outcome === 'delivered') delivered++;
      }
    }
    return delivered;
  }

  private async pace(channel: string): Promise<void> {
    const wait = (this.lastPost.get(channel) ?? 0) + this.paceMs - this.now().getTime();
    if (wait > 0) await this.sleep(wait);
    this.lastPost.set(channel, this.now().getTime());
  }

  /** Posts one item; answers whether it is (now known to be) in Slack, to retry, or the channel is gone. */
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
        found = await this.findPosted(item, threadTs);
      } catch (error) {
        logger.warn({ err: error, channel: item.channel }, 'could not check an earlier attempt; later');
        return later(2_000, 'unknown');
      }
      if (found) return done(found);
    }
    if (isCard && (await store.find(item.ticketId, item.channel))) {
      await store.settle(item, { status: 'delivered' }); // posted by a person's /ticket watch meanwhile
      return 'delivered';
    }
    let message: Partial<MessagePayload> & { text: string };
    try {
      message = isCard
        ? await (this.o.renderCard as NonNullable<DeliveryOptions['renderCard']>)(item.ticketId)
        : item.payload.broadcast === true
          ? buildStateBroadcast(item.ticketId, item.payload)
          : { text: eventText(item.payload) };
    } catch (error) {
      logger.warn({ err: error, ticket: item.ticketId }, 'could not read a ticket for its card; later');
      return later(5_000, item.status);
    }
    await this.pace(item.channel);
    try {
      const answer = await slack.chat.postMessage({
        channel: item.channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        ...message,
        metadata: {
          event_type: eventMetadataType,
          event_payload: { ticket_id: item.ticketId, event_id: item.eventId },
        },
      });
      return done(answer.ts as string);
    } catch (error) {
      const e = error as { code?: string; retryAfter?: number; data?: { error?: string } };
      // Nothing was posted: try again once Slack allows it.
      if (e.code === ErrorCode.RateLimitedError) return later((e.retryAfter ?? 1) * 1000, 'pending');
      if (e.code === ErrorCode.PlatformError && gone.has(e.data?.error ?? '')) {
        await this.park(item, e.data?.error ?? '');
        return 'gone';
      }
      // Network error or 5xx: it may or may not have been posted. Resolved on the next attempt.
      logger.warn(
        { channel: item.channel, event: item.eventId, err: error },
        'unknown outcome of a delivery',
      );
      return later(2_000, 'unknown');
    }
  }

  /** Keeps the channel's items (parked) and tells the people who subscribed it, once. */
  private async park(item: OutboxItem, reason: string): Promise<void> {
    const { store, slack, logger } = this.o;
    const { channel } = item;
    await store.settle(item, { status: 'parked' });
    if (!(await store.setSettingOnce(goneScope, channel, reason))) return;
    logger.warn({ channel, error: reason }, 'channel cannot receive ticket events any more; keeping them');
    const people = new Set((await store.subscriptionsOf(channel)).map((s) => s.createdBy));
    for (const user of people)
      await slack.chat
        .postMessage({
          channel: user,
          text:
            `I can no longer post ticket events in <#${channel}> (Slack says \`${reason}\`: I was removed or the channel was archived). ` +
            'I keep them: invite me back with `/invite @confdesk` and they will follow; to stop, remove the subscription with `/ticket subscriptions` there.',
        })
        .catch((error: unknown) => logger.warn({ err: error, user }, 'could not tell a subscriber'));
  }

  /**
   * The ts of a message already carrying this item's id in its metadata, if any: in the card's
   * thread for events, among the channel's latest messages for cards and broadcasts.
   */
  private async findPosted(item: OutboxItem, threadTs: string | undefined): Promise<string | undefined> {
    const { slack } = this.o;
    const answer = threadTs
      ? await slack.conversations.replies({
          channel: item.channel,
          ts: threadTs,
          include_all_metadata: true,
          limit: 200,
        })
      : await slack.conversations.history({ channel: item.channel, include_all_metadata: true, limit: 100 });
    const hit = (answer.messages ?? []).find((m) => {
      const meta = (m as { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } })
        .metadata;
      return (
        meta?.event_type === eventMetadataType &&
        meta.event_payload?.event_id === item.eventId &&
        String(meta.event_payload?.ticket_id) === item.ticketId
      );
    });
    return hit?.ts;
  }
}

type Outcome = 'delivered' | 'retry' | 'gone';
