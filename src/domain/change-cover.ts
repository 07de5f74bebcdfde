/*
 * Covers: which of the platform's own events a change made from Slack already told, so a thread says
 * it once (with the person's name) instead of twice. Pure rules, used by the publisher (which writes
 * the cover with a person's line) and the poller (which leaves the covered events out).
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
}

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

/** The cover of an outbox item's payload, when it is a person's line with one. */
export function coverOf(payload: Record<string, unknown>): ChangeCover | undefined {
  const c = payload.cover as { at?: unknown; since?: unknown } | undefined;
  if (!c || typeof c.at !== 'string') return undefined;
  return { at: c.at, since: typeof c.since === 'string' ? c.since : null };
}
