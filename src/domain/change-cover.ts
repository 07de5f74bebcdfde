/*
 * Covers: which of the platform's own events a change made from Slack already told, so a thread says
 * it once (with the person's name) instead of twice. Pure rules, used by the publisher (which writes
 * the cover with a person's line), the poller (which leaves the covered events out) and the outbox
 * (whose every write settles the items waiting that a line tells: `toldByLines`).
 */

/**
 * The platform versions a change made from Slack produced, kept in its thread line's outbox payload
 * (`cover`): the poller leaves out the platform's own events of that change in the channels the
 * line went to (the person's line says it already, with their name). `since`: the version the
 * person acted on; null when unknown (then the events of `at`'s second only); `fromTheStart` for a
 * creation (nothing of the ticket exists before it, so every event up to `at` is the creation's).
 * `at`: the version after.
 */
export interface ChangeCover {
  since: string | typeof fromTheStart | null;
  at: string;
  /**
   * `state`: a line the poller wrote from a list page ("open → done"): it tells only the state
   * events of those versions (`stateEventNames`), not the rest of the timeline.
   */
  only?: 'state' | undefined;
}

/**
 * The timeline event each state change writes (platform-facts.md names its events, not this
 * mapping: INFERRED, the simulator's assumption). Used only to leave out of a thread the state
 * events a list-driven state line already told; a wrong guess shows as one line told twice, never
 * as one lost.
 */
export const stateEvents: Readonly<Record<string, string>> = {
  open: 'ticket.approved',
  invited: 'ticket.invitationSent',
  inprogress: 'ticket.sessionStarted',
  done: 'ticket.completed',
  closed: 'ticket.closed',
  cancelled: 'ticket.cancelled',
  declined: 'ticket.invitationDeclined',
  expired: 'ticket.invitationExpired',
  rejected: 'ticket.rejected',
};
export const stateEventNames: ReadonlySet<string> = new Set(Object.values(stateEvents));

/** Whether a channel asking for these event kinds (undefined: all) needs more than a list page shows. */
export const wantsTimeline = (kinds: readonly string[] | undefined) =>
  !kinds || kinds.some((k) => !stateEventNames.has(k));

/** `since` of a creation's cover: from the ticket's first event on. */
export const fromTheStart = 'start';

/**
 * Whether a platform event belongs to a change made from Slack. The platform writes times to the
 * second, so an event is taken as that change's when it is later than the version acted on and no
 * later than the version after; when both are in the same second, events of that second.
 */
export function coveredBy(cover: ChangeCover, timestamp: Date): boolean {
  const t = timestamp.getTime();
  const at = Date.parse(cover.at);
  if (cover.since === fromTheStart) return t <= at;
  const since = cover.since === null ? at : Date.parse(cover.since);
  return t <= at && (t > since || t === at);
}

/** `ticket.*` events that are the guest's answer to an invitation (or its lapse), never a change from Slack. */
const notFromSlack = new Set([
  'ticket.invitationClicked',
  'ticket.invitationDeclined',
  'ticket.invitationExpired',
]);

/**
 * Whether a platform event may be one a change made from Slack produced, so that a cover may hide
 * it. A change from Slack (create, move, edit) writes only the ticket's own record: `ticket.*`
 * events (creation, state, assignment, invitation sent), by the agent or the system. So never what
 * the guest does (their source, or their answer to the invitation) nor what happens in the session
 * (`session.*`, `media.*`, `consent.*`, `mediaDevice.*`): a guest joining in the second of an agent's
 * Start is still told. A `ticket.*` name not known yet stays coverable (no double line).
 */
export function coverable(event: { eventName: string; source?: string | null | undefined }): boolean {
  return (
    event.source !== 'guest' && event.eventName.startsWith('ticket.') && !notFromSlack.has(event.eventName)
  );
}

