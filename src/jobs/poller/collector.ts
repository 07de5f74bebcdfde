import {
  type ChangeCover,
  coverOf,
  hides,
  stateEventNames,
  stateEvents,
  wantsTimeline,
} from '../../domain/change-cover.js';
import { followMatches } from '../../domain/follow-filter.js';
import type { Logger } from '../../observability/logger.js';
import type { SlackPublisher } from '../../outbound/publisher.js';
import type { PlatformClient } from '../../platform/client.js';
import { retryLevel } from '../../platform/errors.js';
import { type TicketRecord, ticketRecord } from '../../platform/schemas.js';
import type { EventSignal, TicketSignal } from '../../platform/webhook-signal.js';
import type { NewOutboxItem, OutboxItem, Store, Subscription } from '../../store/store.js';
import { keepTicketRecord } from '../../store/ticket-records.js';

/*
 * What each channel gets of a changed ticket: the second of the poller's two jobs (the first, which
 * tickets changed, is `change-finder.ts`). Four ways in, one set of rules (`followMatches`, the
 * covers of `change-cover.ts`; the rights check is the caller's `mayDeliver`):
 * - `fromEvent`: a webhook told a timeline event whole: written with no platform request;
 * - `fromTicket`: a ticket webhook told its new state: cards and broadcasts, no request;
 * - `fromList`: a scan's list page shows a new version: cards, broadcasts and a state line from the
 *   record, and the ticket goes to the read backlog when a channel wants more than the list shows;
 * - `collect`: the ticket's timeline read (one request): every event its channels want, once.
 * Every item's identity is the platform's (an event id, a version), so two ways seeing one change
 * write it once (the outbox ignores an item it holds already).
 */

/**
 * A new subscription starts with the events of the minute before it (context for whoever just
 * subscribed) rather than the ticket's whole history, which stays one click away (Timeline).
 */
const historyMs = 60_000;

/** The findings entry for "a webhook's `objectId` is the timeline event's id" (inferred). */
export const eventIdGuess = 'webhook.conversationevent.objectId';
/** The findings entry for what a `conversationevent` webhook carries (inferred). */
export const eventPropsGuess = 'webhook.conversationevent.props';

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
  /** Re-renders every card of a ticket (`outbound/publisher.ts`). */
  publisher?: Pick<SlackPublisher, 'ticketChanged'> | undefined;
  /**
   * How long a webhook's event waits before it may be posted (default 1.5 s): one that arrives a
   * little late still goes out in the platform's order, and the line of the click that caused it
   * (written a few milliseconds later) tells it once. Counted from the event's platform second.
   */
  holdMs?: number;
  now?: () => number;
}

interface Wanting {
  channel: string;
  sub: Subscription;
  /** The event kinds the channel asked for (undefined: all). */
  kinds: string[] | undefined;
}

const isoOf = (d: Date | undefined) => d?.toISOString() ?? '';

/** The state each state event names (the inverse of `stateEvents`, inferred as it is). */
const stateOfEvent = new Map(Object.entries(stateEvents).map(([state, event]) => [event, state]));

/** A state broadcast's identity: the move, from the version seen before it (each path names it alike). */
const broadcastId = (from: string | undefined, to: string | undefined, since: string) =>
  `state:${from ?? ''}:${to ?? ''}:${since}`;

/** A list-driven state line's identity: the state and the version that shows it. */
const stateLineId = (to: string | undefined, modified: string) => `stateline:${to ?? ''}:${modified}`;

/**
 * Whether a ticket was created within the minute before `at`: it has no history before that minute
 * but what the webhooks told, so a channel new to it needs no read of the minute before.
 */
const bornWithin = (t: TicketRecord, at: Date | null | undefined): boolean =>
  !!t.created && !!at && at.getTime() - t.created.getTime() <= historyMs;

/** Writes a changed ticket's events to the outbox, for each channel that wants them. */
export class Collector {
  constructor(private readonly o: CollectorOptions) {}

