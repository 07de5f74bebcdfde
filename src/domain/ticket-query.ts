import { DateTime } from 'luxon';

/** What `/ticket list …` asks for, before names are resolved and dates placed in the person's zone. */
export interface TicketQueryText {
  scope: 'mine' | 'all' | 'group';
  group?: string;
  reference?: string;
  search?: string;
  type?: string;
  requestorId?: number;
  createdAfter?: string;
  createdBefore?: string;
  startedAfter?: string;
  endedBefore?: string;
}

const dateKeys = {
  since: 'createdAfter',
  until: 'createdBefore',
  started: 'startedAfter',
  ended: 'endedBefore',
} as const;

/**
 * What is wrong with a `/ticket list` text, for a sentence in the person's language (`error` is the
 * English one): catalog keys `ticket.list.requestor`, `.date`, `.group`, `.ref`.
 */
export type TicketQueryProblem =
  | { kind: 'requestor'; value: string }
  | { kind: 'date'; key: string; value: string }
  | { kind: 'group' }
  | { kind: 'ref' };

/**
 * Reads `/ticket list [mine|all|group <name>|ref <reference>|<search>] [type:x] [since:YYYY-MM-DD]
 * [until:…] [started:…] [ended:…] [requestor:<id>]`. Answers the query, or what to fix.
 */
export function parseTicketQuery(
  text: string,
): { ok: true; query: TicketQueryText } | { ok: false; error: string; problem: TicketQueryProblem } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const query: TicketQueryText = { scope: 'mine' };
  const rest: string[] = [];
  for (const w of words) {
    const m = /^(type|since|until|started|ended|requestor):(.+)$/i.exec(w);
    if (!m) {
      rest.push(w);
      continue;
    }
    const key = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    if (key === 'type') query.type = value;
    else if (key === 'requestor') {
      if (!/^\d+$/.test(value))
        return {
          ok: false,
          error: `requestor: takes a requestor id (a number), not “${value}”.`,
          problem: { kind: 'requestor', value },
        };
      query.requestorId = Number(value);
    } else {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !DateTime.fromISO(value).isValid)
        return {
          ok: false,
          error: `${key}: takes a date written YYYY-MM-DD, not “${value}”.`,
          problem: { kind: 'date', key, value },
        };
      query[dateKeys[key as keyof typeof dateKeys]] = value;
    }
  }
  const [first = '', ...others] = rest;
  const head = first.toLowerCase();
  if (head === 'mine' || head === 'all') {
    query.scope = head;
    if (others.length) query.search = others.join(' ');
  } else if (head === 'group') {
    if (!others.length)
      return { ok: false, error: '`/ticket list group` needs a group name.', problem: { kind: 'group' } };
    query.scope = 'group';
    query.group = others.join(' ');
  } else if (head === 'ref') {
    if (others.length !== 1)
      return { ok: false, error: '`/ticket list ref` needs one reference.', problem: { kind: 'ref' } };
    query.scope = 'all';
    query.reference = others[0] as string;
  } else if (rest.length) query.search = rest.join(' ');
  return { ok: true, query };
}

/** A `YYYY-MM-DD` of the person's zone as the UTC instant its day starts (or ends, for `until`/`ended`). */
export function dayBound(date: string, zone: string, end: boolean): Date {
  const day = DateTime.fromISO(date, { zone });
  return (end ? day.endOf('day') : day.startOf('day')).toJSDate();
}
