/*
 * Which pasted links are the platform's objects, pure. The platform publishes no web address for a
 * ticket, a conference or a media, so the patterns are configured (UNFURL_*_PATTERN, the id as a
 * capture group) and there are none by default. A conference's join link needs no pattern: the bot
 * reads join links on conference records, so any other link Slack hands it (its domain is one of the
 * app's `unfurl_domains`) may be one, and is looked up as such.
 */

/** The kinds of platform objects a link can show. */
export type UnfurlKind = 'ticket' | 'conference' | 'media';

/** The configured patterns, compiled: each kind's, if set. */
export type UnfurlPatterns = Partial<Record<UnfurlKind, RegExp>>;

/** What a link is: an object by id, a possible join link (looked up), or nothing of ours. */
export type LinkTarget = { kind: UnfurlKind; id: string } | { kind: 'join'; url: string } | undefined;

/** An id as the platform writes them (digits, a uid or a room name): anything else is not looked up. */
const idShape = /^[\w.-]{1,100}$/;

/** Compiles the configured patterns (the configuration checked that they compile and capture). */
export function compilePatterns(given: Partial<Record<UnfurlKind, string | undefined>>): UnfurlPatterns {
  const out: UnfurlPatterns = {};
  for (const kind of ['ticket', 'conference', 'media'] as const) {
    const source = given[kind];
    if (source) out[kind] = new RegExp(source, 'i');
  }
  return out;
}

/**
 * Slack unfurls links to its own messages itself (and never sends them to an app), but a workspace
 * may list a Slack domain by mistake: such links are never ours.
 */
const isSlackLink = (host: string) => host === 'slack.com' || host.endsWith('.slack.com');

/**
 * What a pasted link is. A configured pattern wins (ticket, then conference, then media); a link that
 * matches none may be a conference's join link. A link that is not http(s), or Slack's own, is none.
 */
export function linkTarget(url: string, patterns: UnfurlPatterns): LinkTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (isSlackLink(parsed.hostname.toLowerCase())) return undefined;
  for (const kind of ['ticket', 'conference', 'media'] as const) {
    const m = patterns[kind]?.exec(url);
    if (!m) continue;
    const id = m.groups?.id ?? m.slice(1).find((g) => g !== undefined);
    return id !== undefined && idShape.test(id) ? { kind, id } : undefined;
  }
  return { kind: 'join', url };
}

/**
 * The room name a join link may carry: its last path segment (INFERRED: the simulator's links are
 * `<host>/join/<room>`; the record read by that name is kept only if its own join link is this one).
 */
export function roomOfJoinLink(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const last = parsed.pathname.split('/').filter(Boolean).pop();
  return last && idShape.test(last) ? last : undefined;
}

/** Two links are the same join link: same host, path and query, whatever the case of the host or a trailing slash. */
export function sameLink(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const p = new URL(u);
      return `${p.protocol}//${p.host.toLowerCase()}${p.pathname.replace(/\/+$/, '')}${p.search}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}