  /** The channels interested in a ticket: those watching it, and those whose follow filter matches. */
  private async channelsFor(t: TicketRecord): Promise<Wanting[]> {
    const subs = await this.o.store.subscriptionsForTicket(String(t.id));
    const matching = subs.filter((s) => s.kind === 'watch' || followMatches(s.filter, t));
    const byChannel = new Map<string, Wanting>();
    for (const s of matching) {
      if (byChannel.has(s.channel)) continue;
      if (this.o.mayDeliver && !(await this.o.mayDeliver(s, t))) {
        this.o.logger.info(
          { subscription: s.id, channel: s.channel, ticketId: String(t.id) },
          'not delivered: the person who added this subscription may not see this ticket',
        );
        continue;
      }
      const kinds = Array.isArray(s.filter.events) ? (s.filter.events as string[]) : undefined;
      byChannel.set(s.channel, { channel: s.channel, sub: s, kinds });
    }
    return [...byChannel.values()];
  }

  /**
   * A card item for each channel without the ticket's card yet. It goes first in its channel, before
   * any event however old (`eventAt` ''), since the thread hangs on it.
   */
  private async cardItems(ticketId: string, channels: Wanting[]) {
    const items: NewOutboxItem[] = [];
    for (const { channel } of channels)
      if (!(await this.o.store.find(ticketId, channel)))
        items.push({ ticketId, eventId: 'card', channel, payload: { card: true }, eventAt: '' });
    return items;
  }