/** Whether a line with this cover already told this platform event (so it is left out). */
export function hides(
  cover: ChangeCover,
  event: { eventName: string; timestamp: Date; source?: string | null | undefined },
): boolean {
  if (cover.only !== 'state') return coverable(event) && coveredBy(cover, event.timestamp);
  // A state line tells every state move from the version seen before it, that second included (a
  // second move in the second of the version seen is one of them: times are to the second), whoever
  // made it: a list page shows the state, not who moved it (the guest who joined, or declined).
  const t = event.timestamp.getTime();
  const since =
    cover.since === null || cover.since === fromTheStart ? Date.parse(cover.at) : Date.parse(cover.since);
  return stateEventNames.has(event.eventName) && t >= since && t <= Date.parse(cover.at);
}

/** The cover of an outbox item's payload, when it is a line with one (a person's, or a state line). */
export function coverOf(payload: Record<string, unknown>): ChangeCover | undefined {
  const c = payload.cover as { at?: unknown; since?: unknown; only?: unknown } | undefined;
  if (!c || typeof c.at !== 'string') return undefined;
  return {
    at: c.at,
    since: typeof c.since === 'string' ? c.since : null,
    ...(c.only === 'state' ? { only: 'state' as const } : {}),
  };
}

/** An outbox item as far as the rules below read it (the store's `OutboxItem` is one). */
export interface ToldItem {
  channel: string;
  status: string;
  slackTs?: string | undefined;
  payload: Record<string, unknown>;
}

/** Whether an outbox item is one `toldByLines` reads: a line with a cover, or an item that tells a platform event. */
export const tellsOrTold = (payload: Record<string, unknown>): boolean =>
  coverOf(payload) !== undefined || eventTold(payload) !== undefined;

/**
 * Of a ticket's outbox items, the pending platform events that a line in the same thread already
 * tells (a person's line, or a state line), in the items' order: they are settled without a post.
 */
export function toldByLines<T extends ToldItem>(items: readonly T[]): T[] {
  const covers = new Map<string, ChangeCover[]>();
  for (const i of items) {
    const cover = coverOf(i.payload);
    // A line settled without a post (its event was on its way) tells nothing: should that event come
    // back unposted (a claim let go, a retry), it is still told, by itself.
    const leftOut = i.status === 'delivered' && i.slackTs === undefined;
    if (cover && !leftOut) covers.set(i.channel, [...(covers.get(i.channel) ?? []), cover]);
  }
  return items.filter((i) => {
    const event = eventTold(i.payload);
    if (i.status !== 'pending' || !event) return false;
    // A state line is told by a person's line (never by itself, nor by another state line).
    const by = (covers.get(i.channel) ?? []).filter((c) => !(i.payload.stateLine && c.only === 'state'));
    return by.some((c) => hides(c, event)) || (i.payload.stateLine === true && stateEventOut(items, i));
  });
}

/**
 * Whether a state line's move went out already as the platform's own state event (a timeline read
 * that ran beside the scan): then the line is the one left out. (While both wait, the event is.)
 */
function stateEventOut(items: readonly ToldItem[], line: ToldItem): boolean {
  const cover = coverOf(line.payload);
  return (
    !!cover &&
    items.some((i) => {
      const event = eventTold(i.payload);
      return (
        i.channel === line.channel &&
        // Posted, or on its way (not one settled here without a post: it has no ts).
        (i.slackTs !== undefined || i.status === 'unknown') &&
        typeof i.payload.eventName === 'string' &&
        !!event &&
        hides(cover, event)
      );
    })
  );
}

/** The platform event an outbox item tells (a platform event's line, or a state line's version). */
function eventTold(p: Record<string, unknown>) {
  if (typeof p.eventName === 'string' && typeof p.timestamp === 'string')
    return {
      eventName: p.eventName,
      timestamp: new Date(p.timestamp),
      source: typeof p.source === 'string' ? p.source : null,
    };
  const at = coverOf(p)?.at;
  if (p.stateLine === true && at)
    return { eventName: stateEvents[String(p.to)] ?? 'ticket.state', timestamp: new Date(at), source: null };
  return undefined;
}
