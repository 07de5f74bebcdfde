import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { buildConferenceCard } from '../blocks/conference-card.js';
import { buildDigest } from '../blocks/digest.js';
import { buildJobNotice, type JobNotice } from '../blocks/job-notices.js';
import type { MessagePayload, TextMessage } from '../blocks/kit.js';
import type { Mrkdwn } from '../blocks/mrkdwn.js';
import { buildReminder } from '../blocks/reminder.js';
import {
  buildDeletedTicketCard,
  buildStateBroadcast,
  buildTicketCard,
  eventPayloadLine,
} from '../blocks/ticket-card.js';
import {
  buildGatheredLines,
  gatheredLinesMax,
  type PersonLine,
  personLine,
  stateLine,
  stepsLine,
} from '../blocks/ticket-line.js';
import { type ChangeCover, fromTheStart } from '../domain/change-cover.js';
import type { ConferenceSummary } from '../domain/conference.js';
import type { DigestData } from '../domain/digest.js';
import type { TicketSummary } from '../domain/ticket.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import { type TicketRecord, ticketRecord } from '../platform/schemas.js';
import type { TicketService } from '../services/tickets.js';
import type { OutboxItem, Store } from '../store/store.js';
import { keepTicketRecord } from '../store/ticket-records.js';
import { CardMemo, CardRefresher } from './card-refresher.js';
import type { ChannelPace } from './channel-pace.js';
import type { HomeScreens } from './home-screens.js';

/** A message as a job posts it: a builder's payload (its blocks, when it has any). */
export type OutgoingMessage = MessagePayload | TextMessage;

/** A version of a ticket the poller (scan or webhook) found on the platform. */
export interface PlatformChange {
  ticket: TicketRecord;
  /** The version (`modified`, ISO) the poller saw before this one; undefined the first time it sees the ticket. */
  previous: string | undefined;
}

/** A change a person made from Slack, as the ticket service answered it. */
export type SlackChange =
  | {
      kind: 'moved';
      move: { id: string; to?: string | undefined };
      before: TicketSummary;
      after: TicketSummary;
      /** The record after the change: kept as the cards' version (see `keepTicketRecord`). */
      record?: TicketRecord | undefined;
    }
  | { kind: 'edited'; after: TicketSummary; changed: string[] }
  | { kind: 'deleted'; ticket: TicketSummary }
  | { kind: 'created'; ticket: TicketSummary };

export interface PublisherOptions {
  /**
   * The Web API client for cards (a retrying one: chat.update is idempotent, so its retries are
   * safe; a card post is a person's request, answered at once). Thread lines never go through it: they go
   * through the outbox, whose delivery client never retries blindly.
   */
  slack: WebClient;
  store: Store;
  tickets: Pick<TicketService, 'summary'>;
  logger: Logger;
  /** The App Homes that list tickets: told each change, whoever made it. */
  homes?: Pick<HomeScreens, 'shows' | 'ticketChanged' | 'conferenceChanged'> | undefined;
  /**
   * The client of the cards' background updates (what the platform changed): one that never waits
   * on a 429 by itself (`deliveryClient`), so a 429 there never pauses `slack`, which answers people.
   * Absent: `slack`.
   */
  backgroundSlack?: WebClient | undefined;
  /** The background updates' `chat.update` calls a minute at most (`CardRefresher`). */
  cardUpdatesPerMinute?: number | undefined;
  /** Each channel's pace, shared with delivery: a person's post takes the next slot (`ChannelPace`). */
  pace?: ChannelPace | undefined;
  /** The language of what channels see (cards, thread lines); unset: English. */
  channelLocale?: Locale | undefined;
  /** A person's language, for what they alone are sent (job notices): their cached Slack profile; unset: English. */
  personLocale?: ((user: string) => Promise<Locale>) | undefined;
}

const iso = (d: Date | undefined) => (d && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined);

/**
 * The message for an outbox item: a ticket's card (`card`), a state broadcast in the channel, a
 * person's line (`line`) or a platform event's line in the card's thread. `card` renders a card.
 */
export async function outboxMessage(
  item: Pick<OutboxItem, 'ticketId' | 'payload'>,
  card: (ticketId: string) => Promise<OutgoingMessage>,
  locale: Locale,
): Promise<OutgoingMessage> {
  const p = item.payload;
  if (p.reminder === true) return reminderMessage(p);
  if (p.card === true) return card(item.ticketId);
  if (p.broadcast === true) return buildStateBroadcast(locale, item.ticketId, p);
  return buildGatheredLines([threadLine(locale, p)]);
}

