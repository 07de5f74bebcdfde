import { DateTime } from 'luxon';
import type { MediaRecord } from '../platform/schemas.js';
import type { Subject } from './policy.js';
import { type Problem, problem } from './problem.js';

/*
 * The media library's decisions, pure: reading `/conference media …` filters, what a media record
 * says (its owner, group, thumbnail: field names the spec does not show, read tolerantly), the edit
 * form's checks and the thread a share goes to.
 */

/** A media item as the library shows it (one record of `/medias`, read tolerantly). */
export interface MediaItem {
  id: string;
  type?: string | undefined;
  status?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
  filename?: string | undefined;
  format?: string | undefined;
  size?: number | undefined;
  created?: Date | undefined;
  /** The platform user who owns it (inferred: `user_id`, `owner_id`, `user.id`, `userId`). */
  ownerId?: string | undefined;
  /** Its user group (inferred: `group_id`, `user_group_id`, `user_group`, `group.id`). */
  groupId?: string | undefined;
  /** A picture of it (inferred: `thumbnail_url`, `thumbnail`, `thumb_url`, `preview_url`). */
  thumbnailUrl?: string | undefined;
  /** Its own address, when the record carries one (inferred: `url`, `download_url`, `link`). */
  url?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
}

const idOf = (v: unknown): string | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) return v;
  if (typeof v === 'object' && v !== null && 'id' in v) return idOf((v as { id: unknown }).id);
  return undefined;
};
const firstOf = <T>(
  r: Record<string, unknown>,
  keys: readonly string[],
  read: (v: unknown) => T | undefined,
) => {
  for (const k of keys) {
    const v = read(r[k]);
    if (v !== undefined) return v;
  }
  return undefined;
};
const httpUrl = (v: unknown) => (typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? v : undefined);
const finite = (v: unknown) => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** A media record as the library shows it; a field under another name or missing is left out. */
export function mediaItemOf(r: MediaRecord): MediaItem {
  const raw = r as Record<string, unknown>;
  return {
    id: String(r.id),
    type: r.type ?? undefined,
    status: r.status ?? undefined,
    title: r.title ?? undefined,
    description: r.description ?? undefined,
    filename: r.filename ?? undefined,
    format: r.format ?? undefined,
    size: r.size ?? undefined,
    created: r.created ?? undefined,
    ownerId: firstOf(raw, ['user_id', 'owner_id', 'userId', 'user', 'owner'], idOf),
    groupId: firstOf(raw, ['group_id', 'user_group_id', 'user_group', 'groupId', 'group'], idOf),
    thumbnailUrl: firstOf(raw, ['thumbnail_url', 'thumbnail', 'thumb_url', 'preview_url'], httpUrl),
    url: firstOf(raw, ['url', 'download_url', 'link'], httpUrl),
    lat: finite(raw.lat),
    lng: finite(raw.lng),
  };
}

/** What the policy needs of a media item: its owner and its group. */
export const mediaSubject = (m: Pick<MediaItem, 'ownerId' | 'groupId'>): Subject => ({
  kind: 'media',
  ownerId: m.ownerId,
  groupId: m.groupId,
});

/** The library's filters as typed (names and dates not yet resolved). Each maps to a `/medias` filter. */
export interface MediaFilterText {
  type?: string;
  status?: string;
  source?: string;
  tag?: string;
  /** A login, an e-mail, a platform user id, `me` or `all`. */
  user?: string;
  /** A group's name or id. */
  group?: string;
  conversation?: string;
  /** Calendar dates (YYYY-MM-DD), in the person's zone. */
  since?: string;
  until?: string;
  search?: string;
}

/** The words a filter starts with, and the field each fills. */
const filterKeys = {
  type: 'type',
  status: 'status',
  source: 'source',
  tag: 'tag',
  user: 'user',
  group: 'group',
  conversation: 'conversation',
  since: 'since',
  until: 'until',
} as const satisfies Record<string, keyof MediaFilterText>;

/** How the filters are written, for the messages that say what to fix. */
export const mediaFilterSyntax =
  'type:<snapshot|capture|recording|document> status:<completed|…> source:<s> tag:<t> user:<login or e-mail> group:<name or id> conversation:<id> since:YYYY-MM-DD until:YYYY-MM-DD, other words search';

