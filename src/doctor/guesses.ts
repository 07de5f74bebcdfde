import type { GuessStatus, PlatformFindings } from '../platform/findings.js';
import { conferenceJoinLink, ticketJoinLinks } from '../platform/join-links.js';
import { answerText, itemsOf, type PlatformProbe } from './platform-probe.js';
import type { Report } from './report.js';

/*
 * The guesses of the endpoint table (`inferred`), probed read-only: the poller's ticket order, two
 * list filters, the ticket path, and the join-link fields of a ticket and a conference. Each result
 * is recorded in the findings (the running bot's, in Slack) and shown as confirmed / refused /
 * ignored / unknown.
 */

const pageAsked = 50;

export async function guessChecks(
  r: Report,
  probe: PlatformProbe,
  token: string,
  findings: PlatformFindings,
) {
  const record = (name: string, status: GuessStatus, detail: string, blocking = false) => {
    findings.guess(name, status, detail);
    r.add('guesses', name, status, detail, blocking);
  };
  // 1. The poller's order: newest-modified first, so it can stop at the first unchanged ticket.
  const list = await probe.send(
    'listTickets',
    { user: 'all', orderby: 'modified', order: 'desc', limit: pageAsked },
    token,
  );
  if (!list.ok) {
    if (list.status === 404 || list.status === 405)
      record(
        'listTickets.path',
        'refused',
        `GET /api/v3/tickets answered ${answerText(list)}: the ticket paths of src/platform/endpoints.ts (inferred) do not match this platform`,
        true,
      );
    else if (list.status === 403)
      record(
        'ticketList.user',
        'refused',
        `user=all answered ${answerText(list)}: the bot’s platform account must be an admin to list every ticket`,
        true,
      );
    else
      record(
        'ticketList.orderby',
        'refused',
        `orderby=modified&order=desc answered ${answerText(list)}: the poller must scan every page (each scan costs more requests)`,
      );
    return;
  }
  const items = itemsOf(list.body) ?? [];
  orderCheck(items, record);
  pageCapCheck(r, list.body, items.length, findings);

  // 2. A filter the bot relies on: /ticket show <reference> finds the ticket by it.
  await filterCheck(probe, token, items, 'reference', 'reference', 'ticketList.reference', record);
  // 3. A group's tickets (/ticket list group, follows by group).
  await filterCheck(probe, token, items, 'group_id', 'groupId', 'ticketList.groupId', record);

  // 4. One ticket by its id, and the join links on it.
  const first = items[0];
  let ticket: Record<string, unknown> | undefined = first;
  if (first?.id !== undefined) {
    const got = await probe.send('getTicket', { ticketId: Number(first.id) }, token);
    const body = got.body as Record<string, unknown> | undefined;
    if (got.ok && body && String(body.id) === String(first.id)) {
      record('getTicket.path', 'confirmed', `GET /api/v3/tickets/${String(first.id)} answered the ticket`);
      ticket = body;
    } else if (got.status === 404 || got.status === 405 || got.ok)
      record(
        'getTicket.path',
        'refused',
        `GET /api/v3/tickets/{id} answered ${answerText(got)} for a ticket the list has: fix getTicket's path in src/platform/endpoints.ts; cards, moves and /ticket show need it`,
        true,
      );
    else record('getTicket.path', 'unknown', `GET /api/v3/tickets/{id} answered ${answerText(got)}`);
  } else
    record(
      'getTicket.path',
      'unknown',
      'no ticket on the platform to read: run the doctor again once there is one',
    );
  if (ticket) joinLinkCheck(r, findings, ticket, ['ticket agent', 'ticket guest']);
  else r.add('guesses', 'join links (ticket)', 'unknown', 'no ticket to look at');

  // 5. The conference join link.
  const conferences = await probe.send('listConferences', { limit: 1 }, token);
  const conference = conferences.ok ? itemsOf(conferences.body)?.[0] : undefined;
  if (conference) joinLinkCheck(r, findings, conference, ['conference']);
  else
    r.add(
      'guesses',
      'join links (conference)',
      'unknown',
      conferences.ok
        ? 'no conference to look at'
        : `GET /api/v3/conferences answered ${answerText(conferences)}`,
    );
}

type Recorder = (name: string, status: GuessStatus, detail: string, blocking?: boolean) => void;