export { gatheredLinesMax };

/** Whether an outbox item is a line of its ticket's thread (not a card, not a broadcast in the channel). */
export const isThreadLine = (item: Pick<OutboxItem, 'payload'>): boolean =>
  item.payload.card !== true && item.payload.broadcast !== true && item.payload.reminder !== true;

/** What a reminder's outbox item carries (written by the reminder job): all its message needs, no read. */
const reminderPayload = z.object({
  title: z.string(),
  start: z.iso.datetime(),
  leadMinutes: z.number().int().positive(),
  joinUrl: z.string().optional(),
  invited: z.object({ members: z.array(z.string()), outside: z.array(z.string()) }).optional(),
  /** The recipient's language (their cached Slack profile's, when the job wrote it); unset: English. */
  locale: z.enum(['en', 'fr']).optional(),
});

/** A conference reminder's DM, from its outbox item (`reminderPayload`). */
function reminderMessage(p: Record<string, unknown>): OutgoingMessage {
  const { locale, ...r } = reminderPayload.parse(p);
  return buildReminder(locale ?? 'en', { ...r, start: new Date(r.start) });
}

/** A thread line's sentence in the channel's language: a state line, a person's line, or a platform event's. */
function threadLine(locale: Locale, p: Record<string, unknown>): Mrkdwn {
  if (p.stateLine === true) return stateLine(locale, p);
  if (p.stepsLine === true) return stepsLine(locale, p);
  if (typeof p.line === 'string' && typeof p.actor === 'string')
    return personLine(locale, p as unknown as PersonLine);
  return eventPayloadLine(locale, p);
}

/** Several thread lines of one ticket as one message, in their order (`isThreadLine` items). */
export const gatheredMessage = (
  items: readonly Pick<OutboxItem, 'payload'>[],
  locale: Locale,
): OutgoingMessage => buildGatheredLines(items.map((i) => threadLine(locale, i.payload)));

/**
 * The one writer of what the bot posts about tickets outside a reply (Dispatch's Slack plugin):
 * it posts a ticket's card and remembers where, re-renders every card of a ticket when the ticket
 * changes (whoever changed it: a person in Slack, or the platform as a scan or a webhook found it),
 * and queues the thread lines in the outbox, where delivery paces, tags and posts them exactly once.
 * Cards are followed through the store's record of where they were posted, not through
 * subscriptions, so a card posted by `/ticket show` stays live too.
 */
export class SlackPublisher {
  /** What each card was last rendered as by this process (see `CardMemo`). */
  private readonly memo = new CardMemo();
  /** The cards' background updates, coalesced and paced (see `CardRefresher`). */
  readonly cards: CardRefresher;

  /** The language of what channels see (`PublisherOptions.channelLocale`). */
  private readonly locale: Locale;

  constructor(private readonly o: PublisherOptions) {
    this.locale = o.channelLocale ?? 'en';
    this.cards = new CardRefresher({
      slack: o.backgroundSlack ?? o.slack,
      store: o.store,
      memo: this.memo,
      render: async (ticket) => buildTicketCard(this.locale, await this.o.tickets.summary(ticket)),
      logger: o.logger,
      ...(o.cardUpdatesPerMinute ? { updatesPerMinute: o.cardUpdatesPerMinute } : {}),
    });
  }

  /** Posts a conference's card in a channel. Slack's refusals are thrown (see `isCannotPost`). */
  async postConferenceCard(channel: string, conference: ConferenceSummary): Promise<string> {
    const posted = await this.paced(channel, () =>
      this.o.slack.chat.postMessage({
        channel,
        ...buildConferenceCard(this.o.channelLocale ?? 'en', conference),
      }),
    );
    this.conferenceChanged(conference);
    // Its place, for a permalink (a workflow step's output).
    return posted.ts as string;
  }

  /**
   * A conference was created, edited or deleted from Slack: the App Homes it concerns are read again,
   * detached (the person's reply does not wait for other people's Homes).
   */
  conferenceChanged(conference: ConferenceSummary | { id: string; participants: string[] }): void {
    void this.o.homes
      ?.conferenceChanged(conference)
      .catch((error: unknown) => this.o.logger.warn({ err: error }, 'could not refresh App Homes'));
  }

