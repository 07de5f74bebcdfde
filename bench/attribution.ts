/*
 * Which changes Slack was told of, from the posts the Slack double recorded: shared by the
 * benchmarks (bench/events.ts, compressed; bench/realtime.ts, in real time).
 */

/** One state move made on the platform. */
export interface Change {
  /** The timeline event the move added (`ev-82001-17`): a post of it tells this change. */
  eventId: string;
  ticketId: string;
  to: string;
  /** The ticket's version after the move, to the second as the platform gives it. */
  modified: number;
  /** When it was made. */
  madeAt: number;
}

/** A post as the double recorded it: its channel, when, and its metadata. */
export interface Post {
  channel: unknown;
  at: number;
  metadata: unknown;
}

/** A state line's id, `stateline:<to>:<modified ISO>`: one line for the moves up to that version. */
const stateLineOf = (eventId: string) => {
  const m = /^stateline:([^:]+):(.+)$/.exec(eventId);
  const modified = m ? Date.parse(m[2] as string) : Number.NaN;
  return Number.isNaN(modified) ? undefined : { to: m?.[1] as string, modified };
};

/** The event ids a message's metadata carries: its `event_id`, or a gathered message's `event_ids` (space-separated). */
function eventIdsOf(payload: Record<string, unknown> | undefined): string[] {
  if (!payload) return [];
  // A gathered message names every line, the first included, in `event_ids`.
  if (typeof payload.event_ids === 'string') return payload.event_ids.split(' ').filter(Boolean);
  return payload.event_id !== undefined && payload.event_id !== null ? [String(payload.event_id)] : [];
}

export interface Attribution {
  /** Each told change's earliest post. */
  toldAt: Map<Change, number>;
  /** How each told change was first told: `own` (its event's post) or `line` (a state line). */
  how: Map<Change, 'own' | 'line'>;
  /** The last of those posts: when everything told was told. */
  lastToldAt: number;
  /** Posts of an event id beyond the first in its channel, plus changes told both ways. */
  duplicates: number;
  /** What each duplicate was (the benches' debug output). */
  duplicateLines: string[];
}

/**
 * Which changes Slack was told of: by a post of the change's own event, or by a state line of its
 * ticket at its version or later posted after it; the earliest counts. A duplicate is an event id
 * posted twice in a channel, or a move told by its own post and by a state line of that same move.
 * Broadcasts (`state:…`) are not counted. Posts after `until` tell nothing but still count as duplicates.
 */
export function attribute(changes: Change[], posts: Post[], until = Number.POSITIVE_INFINITY): Attribution {
  const direct = new Map<string, number>();
  const lines = new Map<string, { modified: number; to: string; at: number }[]>();
  const seen = new Set<string>();
  const duplicateLines: string[] = [];
  for (const c of posts) {
    const payload = (c.metadata as { event_payload?: Record<string, unknown> } | undefined)?.event_payload;
    const ticketId = String(payload?.ticket_id);
    for (const eventId of eventIdsOf(payload)) {
      if (eventId.startsWith('state:')) continue;
      const key = `${String(c.channel)}\t${ticketId}\t${eventId}`;
      if (seen.has(key))
        duplicateLines.push(`ticket ${ticketId}: ${eventId} posted again at ${new Date(c.at).toISOString()}`);
      seen.add(key);
      if (c.at > until) continue;
      const line = stateLineOf(eventId);
      if (line)
        lines.set(ticketId, [
          ...(lines.get(ticketId) ?? []),
          { modified: line.modified, to: line.to, at: c.at },
        ]);
      else direct.set(eventId, Math.min(direct.get(eventId) ?? c.at, c.at));
    }
  }
  const toldAt = new Map<Change, number>();
  const how = new Map<Change, 'own' | 'line'>();
  let lastToldAt = Number.NEGATIVE_INFINITY;
  for (const ch of changes) {
    const own = direct.get(ch.eventId);
    const byLine = (lines.get(ch.ticketId) ?? [])
      .filter((l) => l.modified >= ch.modified && l.at >= ch.madeAt)
      .reduce<number | undefined>((min, l) => Math.min(min ?? l.at, l.at), undefined);
    const sameMove = (lines.get(ch.ticketId) ?? []).some((l) => l.modified === ch.modified && l.to === ch.to);
    if (own !== undefined && sameMove)
      duplicateLines.push(`ticket ${ch.ticketId} → ${ch.to} (${ch.eventId}): its own post and a state line`);
    const at = Math.min(own ?? Number.POSITIVE_INFINITY, byLine ?? Number.POSITIVE_INFINITY);
    if (at === Number.POSITIVE_INFINITY) continue;
    toldAt.set(ch, at);
    how.set(ch, own !== undefined && own === at ? 'own' : 'line');
    lastToldAt = Math.max(lastToldAt, at);
  }
  return { toldAt, how, lastToldAt, duplicates: duplicateLines.length, duplicateLines };
}