  /** The lines already in each channel's thread that tell platform events (their covers). */
  private static covers(outbox: OutboxItem[]): Map<string, ChangeCover[]> {
    const byChannel = new Map<string, ChangeCover[]>();
    for (const i of outbox) {
      const cover = coverOf(i.payload);
      if (cover) byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), cover]);
    }
    return byChannel;
  }

  /**
   * Reads a ticket's timeline (one request) and writes the events its channels want and were not
   * told yet, after the ticket's card for channels that have none; a state change also adds a
   * message in channels that asked (`broadcast`) when `t` is a version not seen before (a read of the
   * backlog passes the kept record: its version was seen by the scan that asked for the read).
   * `readFrom` (ISO, when the read started): the backlog's wants until then are done.
   */
  async collect(t: TicketRecord, o: { readFrom?: string; versionSeen?: boolean } = {}): Promise<number> {
    const { platform, store } = this.o;
    const ticketId = String(t.id);
    const before = o.versionSeen ? undefined : await store.lastSeen(ticketId);
    const modified = isoOf(t.modified);
    const seen = {
      ticketId,
      ...(o.versionSeen ? {} : { modified, state: t.state }),
      readFrom: o.readFrom,
    };
    const channels = await this.channelsFor(t);
    if (!channels.length) {
      await store.advance([], seen);
      await this.cardsChanged(t, before?.modified);
      return 0;
    }
    const events = [];
    for await (const e of platform.paginate('listTicketEvents', { ticketId, limit: 100 })) events.push(e);
    const outbox = await store.outboxOf(ticketId);
    const covers = Collector.covers(outbox);
    const known = new Set(outbox.map((i) => `${i.channel}\u0000${i.eventId}`));
    const ids = new Set(events.map((e) => e.id));
    const items: NewOutboxItem[] = [];
    let aliases = 0;
    let confirmed = 0;
    for (const { channel, sub, kinds } of channels) {
      // Events a webhook told under an id the timeline does not have: the same event, told already.
      const pushed = outbox.filter((i) => i.channel === channel && i.payload.via === 'webhook');
      confirmed += pushed.filter((i) => ids.has(i.eventId)).length;
      const orphans = pushed.filter((i) => !ids.has(i.eventId));
      const since = sub.createdAt.getTime() - historyMs;
      const said = covers.get(channel) ?? [];
      const mine: NewOutboxItem[] = [];
      for (const e of events) {
        if ((kinds && !kinds.includes(e.eventName)) || e.timestamp.getTime() < since) continue;
        if (said.some((c) => hides(c, e)) || known.has(`${channel}\u0000${e.id}`)) continue;
        const alias = orphans.findIndex(
          (i) => i.payload.eventName === e.eventName && i.payload.timestamp === e.timestamp.toISOString(),
        );
        if (alias >= 0) {
          orphans.splice(alias, 1);
          aliases++;
          continue;
        }
        mine.push({
          ticketId,
          eventId: e.id,
          channel,
          eventAt: e.timestamp.toISOString(),
          payload: { eventName: e.eventName, timestamp: e.timestamp.toISOString(), source: e.source ?? null },
        });
      }
      items.push(
        ...(await this.cardItems(ticketId, [{ channel, sub, kinds }])),
        ...mine,
        ...Collector.steps(outbox, events, channel, known),
      );
    }
    if (before && before.state !== t.state) items.push(...this.broadcasts(t, channels, before));
    this.checkEventIds(aliases, confirmed);
    // A state line written meanwhile (a scan, at the same time) may tell one of them: the outbox
    // settles it in the same write.
    const written = await store.advance(items, seen);
    if (!o.versionSeen) await this.cardsChanged(t, before?.modified);
    return written;
  }

  /**
   * The steps of each state line in `channel` that spanned more than one move (the timeline shows
   * two state events or more where the list showed only the ends): one line saying them in order,
   * written once per state line.
   */
  private static steps(
    outbox: OutboxItem[],
    events: { id: string; eventName: string; timestamp: Date; source?: string | null | undefined }[],
    channel: string,
    known: Set<string>,
  ): NewOutboxItem[] {
    const items: NewOutboxItem[] = [];
    for (const line of outbox) {
      const cover = coverOf(line.payload);
      if (line.channel !== channel || line.payload.stateLine !== true || !cover) continue;
      const eventId = `steps:${line.eventId}`;
      if (known.has(`${channel}\u0000${eventId}`)) continue;
      const moves = events
        .filter((e) => stateEventNames.has(e.eventName) && hides(cover, e))
        .sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());
      if (moves.length < 2) continue;
      items.push({
        ticketId: line.ticketId,
        eventId,
        channel,
        eventAt: cover.at,
        payload: {
          stepsLine: true,
          steps: [
            line.payload.from ?? null,
            ...moves.map((e) => stateOfEvent.get(e.eventName) ?? e.eventName),
          ],
        },
      });
    }
    return items;
  }

  /**
   * A scan's list page shows a version of the ticket not seen before. `told`: the webhooks told its
   * events up to this version (then the read is only a check, last in the backlog). Cards and
   * broadcasts come from the record; a state change is told in the thread at once (a state line, for
   * channels that want state events) unless the webhooks told it; the timeline is read later for
   * channels that asked for kinds the list cannot show. No platform request here.
   */
  async fromList(t: TicketRecord, told: boolean): Promise<number> {
    const { store } = this.o;
    const ticketId = String(t.id);
    const before = await store.lastSeen(ticketId);
    const modified = isoOf(t.modified);
    const channels = await this.channelsFor(t);
    const items: NewOutboxItem[] = await this.cardItems(ticketId, channels);
    const moved = before !== undefined && before.state !== t.state;
    if (moved && !told) {
      const cover: ChangeCover = { since: before.modified, at: modified, only: 'state' };
      const stateEvent = t.state ? stateEvents[t.state] : undefined;
      // A person's line (their click) may tell this version already, or a read its state event.
      const outbox = await store.outboxOf(ticketId);
      const said = Collector.covers(outbox);
      const change = { eventName: stateEvent ?? 'ticket.state', timestamp: t.modified as Date, source: null };
      const read = (channel: string) =>
        outbox.some((i) => {
          const at = typeof i.payload.timestamp === 'string' ? i.payload.timestamp : '';
          return (
            i.channel === channel &&
            stateEventNames.has(String(i.payload.eventName)) &&
            // Same second as the version seen counts: times are to the second.
            at >= before.modified &&
            at <= modified
          );
        });
      for (const { channel, kinds } of channels)
        if (
          (!kinds || (stateEvent ? kinds.includes(stateEvent) : kinds.some((k) => stateEventNames.has(k)))) &&
          !(said.get(channel) ?? []).some((c) => hides(c, change)) &&
          !read(channel)
        )
          items.push({
            ticketId,
            eventId: stateLineId(t.state, modified),
            channel,
            eventAt: modified,
            payload: { stateLine: true, from: before.state ?? null, to: t.state ?? null, cover },
          });
    }
    if (moved) items.push(...this.broadcasts(t, channels, before));
    const reads = channels.filter((c) => wantsTimeline(c.kinds));
    // A channel new to the ticket (no card yet) gets the minute before its subscription: a read. A
    // ticket created within that minute has no history but what the webhooks told (when they told this
    // version): then the read is only a check, and a burst of new tickets never holds the scans back.
    const fresh = items.some((i) => i.eventId === 'card') && !bornWithin(t, t.modified);
    // A state line may span several moves the list cannot show: a check read (when nothing else waits)
    // finds the steps in between for the channels that asked only for state events.
    const lined = [...new Set(items.filter((i) => i.payload.stateLine === true).map((i) => i.channel))];
    const want = reads.length
      ? {
          since: modified,
          priority: told && !fresh ? (1 as const) : (0 as const),
          channels: reads.map((c) => c.channel),
        }
      : lined.length
        ? { since: modified, priority: 1 as const, channels: lined }
        : undefined;
    // A read beside this scan may have posted a state event this line tells: the outbox then
    // settles the line in the same write.
    const written = await store.advance(items, { ticketId, modified, state: t.state, want });
    await this.cardsChanged(t, before?.modified);
    return written;
  }

  /**
   * A webhook told one timeline event whole: each channel that wants it gets it, with no platform
   * request (the ticket as last kept decides who wants it). Held a moment (`holdMs`), so the thread
   * keeps the platform's order and a person's line of the same change tells it once. Without a kept
   * record (a ticket never seen), the ticket is read instead (the backlog).
   */
  async fromEvent(s: EventSignal): Promise<number> {
    const { store } = this.o;
    const t = await this.keptRecord(s.ticketId);
    if (!t) {
      await store.wantRead({
        ticketId: s.ticketId,
        since: s.timestamp.toISOString(),
        priority: 0,
        channels: [],
      });
      return 0;
    }
    const at = s.timestamp.toISOString();
    const channels = await this.channelsFor(t);
    // Held until `holdMs` after its platform second began (times are to the second), not after it
    // arrived: a late delivery waits no longer than needed, a prompt one a little under `holdMs`
    // (at least a third of it, for the line of the click that caused it, written milliseconds later).
    const holdMs = this.o.holdMs ?? 1_500;
    const hold = Math.round(
      Math.min(holdMs, Math.max(holdMs / 3, s.timestamp.getTime() + holdMs - (this.o.now?.() ?? Date.now()))),
    );
    const items: NewOutboxItem[] = [];
    for (const { channel, sub, kinds } of channels) {
      if (
        (kinds && !kinds.includes(s.eventName)) ||
        s.timestamp.getTime() < sub.createdAt.getTime() - historyMs
      )
        continue;
      items.push(...(await this.cardItems(s.ticketId, [{ channel, sub, kinds }])), {
        ticketId: s.ticketId,
        eventId: s.eventId,
        channel,
        eventAt: at,
        holdMs: hold,
        payload: { eventName: s.eventName, timestamp: at, source: s.source ?? null, via: 'webhook' },
      });
    }
    const fresh = items.filter((i) => i.eventId === 'card').map((i) => i.channel);
    // One write: the event, how far the webhooks told the ticket, and a read for a channel new to it
    // (the minute before its subscription; only a check for a ticket born within that minute: the
    // webhooks tell its whole history). A line already in the thread may tell the event (a person's
    // click a moment before): the outbox then settles it in the same write, never posted.
    return store.advance(items, {
      ticketId: s.ticketId,
      pushedAt: at,
      ...(fresh.length
        ? { want: { since: at, priority: bornWithin(t, s.timestamp) ? 1 : 0, channels: fresh } }
        : {}),
    });
  }

  /**
   * A ticket webhook told its state: its cards show it and the channels that asked get the
   * broadcast, with no platform request (the rest of the record as last kept). News older than the
   * kept record (a late delivery, or the one a person's own click caused) changes nothing.
   */
  async fromTicket(s: TicketSignal): Promise<void> {
    const { store } = this.o;
    if (!s.state) return;
    const kept = await store.knownTicket(s.ticketId);
    const t = await this.keptRecord(s.ticketId, kept.record);
    if (!t?.modified) return;
    if (s.at && s.at.getTime() <= Date.parse(kept.recordModified ?? '')) return;
    if (!s.at && t.state === s.state) return;
    const next: TicketRecord = { ...t, state: s.state, modified: s.at ?? t.modified };
    if (!(await keepTicketRecord(this.o.store, next))) return;
    const before = await store.lastSeen(s.ticketId);
    if (before && before.state !== s.state) {
      const channels = await this.channelsFor(next);
      // The state as seen changes with its broadcast; the version stays (the scan still reads it).
      await store.advance(this.broadcasts(next, channels, before), {
        ticketId: s.ticketId,
        modified: before.modified,
        state: s.state,
      });
    }
    await this.refreshCards(next, isoOf(t.modified));
  }

  /** The record kept of a ticket (see `SlackPublisher.keep`), parsed again; undefined if none or unreadable. */
  async keptRecord(ticketId: string, record?: Record<string, unknown>): Promise<TicketRecord | undefined> {
    const raw = record ?? (await this.o.store.knownTicket(ticketId)).record;
    const parsed = raw ? ticketRecord.safeParse(raw) : undefined;
    return parsed?.success ? parsed.data : undefined;
  }

  private broadcasts(
    t: TicketRecord,
    channels: Wanting[],
    before: { modified: string; state: string | undefined },
  ): NewOutboxItem[] {
    const ticketId = String(t.id);
    return channels
      .filter(({ sub }) => sub.filter.broadcast === true)
      .map(({ channel }) => ({
        ticketId,
        eventId: broadcastId(before.state, t.state, before.modified),
        channel,
        eventAt: isoOf(t.modified) || undefined,
        // Facts, not text: delivery renders them (buildStateBroadcast), escaping what the platform wrote.
        payload: {
          broadcast: true,
          ticketId,
          reference: t.reference ?? null,
          from: before.state ?? null,
          to: t.state ?? null,
        },
      }));
  }

  /**
   * Checks the guess that a webhook's `objectId` is the timeline event's id, on each read of a
   * ticket whose events webhooks told: events told under another id are found by name and time
   * (`aliases`) and never told twice either way.
   */
  private checkEventIds(aliases: number, confirmed: number): void {
    const findings = this.o.platform.findings;
    if (aliases > 0)
      findings.guess(
        eventIdGuess,
        'ignored',
        `a conversationevent webhook's objectId is not the id the ticket's timeline gives its event (${aliases} matched by name and time instead); events are still told once`,
      );
    else if (confirmed > 0 && findings.statusOf(eventIdGuess) === 'unknown')
      findings.guess(eventIdGuess, 'confirmed', 'webhook objectIds are the timeline’s event ids');
  }

  /**
   * A version not looked at before (not a second look at the same one), and not older than the cards
   * show: kept, and the cards are re-rendered.
   */
  private async cardsChanged(t: TicketRecord, previous: string | undefined): Promise<void> {
    if (!(await keepTicketRecord(this.o.store, t)) || previous === isoOf(t.modified)) return;
    await this.refreshCards(t, previous);
  }

  private async refreshCards(t: TicketRecord, previous: string | undefined): Promise<void> {
    await this.o.publisher
      ?.ticketChanged({ ticket: t, previous })
      .catch((error: unknown) =>
        this.o.logger[retryLevel(error)](
          { err: error, ticketId: String(t.id) },
          'could not refresh the ticket’s cards',
        ),
      );
  }
}