  /** Re-renders a conference's card in place (after an edit). */
  async showConferenceCard(
    place: { channel: string; ts: string },
    conference: ConferenceSummary,
  ): Promise<void> {
    await this.o.slack.chat.update({
      ...place,
      ...buildConferenceCard(this.o.channelLocale ?? 'en', conference),
    });
    this.conferenceChanged(conference);
  }

  /** Posts a reply a person asked for in a card's thread (a ticket's timeline). */
  async postInThread(place: { channel: string; ts: string }, message: MessagePayload): Promise<void> {
    await this.paced(place.channel, () =>
      this.o.slack.chat.postMessage({ channel: place.channel, thread_ts: place.ts, ...message }),
    );
  }

  /** Posts a ticket's card in a channel and records it there; answers its ts. Slack's refusals are thrown. */
  async postCard(channel: string, ticket: TicketSummary): Promise<string> {
    const posted = await this.paced(channel, () =>
      this.o.slack.chat.postMessage({ channel, ...buildTicketCard(this.locale, ticket) }),
    );
    const ts = posted.ts as string;
    await this.o.store.save({ ticketId: ticket.id, channel, ts });
    this.memo.remember({ channel, ts }, buildTicketCard(this.locale, ticket));
    return ts;
  }

  /** A person's post in a channel, in the channel's next slot (`ChannelPace`). */
  private async paced<T>(channel: string, post: () => Promise<T>): Promise<T> {
    const answered = await this.o.pace?.turn(channel, 'person');
    return post().finally(() => answered?.());
  }

  /**
   * Re-renders one card as a person sees it now (Refresh, or a move the ticket no longer offers): a
   * read, so no line; through here so that what the card shows is known.
   */
  async showCard(place: { channel: string; ts: string }, ticket: TicketSummary): Promise<void> {
    const card = buildTicketCard(this.locale, ticket);
    await this.o.slack.chat.update({ ...place, ...card });
    this.memo.remember(place, card);
  }

  /** A message's permalink, or undefined when Slack gives none (a link is then left out, not guessed). */
  async permalink(place: { channel: string; ts: string }): Promise<string | undefined> {
    const r = await this.o.slack.chat
      .getPermalink({ channel: place.channel, message_ts: place.ts })
      .catch(() => undefined);
    return typeof r?.permalink === 'string' ? r.permalink : undefined;
  }

  /**
   * A ticket changed. From Slack (`actor` set): every card is re-rendered from the service's answer
   * and one line per card thread, naming the person, is queued; the platform's own events for the
   * same versions are then left out of those threads (see `ChangeCover`). From the platform: every
   * card not yet showing this version is re-rendered (a card this process has not rendered is left
   * alone the first time the poller sees the ticket, so a restart does not update every card).
   */
  async ticketChanged(change: PlatformChange): Promise<void>;
  async ticketChanged(change: SlackChange, actor: string): Promise<void>;
  async ticketChanged(change: PlatformChange | SlackChange, actor?: string): Promise<void> {
    if (!('kind' in change)) return this.platformChanged(change);
    const who = actor as string;
    const homes = this.o.homes;
    if (homes) {
      const t = change.kind === 'moved' || change.kind === 'edited' ? change.after : change.ticket;
      const gone = change.kind === 'deleted' ? { ...t, state: 'deleted' } : t;
      // Other people's Homes, detached: the person's answer (their card, their line) does not wait.
      if (homes.shows(t.id))
        void homes
          .ticketChanged(gone)
          .catch((error: unknown) => this.o.logger.warn({ err: error }, 'could not refresh App Homes'));
    }
    switch (change.kind) {
      case 'moved': {
        const { before, after, move, record } = change;
        await keepTicketRecord(this.o.store, record);
        await this.refresh(after.id, () => buildTicketCard(this.locale, after));
        const at = iso(after.modified);
        return this.queueLine(
          after.id,
          `move:${after.id}:${at ?? new Date().toISOString()}:${before.state ?? ''}:${move.id}`,
          move.to
            ? { line: 'moved', actor: who, from: before.state ?? null, to: after.state ?? null }
            : { line: 'took', actor: who },
          at && { since: iso(before.modified) ?? null, at },
        );
      }
      case 'edited': {
        const { after, changed } = change;
        const at = iso(after.modified);
        await this.refresh(after.id, () => buildTicketCard(this.locale, after));
        return this.queueLine(
          after.id,
          `edit:${after.id}:${at ?? new Date().toISOString()}:${changed.join(',')}`,
          { line: 'edited', actor: who, fields: changed },
          at && { since: null, at },
        );
      }
      case 'deleted': {
        const { ticket } = change;
        await this.refresh(ticket.id, () => buildDeletedTicketCard(this.locale, ticket, who));
        return this.queueLine(ticket.id, `delete:${ticket.id}`, { line: 'deleted', actor: who });
      }
      case 'created': {
        // Every platform event of the ticket up to the version created is the creation's (ticket.new,
        // its assignment, its invitation): the line says it. Without `modified`, no cover: they are told too.
        const at = iso(change.ticket.modified);
        return this.queueLine(
          change.ticket.id,
          `create:${change.ticket.id}`,
          { line: 'created', actor: who },
          at && { since: fromTheStart, at },
        );
      }
    }
  }

