/*
 * The type-ahead's search over the enterprise's people and groups, for pickers that scale.
 * Slack asks the options load URL at every keystroke and gives up after 3 s, and an enterprise may
 * hold thousands of people: everything a query needs (folded text, where words start, the label
 * order) is computed once when the directory is loaded, so a query is one linear scan of plain
 * string searches, with no sort and no allocation per entry.
 */

/** One person or group as the pickers show it. */
export interface DirectoryEntry {
  /** The platform's id (a picker's option value). */
  id: string;
  /** What the picker shows: "First Last (login)" for a person, the name for a group. */
  label: string;
  /** The texts a query is matched against: first name, last name, e-mail, login (or a group's name). */
  fields: readonly (string | undefined)[];
}

/** How well an entry matches: a field starts with the query, a word inside one does, or anywhere. */
export type MatchRank = 0 | 1 | 2;

interface Indexed<T extends DirectoryEntry> {
  entry: T;
  /** Every field folded, each after a separator: `\u0001field` (a field's start is `\u0001` + query). */
  starts: string;
  /** Every word of every field folded, each after a separator (`ada.admin@acme` → ada, admin, acme). */
  words: string;
}

/** An entry list prepared for `search` (built once per directory load). */
export interface DirectoryIndex<T extends DirectoryEntry> {
  readonly size: number;
  /** The entries in label order, each with its folded search texts. */
  readonly rows: readonly Indexed<T>[];
}

const sep = '\u0001';

/**
 * Case- and accent-insensitive form of a text: `Élodie` and `elodie` are the same to a person typing,
 * and Slack's keyboard may not have the accent at hand.
 */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Prepares entries for `search`: folds their fields and sorts them by label once. */
export function buildIndex<T extends DirectoryEntry>(entries: readonly T[]): DirectoryIndex<T> {
  const rows = entries
    .map((entry) => {
      const fields = entry.fields.filter((f): f is string => !!f).map(fold);
      const words = fields.flatMap((f) => f.split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
      return { entry, starts: sep + fields.join(sep), words: sep + words.join(sep), key: fold(entry.label) };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ entry, starts, words }) => ({ entry, starts, words }));
  return { size: rows.length, rows };
}

/** How one folded term matches an indexed row; undefined when it does not. */
const rankOf = (row: { starts: string; words: string }, term: string): MatchRank | undefined => {
  // Most entries do not match at all: one search tells (a field's or a word's start is in it too).
  if (!row.starts.includes(term)) return undefined;
  if (row.starts.includes(sep + term)) return 0;
  if (row.words.includes(sep + term)) return 1;
  return 2;
};

/**
 * The entries matching `query`, best first, at most `limit`: every word of the query must match a
 * field (first name, last name, e-mail, login); entries where they start a field come first, then
 * those where they start a word inside one (`durand` in `bob.durand@…`), then any other place; by
 * label within each rank. `keep` filters (what the asker may pick) during the same scan. An empty
 * query answers the first entries by label.
 */
export function search<T extends DirectoryEntry>(
  index: DirectoryIndex<T>,
  query: string,
  limit: number,
  keep: (entry: T) => boolean = () => true,
): T[] {
  const terms = fold(query).split(/\s+/).filter(Boolean);
  const buckets: [T[], T[], T[]] = [[], [], []];
  for (const row of index.rows) {
    let worst: MatchRank = 0;
    let matched = true;
    for (const term of terms) {
      const r = rankOf(row, term);
      if (r === undefined) {
        matched = false;
        break;
      }
      if (r > worst) worst = r;
    }
    if (!matched) continue;
    const bucket = buckets[worst];
    // A lesser rank holding `limit` already cannot show more.
    if (bucket.length >= limit || !keep(row.entry)) continue;
    bucket.push(row.entry);
    // The best rank is full: nothing later can come before what it holds.
    if (buckets[0].length >= limit) break;
  }
  return [...buckets[0], ...buckets[1], ...buckets[2]].slice(0, limit);
}
