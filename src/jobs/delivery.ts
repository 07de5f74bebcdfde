import type { WebClient } from '@slack/web-api';
import type { Logger } from '../observability/logger.js';
import type { DeliveryOutcome, WorkspaceMetrics } from '../observability/metrics.js';
import { ChannelPace } from '../outbound/channel-pace.js';
import { findTagged, postTagged, type Tag, tellPerson } from '../outbound/ledger.js';
import {
  gatheredLinesMax,
  isThreadLine,
  type OutgoingMessage,
  type SlackPublisher,
} from '../outbound/publisher.js';
import type { SlackAccess } from '../outbound/slack-access.js';
import { retryLevel } from '../platform/errors.js';
import type {
  ChannelRepository,
  OutboxItem,
  OutboxRepository,
  SubscriptionRepository,
  TicketCardRepository,
} from '../store/store.js';
import { classifySlackError, type RefusalHint } from '../util/slack-errors.js';

/** The Slack message metadata type every delivered event carries: how an unknown outcome is resolved. */
export const eventMetadataType = 'confdesk_ticket_event';

/** The ledger's tag of an outbox item's message (of several gathered in one: all their ids). */
const tagOf = (item: OutboxItem, gathered: readonly OutboxItem[] = [item]): Tag => ({
  type: eventMetadataType,
  payload: {
    ticket_id: item.ticketId,
    event_id: item.eventId,
    ...(gathered.length > 1 ? { event_ids: gathered.map((i) => i.eventId).join(' ') } : {}),
  },
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
  /** Slack allows about one message per second per channel: the least time between two posts' starts. */
  paceMs?: number;
  /** The channels' pace shared with people's posts (`ChannelPace`; default: the worker's own, at `paceMs`). */
  channelPace?: ChannelPace | undefined;
  /** Items claimed at once (default 200), at most `perChannel` of a channel (default 20). */
  batch?: number;
  perChannel?: number;
  /** While channels deliver, how often the outbox is looked at for the others (default 250 ms). */
  claimEveryMs?: number;
  /** Lines of one thread gathered into one message at most (default `gatheredLinesMax`; 1: never). */
  gatherMax?: number;
  leaseMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Renders each item (the publisher): a ticket's card the poller queued (a followed ticket new to a
   * channel), a platform event, a state broadcast, a person's line.
   */
  publisher: Pick<SlackPublisher, 'render' | 'notice' | 'gather'>;
  /** Whether Slack still takes the token: while it refuses it, nothing is claimed (see `SlackAccess`). */
  slackAccess: Pick<SlackAccess, 'usable' | 'refused'>;
  /** Counts each item's outcome, and the posts the ledger found already made. */
  metrics?: Pick<WorkspaceMetrics, 'delivery' | 'duplicateAvoided'> | undefined;
  /** An item put off until `at` (a retry's wait): the idle delivery job is woken then. */
  onLater?: ((at: Date) => void) | undefined;
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
  private readonly channelPace: ChannelPace;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Claimed and not settled yet, and which of them are being posted now (for a shutdown's count). */
  private readonly held = new Set<OutboxItem>();
  private readonly posting = new Set<OutboxItem>();
  private stopping = false;
  private released = 0;

  /** Channels being delivered now, each on its own (see `runUntilIdle`). */
  private readonly channels = new Map<string, Promise<void>>();

  constructor(private readonly o: DeliveryOptions) {
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.channelPace =
      o.channelPace ??
      new ChannelPace(o.paceMs ?? defaultPaceMs, { now: () => this.now().getTime(), sleep: this.sleep });
  }

  /** Claims one batch and delivers it; answers how many items were settled as delivered. */
  async runOnce(): Promise<number> {
    let delivered = 0;
    await Promise.all(await this.claimAndStart((n) => (delivered += n)));
    return delivered;
  }

  /**
   * Delivers until nothing is due: each channel goes on by itself (a busy channel's pace never holds
   * another's items back), and while any delivers, the outbox is looked at every `claimEveryMs` for
   * channels with new items. Answers how many items were settled as delivered.
   */
  async runUntilIdle(): Promise<number> {
    let delivered = 0;
    for (;;) {
      await this.claimAndStart((n) => (delivered += n));
      if (!this.channels.size || this.stopping) {
        await Promise.all(this.channels.values());
        return delivered;
      }
      await Promise.race([...this.channels.values(), this.sleep(this.o.claimEveryMs ?? 250)]);
    }
  }

  /** Claims the due items of channels not being delivered now and starts each channel's delivery. */
  private async claimAndStart(count: (delivered: number) => void): Promise<Promise<void>[]> {
    const { store, owner, batch = 200, perChannel = 20, leaseMs = 60_000 } = this.o;
    if (this.stopping || !(await this.o.slackAccess.usable())) return [];
    const items = await store.claim(owner, batch, leaseMs, perChannel);
    const byChannel = new Map<string, OutboxItem[]>();
    for (const i of items) {
      this.held.add(i);
      byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), i]);
    }
    return [...byChannel].map(([channel, list]) => {
      // A channel whose last items were settled may be claimed again before its delivery returned:
      // the newer delivery is the one the map keeps.
      const running: Promise<void> = this.deliverAll(channel, list)
        .then(count)
        .finally(() => {
          if (this.channels.get(channel) === running) this.channels.delete(channel);
        });
      this.channels.set(channel, running);
      return running;
    });
  }

  /**
   * A channel's claimed items, in order at Slack's pace. Lines of one ticket's thread that wait
   * together go out as one message (`gather`): a channel whose changes outrun its pace catches up
   * instead of falling behind, and each thread keeps its order.
   */
  private async deliverAll(channel: string, list: OutboxItem[]): Promise<number> {
    const { store } = this.o;
    let delivered = 0;
    let outcome: Outcome = 'delivered';
    if (await store.isGone(channel)) outcome = 'gone';
    for (const group of gatherable(list, this.o.gatherMax)) {
      if (outcome === 'gone') {
        for (const item of group) {
          await store.settle(item, { status: 'parked' });
          this.o.metrics?.delivery('parked');
        }
      }
      // After a failure the rest wait for the next claim, which keeps the channel's order; while the
      // bot stops, they are released as they were, for the next start to take at once.
      else if (outcome === 'retry' || this.stopping) {
        for (const item of group) {
          if (this.stopping) this.released++;
          await store.settle(item, { status: item.status });
        }
      } else {
        for (const item of group) this.posting.add(item);
        outcome = await this.deliver(group).finally(() => {
          for (const item of group) this.posting.delete(item);
        });
        for (const _ of group) this.o.metrics?.delivery(counted[outcome]);
        if (outcome === 'delivered') delivered += group.length;
      }
      for (const item of group) this.held.delete(item);
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

  /**
   * Posts one item, or several lines of one thread as one message (the first leading);
   * answers whether they are (now known to be) in Slack, to retry, the channel is gone, or Slack
   * refused them for good (dead: the channel goes on).
   */
  private async deliver(items: readonly OutboxItem[]): Promise<Outcome> {
    const { store, slack, logger } = this.o;
    const item = items[0] as OutboxItem;
    const settleAll = async (outcome: Parameters<typeof store.settle>[1]) => {
      for (const i of items) await store.settle(i, outcome);
    };
    const isCard = item.payload.card === true;
    const threadTs =
      isCard || item.payload.broadcast === true
        ? undefined
        : (await store.find(item.ticketId, item.channel))?.ts;
    const done = async (ts: string): Promise<Outcome> => {
      if (isCard) await store.save({ ticketId: item.ticketId, channel: item.channel, ts });
      await settleAll({ status: 'delivered', slackTs: ts });
      return 'delivered';
    };
    const later = async (ms: number, status: OutboxItem['status']): Promise<Outcome> => {
      const at = new Date(this.now().getTime() + ms);
      await settleAll({ status, retryAt: at });
      if (!this.stopping) this.o.onLater?.(at);
      return 'retry';
    };
    if (item.status === 'unknown') {
      // An earlier attempt may have posted without our knowing (alone or gathered with others): look
      // before posting again, and if Slack cannot tell us now, ask again later rather than risk a second post.
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
      message = items.length > 1 ? this.o.publisher.gather(items) : await this.o.publisher.render(item);
    } catch (error) {
      logger[retryLevel(error)](
        { err: error, ticket: item.ticketId },
        'could not read a ticket for its card; later',
      );
      return later(5_000, item.status);
    }
    let thread = threadTs;
    for (;;) {
      const answered = await this.channelPace.turn(item.channel, 'job');
      // Stopping while it waited for the channel's pace: not posted, released as it was.
      if (this.stopping) return later(0, item.status).finally(() => (this.released += items.length));
      try {
        const ts = await postTagged(
          slack,
          { channel: item.channel, threadTs: thread },
          message,
          tagOf(item, items),
        ).finally(answered);
        return done(ts);
      } catch (error) {
        const failure = classifySlackError(error);
        const context = {
          channel: item.channel,
          ticket: item.ticketId,
          event: item.eventId,
          ...(items.length > 1 ? { gathered: items.length } : {}),
          reason: failure.code,
        };
        switch (failure.kind) {
          case 'rate_limited': // Nothing was posted: try again once Slack allows it.
            this.channelPace.refused(item.channel, failure.retryAfterMs);
            return later(failure.retryAfterMs, 'pending');
          case 'token': // Nothing was posted, and nothing can be: the jobs pause until Slack takes the token.
            await this.o.slackAccess.refused(failure.code);
            return later(0, 'pending');
          case 'gone':
            for (const i of items) await this.park(i, failure.code);
            return 'gone';
          case 'thread':
            if (!thread) return this.setAside(items, failure.code, 'content', error);
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
            return this.setAside(items, failure.code, failure.hint, error);
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
    items: readonly OutboxItem[],
    reason: string,
    hint: RefusalHint,
    error: unknown,
  ): Promise<Outcome> {
    const { store, slack, logger } = this.o;
    const item = items[0] as OutboxItem;
    const { channel } = item;
    for (const i of items) await store.settle(i, { status: 'dead', reason });
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
    const notice: Parameters<SlackPublisher['notice']>[0] = {
      kind: 'set-aside',
      channel,
      what,
      reason,
      fix: hint === 'channel' ? 'channel' : 'operator',
    };
    const people = new Set((await store.subscriptionsOf(channel)).map((s) => s.createdBy));
    for (const user of people)
      await tellPerson(slack, user, await this.o.publisher.notice(notice, user), logger);
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
    const notice: Parameters<SlackPublisher['notice']>[0] = { kind: 'parked', channel, reason };
    for (const user of people)
      await tellPerson(slack, user, await this.o.publisher.notice(notice, user), logger);
  }
}

type Outcome = 'delivered' | 'retry' | 'gone' | 'dead';

/** Slack's pace in a channel: a second from a post's answer to the next (see `ChannelPace`). */
const defaultPaceMs = 1_000;

/**
 * A channel's claimed items as the messages they make, in order: lines of one ticket's thread that
 * wait together (pending, neither card nor broadcast, at most `gatheredLinesMax`) join the first of
 * them; a card or a broadcast of the ticket, or an item whose earlier attempt is being checked
 * (`unknown`), goes alone and starts a new message after it.
 */
export function gatherable(list: readonly OutboxItem[], max = gatheredLinesMax): OutboxItem[][] {
  const messages: OutboxItem[][] = [];
  const open = new Map<string, OutboxItem[]>();
  for (const item of list) {
    // An id with a space could not be found again among the gathered ids (see `Tag`): it goes alone.
    const line = item.status === 'pending' && isThreadLine(item) && !/\s/.test(item.eventId);
    const joined = line ? open.get(item.ticketId) : undefined;
    if (joined && joined.length < max) {
      joined.push(item);
      continue;
    }
    const message = [item];
    messages.push(message);
    if (line) open.set(item.ticketId, message);
    else open.delete(item.ticketId);
  }
  return messages;
}