  /**
   * The message for an outbox item (delivery's port). A card is rendered from the record kept of its
   * ticket (the list page or a read that found it) with no request; read only when none is kept.
   */
  render(item: OutboxItem): Promise<OutgoingMessage> {
    return outboxMessage(
      item,
      async (id) => {
        const kept = (await this.o.store.knownTicket(id)).record;
        const record = kept ? ticketRecord.safeParse(kept) : undefined;
        return buildTicketCard(this.locale, await this.o.tickets.summary(record?.success ? record.data : id));
      },
      this.locale,
    );
  }

  /** One message for several lines of one ticket's thread that wait together (delivery's port). */
  gather(items: readonly OutboxItem[]): OutgoingMessage {
    return gatheredMessage(items, this.locale);
  }

  /** A job's private notice to `user` (the jobs' port), in their language. */
  async notice(n: JobNotice, user: string): Promise<OutgoingMessage> {
    const locale = this.o.personLocale ? await this.o.personLocale(user).catch((): Locale => 'en') : 'en';
    return buildJobNotice(locale, n);
  }

  /** A daily digest (the digest job's port). */
  digest(
    data: DigestData,
    o: { late?: boolean; next?: Date; chart?: { fileId: string; alt: string } },
  ): OutgoingMessage {
    return buildDigest(data, { ...o, locale: this.o.channelLocale ?? 'en' });
  }

  /**
   * A version the platform reports: the Homes listing the ticket are read again, and its cards wait
   * their turn in the refresher (coalesced, paced; the first sight after a start touches only the
   * cards this process rendered).
   */
  private async platformChanged({ ticket, previous }: PlatformChange): Promise<void> {
    const homes = this.o.homes;
    if (homes?.shows(String(ticket.id)))
      await homes
        .ticketChanged(await this.o.tickets.summary(ticket))
        .catch((error: unknown) => this.o.logger.warn({ err: error }, 'could not refresh App Homes'));
    await this.cards.changed(ticket, previous === undefined);
  }

  /**
   * Re-renders every card of a ticket that does not already show this message, at once (a person's
   * change: their answer). A card that cannot be updated is logged; the others go on.
   */
  private async refresh(ticketId: string, build: () => MessagePayload): Promise<void> {
    const { store, slack, logger } = this.o;
    for (const card of await store.forTicket(ticketId)) {
      try {
        const message = build();
        if (this.memo.shows(card, message)) continue;
        await slack.chat.update({ channel: card.channel, ts: card.ts, ...message });
        this.memo.remember(card, message);
      } catch (error) {
        logger.warn({ err: error, channel: card.channel, ticketId }, 'could not refresh a ticket card');
      }
    }
  }

  /** Queues one line per card thread of the ticket, in the outbox (exactly once per event id and channel). */
  private async queueLine(
    ticketId: string,
    eventId: string,
    line: PersonLine,
    cover?: ChangeCover | '' | undefined,
  ): Promise<void> {
    const channels = new Set((await this.o.store.forTicket(ticketId)).map((c) => c.channel));
    const payload: Record<string, unknown> = { ...line, ...(cover ? { cover } : {}) };
    // A webhook's event of this very change may be waiting already: the outbox settles it in the same
    // write (the line tells it).
    await this.o.store.advance([...channels].map((channel) => ({ ticketId, eventId, channel, payload })));
  }
}
