/*
 * Ticket events within the platform's budget: how the read backlog is described, and how far polling
 * alone can go (what the doctor and docs/events.md's capacity table say). Pure arithmetic.
 */

/** The read backlog as the jobs report it (`jobs/poller/read-backlog.ts`). */
export interface BacklogFacts {
  reads: number;
  verify: number;
  oldestMs: number | undefined;
  drainMs: number | undefined;
  /** Messages (cards, lines, broadcasts) waiting to be posted in Slack, and the oldest's wait (ms). */
  posts?: number | undefined;
  postsOldestMs?: number | undefined;
  /** Tickets whose cards wait for an update (`CardRefresher`). */
  cardUpdates?: number | undefined;
  /** New tickets told by webhooks that wait for the next scan (their cards and lines follow it). */
  awaitingScan?: number | undefined;
}

/** Whether anything waits: posts, card updates, new tickets for a scan, reads (checks alone do not count). */
export const somethingWaits = (b: BacklogFacts): boolean =>
  b.reads + (b.posts ?? 0) + (b.cardUpdates ?? 0) + (b.awaitingScan ?? 0) > 0;

const duration = (ms: number) =>
  ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;

/**
 * What still waits, in a sentence: messages to post in Slack (cards, lines) and since when, cards to
 * update, new tickets waiting for a scan, tickets whose timeline is still to be read. "No change waiting" only when none of it waits.
 */
export function describeBacklog(b: BacklogFacts): string {
  const parts: string[] = [];
  if (b.posts)
    parts.push(
      `${b.posts} message${b.posts === 1 ? '' : 's'} (cards, thread lines) waiting to be posted in Slack${
        b.postsOldestMs === undefined ? '' : `, the oldest for ${duration(b.postsOldestMs)}`
      }`,
    );
  if (b.cardUpdates)
    parts.push(`${b.cardUpdates} ticket card${b.cardUpdates === 1 ? '' : 's'} waiting for an update`);
  if (b.awaitingScan)
    parts.push(
      `${b.awaitingScan} new ticket${b.awaitingScan === 1 ? '' : 's'} told by webhooks waiting for the next scan (${b.awaitingScan === 1 ? 'its card follows' : 'their cards follow'} it)`,
    );
  if (b.reads) {
    const oldest = b.oldestMs === undefined ? '' : `, the oldest for ${duration(b.oldestMs)}`;
    const drain =
      b.drainMs === undefined
        ? 'drain time not known yet'
        : `read in about ${duration(b.drainMs)} at the current pace`;
    parts.push(`${b.reads} tickets' events still to read${oldest}; ${drain}`);
  }
  if (!parts.length)
    return b.verify
      ? `no change waiting (${b.verify} checks of webhook-told tickets to read)`
      : 'no change waiting';
  // Reads alone: what the list and the webhooks told is in Slack already.
  const current =
    !b.posts && !b.cardUpdates && !b.awaitingScan ? ' (cards and state lines are already current)' : '';
  return `${parts.join('; ')}${current}`;
}

/** What polling alone gives for an enterprise's open tickets, at the platform's budget. */
export interface PollingRegime {
  /** List pages per scan: every page, since the real list ignores `orderby` (platform-facts.md). */
  pages: number;
  /** How often a scan can run when scans may take half the background share (minutes). */
  scanEveryMin: number;
  /** Timeline reads a minute left for the changes (each change that needs one costs one). */
  readsPerMin: number;
  /** `poll`: polling alone is enough; `webhooks`: set up webhooks (platform-facts.md, "Webhooks"). */
  verdict: 'poll' | 'webhooks';
  /** In a sentence, for the doctor. */
  summary: string;
}

/**
 * Capacity of polling alone. A person's reserve is kept whatever happens; the background share
 * (`perMinute - reserve`) is split: at most half for scans (every page, `pageSize` tickets each,
 * no sooner than `pollIntervalMin`), the rest for timeline reads. State changes show one scan later
 * (from the list page); other events after their read. Polling is enough while a scan fits in a
 * minute or so and the reads keep up with `changesPerMin`.
 */
export function pollingRegime(o: {
  openTickets: number;
  perMinute: number;
  reserve: number;
  pageSize: number;
  pollIntervalMin: number;
  changesPerMin?: number;
}): PollingRegime {
  const share = Math.max(1, o.perMinute - o.reserve);
  const pages = Math.max(1, Math.ceil(o.openTickets / o.pageSize));
  const scanEveryMin = Math.max(o.pollIntervalMin, pages / (share / 2));
  const readsPerMin = Math.max(0, share - pages / scanEveryMin);
  const slow = scanEveryMin > 2 || (o.changesPerMin !== undefined && o.changesPerMin > readsPerMin);
  const every = scanEveryMin < 1 ? `${Math.round(scanEveryMin * 60)} s` : `${scanEveryMin.toFixed(1)} min`;
  return {
    pages,
    scanEveryMin,
    readsPerMin,
    verdict: slow ? 'webhooks' : 'poll',
    summary:
      `${o.openTickets} tickets: ${pages} list page${pages === 1 ? '' : 's'} a scan, a scan every ${every}` +
      ` (state changes shown that late), ${readsPerMin.toFixed(1)} timeline reads a minute left for other events` +
      (slow ? ': set up webhooks (docs/events.md)' : ': polling alone keeps up'),
  };
}