function orderCheck(items: Record<string, unknown>[], record: Recorder) {
  const times = items.map((t) => Date.parse(String(t.modified ?? ''))).filter((t) => !Number.isNaN(t));
  if (new Set(times).size < 2) {
    record(
      'ticketList.orderby',
      'unknown',
      `orderby=modified&order=desc accepted; the first page's ${items.length} ticket(s) share one modified time, so whether it applies cannot be told yet`,
    );
    return;
  }
  const ordered = times.every((t, i) => i === 0 || t <= (times[i - 1] as number));
  if (ordered)
    record(
      'ticketList.orderby',
      'confirmed',
      `orderby=modified&order=desc applied: the page came newest-modified first (${items.length} tickets)`,
    );
  else
    record(
      'ticketList.orderby',
      'ignored',
      'orderby=modified&order=desc accepted but not applied: the page is not newest-modified first, so the poller must read every page to find each change (more requests per scan)',
    );
}

function pageCapCheck(r: Report, body: unknown, got: number, findings: PlatformFindings) {
  const total = Number((body as Record<string, unknown> | undefined)?.total);
  if (Number.isFinite(total) && got < pageAsked && total > got) {
    findings.pageCapped(pageAsked, got);
    r.add(
      'guesses',
      'page size',
      'warning',
      `asked for ${pageAsked} tickets, got ${got} of ${total}: pages hold at most ${got}; lists must follow total/next_offset, not stop at a short page`,
    );
  }
}

/** Asks the list filtered by one ticket's value: confirmed when only matching tickets come back. */
async function filterCheck(
  probe: PlatformProbe,
  token: string,
  items: Record<string, unknown>[],
  field: string,
  input: 'reference' | 'groupId',
  name: string,
  record: Recorder,
) {
  const values = items.map((t) => t[field]).filter((v) => v !== undefined && v !== null && v !== '');
  // A value some tickets of the page do not have: a filter that is ignored shows them.
  const pick = values.find((v) => items.some((t) => String(t[field]) !== String(v)));
  if (pick === undefined) {
    record(
      name,
      'unknown',
      `no two tickets with different ${field} on the first page to tell whether ${input}=… filters`,
    );
    return;
  }
  const value = input === 'groupId' ? Number(pick) : String(pick);
  const a = await probe.send('listTickets', { user: 'all', [input]: value, limit: pageAsked }, token);
  if (!a.ok) {
    record(
      name,
      'refused',
      `${input}=${String(pick)} answered ${answerText(a)}: fix its name in src/platform/endpoints.ts (listTickets wire)`,
    );
    return;
  }
  const got = itemsOf(a.body) ?? [];
  const others = got.filter((t) => String(t[field]) !== String(pick));
  if (!got.length)
    record(
      name,
      'ignored',
      `${input}=${String(pick)} returned no ticket, though one has it: check its name in src/platform/endpoints.ts`,
    );
  else if (others.length)
    record(
      name,
      'ignored',
      `${input}=${String(pick)} accepted but not applied (${others.length} of ${got.length} tickets have another ${field}): fix its name in src/platform/endpoints.ts (listTickets wire)`,
    );
  else record(name, 'confirmed', `${input}=${String(pick)} returned only matching tickets (${got.length})`);
}

/** The fields of a record holding an http(s) link, at the top or one level down (`links.agent`). */
function linkFields(record: Record<string, unknown>): string[] {
  const out: string[] = [];
  const isLink = (v: unknown) => typeof v === 'string' && /^https?:\/\//i.test(v);
  const named = (path: string) => /url|link|join|href/i.test(path);
  for (const [k, v] of Object.entries(record)) {
    if (isLink(v) && named(k)) out.push(k);
    else if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
        if (isLink(v2) && named(`${k}.${k2}`)) out.push(`${k}.${k2}`);
  }
  return out;
}

/**
 * Reads the record's join links with the bot's own reader (src/platform/join-links.ts), so the doctor
 * says exactly what the Join button will do; other link-like fields are named to help fix the reader.
 */
function joinLinkCheck(
  r: Report,
  findings: PlatformFindings,
  record: Record<string, unknown>,
  kinds: string[],
) {
  const read = new Map<string, string>();
  const observer = {
    joinLinkField: (kind: string, field: string) => {
      read.set(kind, field);
      findings.joinLinkField(kind, field);
    },
  };
  if (kinds.includes('conference')) conferenceJoinLink(record, observer);
  else ticketJoinLinks(record, observer);
  const fields = linkFields(record);
  for (const kind of kinds) {
    const field = read.get(kind.replace(' ', '.'));
    const name = `join link (${kind})`;
    if (field) r.add('guesses', name, 'confirmed', `read from ${field}`);
    else
      r.add(
        'guesses',
        name,
        'unknown',
        `no link confdesk reads was found on the record${fields.length ? ` (links seen: ${fields.join(', ')}; add the name to src/platform/join-links.ts)` : ''}: the Join button stays hidden`,
      );
  }
}
