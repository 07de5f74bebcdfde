import { ErrorCode, type WebClient } from '@slack/web-api';
import { slackDate } from '../domain/time.js';
import type { Logger } from '../observability/logger.js';
import type { OutboxItem, Store } from '../store/store.js';

/** The Slack message metadata type every delivered event carries: how an unknown outcome is resolved. */
export const eventMetadataType = 'confdesk_ticket_event';

/** Slack answers that mean the channel cannot receive messages from the bot any more. */
const gone = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'missing_scope']);

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
  batch?: number;
  leaseMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

/** One line of a ticket's thread for a platform event. */
export function eventText(payload: Record<string, unknown>): string {
  const name = String(payload.eventName ?? 'event');
  const at = typeof payload.timestamp === 'string' ? new Date(payload.timestamp) : undefined;
  const source = typeof payload.source === 'string' ? ` · ${payload.source}` : '';
  return `${at && !Number.isNaN(at.getTime()) ? `${slackDate(at, '{date_short_pretty} {time}')} · ` : ''}*${name}*${source}`;
}

/**
 * The delivery worker: takes leased events from the outbox and posts each into its ticket's thread,
 * paced per channel. Exactly once as far as Slack allows: every message carries the event id in its
 * metadata; a 429 means nothing was posted (retry after `Retry-After`); a network error or 5xx is an
 * unknown outcome, resolved by looking for that metadata in the thread before posting again.
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
    const items = await this.o.store.claim(this.o.owner, this.o.batch ?? 20, this.o.leaseMs ?? 60_000);
    const byChannel = new Map<string, OutboxItem[]>();
    for (const i of items) byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), i]);
    // Channels in parallel, each at Slack's pace.
    const counts = await Promise.all(
      [...byChannel.values()].map(async (list) => {
        let delivered = 0;
        for (const item of list) if (await this.deliver(item)) delivered++;
        return delivered;
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  private async pace(channel: string): Promise<void> {
    const wait = (this.lastPost.get(channel) ?? 0) + this.paceMs - this.now().getTime();
    if (wait > 0) await this.sleep(wait);
    this.lastPost.set(channel, this.now().getTime());
  }

  /** Posts one event; true when it is (now known to be) in Slack. */
  async deliver(item: OutboxItem): Promise<boolean> {
    const { store, slack, logger } = this.o;
    // Broadcasts go in the channel itself; events in the ticket card's thread.
    const broadcast = item.payload.broadcast === true;
    const card = broadcast ? undefined : await store.find(item.ticketId, item.channel);
    const threadTs = card?.ts;
    if (item.status === 'unknown' || item.attempts > 1) {
      // An earlier attempt may have posted without our knowing: look before posting again.
      const found = await this.findPosted(item, threadTs).catch(() => undefined);
      if (found) {
        await store.settle(item, { status: 'delivered', slackTs: found });
        return true;
      }
    }
    await this.pace(item.channel);
    try {
      const answer = await slack.chat.postMessage({
        channel: item.channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: broadcast ? String(item.payload.text) : eventText(item.payload),
        metadata: {
          event_type: eventMetadataType,
          event_payload: { ticket_id: item.ticketId, event_id: item.eventId },
        },
      });
      await store.settle(item, { status: 'delivered', slackTs: answer.ts as string });
      return true;
    } catch (error) {
      const e = error as { code?: string; retryAfter?: number; data?: { error?: string } };
      if (e.code === ErrorCode.RateLimitedError) {
        // Nothing was posted: try again once Slack allows it.
        const retryAt = new Date(this.now().getTime() + (e.retryAfter ?? 1) * 1000);
        await store.settle(item, { status: 'pending', retryAt });
      } else if (e.code === ErrorCode.PlatformError && gone.has(e.data?.error ?? '')) {
        logger.warn(
          { channel: item.channel, error: e.data?.error },
          'channel cannot receive events any more; keeping them',
        );
        await store.settle(item, { status: 'parked' });
      } else {
        // Network error or 5xx: it may or may not have been posted. Resolved on the next attempt.
        logger.warn(
          { channel: item.channel, event: item.eventId, err: error },
          'unknown outcome of a delivery',
        );
        await store.settle(item, { status: 'unknown', retryAt: new Date(this.now().getTime() + 2_000) });
      }
      return false;
    }
  }

  /**
   * The ts of a message already carrying this event's id in its metadata, if any: in the card's
   * thread for events, among the channel's latest messages for broadcasts.
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
      return meta?.event_type === eventMetadataType && meta.event_payload?.event_id === item.eventId;
    });
    return hit?.ts;
  }
}