/** Splits on spaces, keeping `key:"two words"` and `"two words"` together. */
function words(text: string): string[] {
  return [...text.matchAll(/(?:[^\s"]+)?"[^"]*"|[^\s"]+/g)].map((m) => m[0]);
}
const unquote = (s: string) => s.replace(/"/g, '').trim();

/**
 * Reads the library's filters: `type:snapshot status:completed tag:x user:alice@… group:"Level 1"
 * conversation:… since:2026-11-01 until:… free words`. Free words are the search. Answers the
 * filters, or what to fix (a catalog key and its values).
 */
export function parseMediaFilters(
  text: string,
): { ok: true; filters: MediaFilterText } | { ok: false; problem: Problem } {
  const filters: MediaFilterText = {};
  const search: string[] = [];
  for (const w of words(text.trim())) {
    const m = /^([a-z_]+):(.*)$/is.exec(w);
    const key = m?.[1]?.toLowerCase();
    if (!m || !key || !(key in filterKeys)) {
      if (m && /^[a-z_]+$/i.test(m[1] ?? '') && !/^https?$/i.test(m[1] ?? ''))
        return {
          ok: false,
          problem: problem('media.filters.notAFilter', { key: m[1] ?? '', syntax: mediaFilterSyntax }),
        };
      search.push(unquote(w));
      continue;
    }
    const field = filterKeys[key as keyof typeof filterKeys];
    const value = unquote(m[2] ?? '');
    if (!value)
      return { ok: false, problem: problem('media.filters.noValue', { key, example: example[field] }) };
    if (field === 'since' || field === 'until') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !DateTime.fromISO(value).isValid)
        return { ok: false, problem: problem('media.filters.badDate', { key, value }) };
    }
    if (field === 'user' && !/^(me|all|\d{1,20}|[^\s@]+@[^\s@]+\.[^\s@]+|[\w.+-]{1,100})$/i.test(value))
      return { ok: false, problem: problem('media.filters.badUser', { value }) };
    if (field === 'group' && value.length > 100)
      return { ok: false, problem: problem('media.filters.longGroup') };
    if (field === 'conversation' && !/^[\w-]{1,100}$/.test(value))
      return { ok: false, problem: problem('media.filters.badConversation', { value }) };
    filters[field] = value;
  }
  if (filters.since && filters.until && filters.since > filters.until)
    return {
      ok: false,
      problem: problem('media.filters.sinceAfterUntil', { since: filters.since, until: filters.until }),
    };
  const s = search.join(' ').trim();
  if (s) filters.search = s.slice(0, 200);
  return { ok: true, filters };
}

const example: Record<keyof MediaFilterText, string> = {
  type: 'type:recording',
  status: 'status:completed',
  source: 'source:1',
  tag: 'tag:invoice',
  user: 'user:alice@example.com',
  group: 'group:"Level 1"',
  conversation: 'conversation:42',
  since: 'since:2026-11-01',
  until: 'until:2026-11-30',
  search: 'router',
};

/** The edit form's values as typed. */
export interface MediaEditText {
  title?: string | undefined;
  description?: string | undefined;
  lat?: string | undefined;
  lng?: string | undefined;
}

/** The edit as the platform takes it, or the problems by field (inline errors). */
export function readMediaEdit(
  v: MediaEditText,
):
  | { ok: true; values: { title?: string; description?: string; lat?: number; lng?: number } }
  | { ok: false; errors: Partial<Record<keyof MediaEditText, Problem>> } {
  const errors: Partial<Record<keyof MediaEditText, Problem>> = {};
  const values: { title?: string; description?: string; lat?: number; lng?: number } = {};
  if (v.title !== undefined) {
    if (v.title.length > 255) errors.title = problem('media.edit.titleTooLong');
    else values.title = v.title;
  }
  if (v.description !== undefined) values.description = v.description;
  const coordinate = (key: 'lat' | 'lng', max: number) => {
    const raw = v[key]?.trim();
    if (raw === undefined || raw === '') return;
    const n = /^[-+]?\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(n))
      errors[key] = problem(key === 'lat' ? 'media.edit.latNotNumber' : 'media.edit.lngNotNumber');
    else if (n < -max || n > max)
      errors[key] = problem(key === 'lat' ? 'media.edit.latRange' : 'media.edit.lngRange');
    else values[key] = n;
  };
  coordinate('lat', 90);
  coordinate('lng', 180);
  if ((values.lat === undefined) !== (values.lng === undefined) && !errors.lat && !errors.lng) {
    const missing = values.lat === undefined ? 'lat' : 'lng';
    errors[missing] = problem('media.edit.bothCoordinates');
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values };
}

/** The thread a share goes to: empty (the channel itself), a message link or a message ts. */
export function readThreadRef(
  text: string | undefined,
): { ok: true; ts: string | undefined; channel?: string | undefined } | { ok: false; problem: Problem } {
  const t = text?.trim() ?? '';
  if (!t) return { ok: true, ts: undefined };
  if (/^\d{9,12}\.\d{1,8}$/.test(t)) return { ok: true, ts: t };
  // https://<team>.slack.com/archives/<channel>/p<ts without the dot>[?thread_ts=…]
  const link = /^https:\/\/[\w.-]+\/archives\/([CGD][A-Z0-9]{1,30})\/p(\d{10})(\d{6})(?:\?(\S*))?$/.exec(t);
  if (link) {
    const threadTs = /(?:^|&)thread_ts=(\d{9,12}\.\d{1,8})/.exec(link[4] ?? '')?.[1];
    return { ok: true, ts: threadTs ?? `${link[2]}.${link[3]}`, channel: link[1] };
  }
  return { ok: false, problem: problem('media.share.badThread') };
}

/** Whether a file of `size` bytes is past the upload limit (unknown sizes are tried: Slack will say). */
export const pastUploadLimit = (size: number | undefined, limit: number) =>
  size !== undefined && size > limit;
