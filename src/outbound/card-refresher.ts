import { createHash } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { MessagePayload } from '../blocks/kit.js';
import type { Logger } from '../observability/logger.js';
import type { TicketRecord } from '../platform/schemas.js';
import type { TicketCardRepository } from '../store/store.js';
import { classifySlackError } from '../util/slack-errors.js';

/** Card renders remembered per process (see `CardMemo`); the oldest are forgotten beyond this. */
const rememberedCards = 5_000;

const hashOf = (m: MessagePayload) => createHash('sha1').update(JSON.stringify(m)).digest('base64');

/**
 * What each card (channel:ts) was last rendered as by this process (a hash of the message): a change
 * reaches the cards twice (a click, then the scan that finds its version) and a card is updated only
 * when it would show something else. Not a version: the platform writes `modified` to the second,
 * and two changes in one second must both show. Shared by people's updates and the refresher's.
 */
export class CardMemo {
  private readonly rendered = new Map<string, string>();

  /** Whether this process has rendered the card (a restart does not update every card at once). */
  knows(card: { channel: string; ts: string }): boolean {
    return this.rendered.has(`${card.channel}:${card.ts}`);
  }

  /** Whether the card already shows `message`. */
  shows(card: { channel: string; ts: string }, message: MessagePayload): boolean {
    return this.rendered.get(`${card.channel}:${card.ts}`) === hashOf(message);
  }

  remember(card: { channel: string; ts: string }, message: MessagePayload): void {
    const key = `${card.channel}:${card.ts}`;
    this.rendered.delete(key);
    this.rendered.set(key, hashOf(message));
    if (this.rendered.size > rememberedCards) {
      const oldest = this.rendered.keys().next().value;
      if (oldest !== undefined) this.rendered.delete(oldest);
    }
  }
}

export interface CardRefresherOptions {
  /**
   * Its own Web API client, which never waits on a 429 by itself (`deliveryClient`): a 429 of the
   * cards' background updates must not pause the client that answers people (@slack/web-api pauses
   * a client's whole queue on one).
   */
  slack: WebClient;
  store: Pick<TicketCardRepository, 'forTicket'>;
  memo: CardMemo;
  /** The card of a record (background work: no rights check, labels as cached). */
  render: (ticket: TicketRecord) => Promise<MessagePayload>;
  logger: Logger;
  /**
   * `chat.update` calls a minute at most (default 40): Slack's Tier 3 allows about 50 a minute for the
   * workspace, and people's own updates (Refresh, a click) need the rest.
   */
  updatesPerMinute?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Updates that may go at once after a quiet spell (Slack's tiers allow short bursts). */
const cardBurst = 5;

const modifiedOf = (t: TicketRecord) => t.modified?.getTime() ?? 0;

interface Dirty {
  ticket: TicketRecord;
  /** Only the cards this process rendered (the first sight of a ticket after a start). */
  knownOnly: boolean;
}

/**
 * Keeps ticket cards current with what the platform changed (a scan's or a webhook's version),
 * coalesced: a card shows the latest state, so a ticket that changes five times while its card waits
 * for its turn costs one `chat.update`, not five, and the updates stay within Slack's pace for the
 * method however busy the desk. People's own updates (Refresh, a click) go through the publisher's
 * client at once and never wait here.
 */
export class CardRefresher {
  private readonly dirty = new Map<string, Dirty>();
  private readonly gapMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Updates that may go now (a token bucket: `burst` at most, one more every gap). */
  private tokens = cardBurst;
  private filledAt: number;
  private trigger: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly o: CardRefresherOptions) {
    this.gapMs = 60_000 / (o.updatesPerMinute ?? 40);
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.filledAt = this.now();
  }

  /** Waits until an update may go (Slack's pace for the method), then takes it. */
  private async turn(): Promise<void> {
    const now = this.now();
    this.tokens = Math.min(cardBurst, this.tokens + (now - this.filledAt) / this.gapMs);
    this.filledAt = now;
    if (this.tokens < 1) {
      await this.sleep((1 - this.tokens) * this.gapMs);
      this.tokens = 1;
      this.filledAt = this.now();
    }
    this.tokens -= 1;
  }

  /** Tickets whose cards wait for an update. */
  get waiting(): number {
    return this.dirty.size;
  }

  /**
   * The job that refreshes the cards (`jobs/starters.ts`) is told of each change through `trigger`;
   * without one (no jobs), a change is refreshed before `changed` answers.
   */
  whenChanged(trigger: () => void): void {
    this.trigger = trigger;
  }

  /** A new version of a ticket: its cards will show it (its place in the line is kept if it waits already). */
  async changed(ticket: TicketRecord, knownOnly: boolean): Promise<void> {
    const id = String(ticket.id);
    const waiting = this.dirty.get(id);
    const newer = !waiting || modifiedOf(ticket) >= modifiedOf(waiting.ticket);
    this.dirty.set(id, {
      ticket: newer ? ticket : (waiting as Dirty).ticket,
      knownOnly: knownOnly && (waiting?.knownOnly ?? true),
    });
    if (this.trigger) this.trigger();
    else await this.run();
  }

  /**
   * Updates the waiting cards, oldest change first, one `chat.update` per gap, until none waits or
   * `stopping` says so. One run at a time (a second call waits for the first).
   */
  run(stopping: () => boolean = () => false): Promise<void> {
    this.running ??= this.updateWaiting(stopping).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async updateWaiting(stopping: () => boolean): Promise<void> {
    while (!stopping()) {
      const next = this.dirty.entries().next();
      if (next.done) return;
      const [id, dirty] = next.value;
      this.dirty.delete(id);
      await this.refresh(dirty);
    }
  }

  private async refresh(dirty: Dirty): Promise<void> {
    const { store, memo, slack, logger } = this.o;
    let { ticket } = dirty;
    const { knownOnly } = dirty;
    const ticketId = String(ticket.id);
    let message: MessagePayload | undefined;
    for (const card of await store.forTicket(ticketId)) {
      if (knownOnly && !memo.knows(card)) continue;
      try {
        message ??= await this.o.render(ticket);
        if (memo.shows(card, message)) continue;
        await this.turn();
        // A newer version that came while this one waited for Slack's pace is the one shown.
        const came = this.dirty.get(ticketId);
        if (came && modifiedOf(came.ticket) >= modifiedOf(ticket)) {
          this.dirty.delete(ticketId);
          ticket = came.ticket;
          message = await this.o.render(ticket);
          if (memo.shows(card, message)) continue;
        }
        await slack.chat.update({ channel: card.channel, ts: card.ts, ...message });
        memo.remember(card, message);
      } catch (error) {
        const failure = classifySlackError(error);
        if (failure.kind === 'rate_limited') {
          // Nothing was updated: the ticket waits again (a newer version meanwhile wins), after Slack's wait.
          this.tokens = -failure.retryAfterMs / this.gapMs;
          this.filledAt = this.now();
          if (!this.dirty.has(ticketId)) this.dirty.set(ticketId, { ticket, knownOnly });
          return;
        }
        logger.warn({ err: error, channel: card.channel, ticketId }, 'could not refresh a ticket card');
      }
    }
  }
}
