/**
 * Join links, read in ONE place. Their field names are not published (platform-facts.md, "Not
 * published"), so every plausible name is tried, on the record and nested under a links object; only
 * http(s) values count. Where a link was found is recorded once in `platform.findings` (`joinLinkField`),
 * for the log and the doctor. A record without one gets no Join button.
 */

/** Where a found link is recorded (`findings.joinLinkField`). */
export interface JoinLinkObserver {
  joinLinkField(kind: string, field: string): void;
}

/** Objects that may hold the links, e.g. `links: {agent, guest}` or `urls: {join}`. */
const containers = ['links', 'urls', 'join_links', 'joinLinks', 'join_urls', 'joinUrls', 'link', 'url'];

/** Names of each link, on the record itself (`flat`) and inside a container (`nested`). */
const names = {
  agent: {
    flat: [
      'agent_url',
      'agentUrl',
      'agent_link',
      'agentLink',
      'agent_join_url',
      'agentJoinUrl',
      'join_url_agent',
      'joinUrlAgent',
    ],
    nested: ['agent', 'agent_url', 'agentUrl', 'agent_link', 'agentLink'],
  },
  guest: {
    flat: [
      'guest_url',
      'guestUrl',
      'guest_link',
      'guestLink',
      'guest_join_url',
      'guestJoinUrl',
      'join_url_guest',
      'joinUrlGuest',
      'requestor_url',
      'requestorUrl',
    ],
    nested: ['guest', 'guest_url', 'guestUrl', 'guest_link', 'guestLink', 'requestor'],
  },
  /** A single link (a conference's, or a ticket's only one, given to the agent). */
  any: {
    flat: ['join_url', 'joinUrl', 'join_link', 'joinLink', 'url', 'link'],
    nested: ['join', 'join_url', 'joinUrl', 'url', 'href', 'default'],
  },
} as const;

const isLink = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v.trim());
const asObject = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The first http(s) link under one of `which`'s names, with the field it came from. */
function find(record: Record<string, unknown>, which: keyof typeof names) {
  for (const name of names[which].flat) {
    const v = record[name];
    if (isLink(v)) return { url: v.trim(), field: name };
  }
  for (const c of containers) {
    const box = asObject(record[c]);
    if (!box) continue;
    for (const name of names[which].nested) {
      const v = box[name];
      if (isLink(v)) return { url: v.trim(), field: `${c}.${name}` };
    }
  }
  return undefined;
}

function found(
  kind: string,
  hit: { url: string; field: string } | undefined,
  observer: JoinLinkObserver | undefined,
): string | undefined {
  if (hit) observer?.joinLinkField(kind, hit.field);
  return hit?.url;
}

/** A ticket's links: the agent's (the card's Join) and the guest's (given privately to the agent). */
export function ticketJoinLinks(
  record: object,
  observer?: JoinLinkObserver,
): { agentUrl: string | undefined; guestUrl: string | undefined } {
  const r = record as Record<string, unknown>;
  const agent = find(r, 'agent') ?? find(r, 'any');
  return {
    agentUrl: found('ticket.agent', agent, observer),
    guestUrl: found('ticket.guest', find(r, 'guest'), observer),
  };
}

/** A conference's join link. */
export function conferenceJoinLink(record: object, observer?: JoinLinkObserver): string | undefined {
  return found('conference', find(record as Record<string, unknown>, 'any'), observer);
}
