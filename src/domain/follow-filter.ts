import { type TicketRecord, ticketStates } from '../platform/schemas.js';
import { type Problem, problem } from './problem.js';

/** What a channel's `/ticket follow` asks for: new tickets and events matching all the given fields. */
export interface FollowFilter {
  group?: string;
  agent?: string;
  type?: string;
  states?: string[];
  /** Event kinds posted in threads (others only update the card); all when absent. */
  events?: string[];
  /** State changes are also posted in the channel itself, not only in the ticket's thread. */
  broadcast?: boolean;
}

/** Splits on spaces, keeping `key:"a value with spaces"` whole. */
const words = (text: string) =>
  [...text.matchAll(/(\w+:"[^"]*"|\S+)/g)].map((m) => (m[1] as string).replace(/"/g, ''));

/**
 * Reads `/ticket follow [group:<name>] [agent:<username>] [type:<t>] [states:a,b] [events:x,y]
 * [broadcast]`. Group names are resolved later (they live on the platform).
 */
export function parseFollowFilter(
  text: string,
): { ok: true; filter: FollowFilter } | { ok: false; problem: Problem } {
  const filter: FollowFilter = {};
  for (const w of words(text)) {
    if (w.toLowerCase() === 'broadcast') {
      filter.broadcast = true;
      continue;
    }
    const m = /^(group|agent|type|states|events):(.+)$/i.exec(w);
    if (!m) return { ok: false, problem: problem('ticket.follow.notUnderstood', { word: w }) };
    const key = (m[1] as string).toLowerCase() as 'group' | 'agent' | 'type' | 'states' | 'events';
    const value = (m[2] as string).trim();
    if (key === 'states' || key === 'events') {
      const list = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown =
        key === 'states' ? list.filter((s) => !(ticketStates as readonly string[]).includes(s)) : [];
      if (unknown.length)
        return {
          ok: false,
          problem: problem('ticket.follow.unknownStates', {
            count: unknown.length,
            unknown: unknown.join(', '),
            states: ticketStates.join(', '),
          }),
        };
      filter[key] = list;
    } else filter[key] = value;
  }
  return { ok: true, filter };
}

/** The filter in words, for `/ticket subscriptions`. */
export function describeFilter(f: Record<string, unknown>): string {
  const parts = Object.entries(f)
    .filter(([k]) => k !== 'groupId')
    .map(([k, v]) => (v === true ? k : `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`));
  return parts.length ? parts.join(' · ') : 'every ticket';
}

/** Whether a `follow` subscription's filter matches a ticket (every given field must). */
export function followMatches(filter: Record<string, unknown>, t: TicketRecord): boolean {
  const agent = t.agent && typeof t.agent === 'object' ? t.agent : undefined;
  if (filter.groupId !== undefined && String(t.group_id ?? '') !== String(filter.groupId)) return false;
  if (
    filter.agent !== undefined &&
    agent?.username !== filter.agent &&
    String(agent?.id ?? t.agent) !== filter.agent
  )
    return false;
  if (filter.type !== undefined && t.type !== filter.type) return false;
  if (Array.isArray(filter.states) && !filter.states.includes(t.state)) return false;
  return true;
}
