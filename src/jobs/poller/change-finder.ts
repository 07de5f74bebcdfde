import type { PlatformClient } from '../../platform/client.js';
import { PlatformHttpError } from '../../platform/errors.js';
import type { Page, TicketRecord } from '../../platform/schemas.js';
import type { OutboxRepository } from '../../store/store.js';

/*
 * Which tickets changed on the platform, within the rate budget: the first of the poller's two jobs
 * (the other, what each channel gets of a changed ticket, is `collector.ts`). It owns the list-order
 * strategy: the order by `modified` is a guess, checked at run time, with a safe full scan.
 */

const background = { priority: 'background' as const };

/**
 * The platform writes times to the second, so a later change in the same second keeps the same
 * `modified`: a ticket's events are read once that second is over (plus half a second for clocks
 * that differ), and a version read sooner than that anyway (a webhook, a slow clock) is looked at
 * once more on the next scan.
 */
export const settleMs = 1_500;
const fragile = (seen: { modified: string; checkedAt: string }, settle: number) =>
  Date.parse(seen.checkedAt) - Date.parse(seen.modified) < settle;

/** The findings entry for the ticket list's order by `modified` (platform-facts.md: not published). */
export const orderGuess = 'ticketList.orderby';

/** Describes the first pair of tickets out of the asked order by `modified`, if any. */
function firstDisorder(items: TicketRecord[], order: 'asc' | 'desc'): string | undefined {
  const dated = items.filter((t) => t.modified);
  for (let i = 1; i < dated.length; i++) {
    const [a, b] = [dated[i - 1] as TicketRecord, dated[i] as TicketRecord];
    const diff = (b.modified as Date).getTime() - (a.modified as Date).getTime();
    if (order === 'desc' ? diff > 0 : diff < 0)
      return `ticket ${b.id} (modified ${b.modified?.toISOString()}) after ticket ${a.id} (modified ${a.modified?.toISOString()})`;
  }
  return undefined;
}

/** How long a confirmed order is trusted before a scan checks it again over the whole list. */
const reverifyMs = 6 * 3_600_000;

const distinctModified = (items: TicketRecord[]) =>
  new Set(items.map((t) => t.modified?.getTime()).filter((m) => m !== undefined)).size;

/** The reason, when an error is the platform refusing the order parameters (a 4xx that names them). */
export function orderRefusal(error: unknown): string | undefined {
  if (!(error instanceof PlatformHttpError) || error.status < 400 || error.status >= 500) return undefined;
  if ([401, 403, 404, 429].includes(error.status) || !/\border(by)?\b/i.test(error.detail ?? ''))
    return undefined;
  return `the ticket list refused orderby=modified&order=desc (${error.status}: ${error.detail}); every page is read at each scan instead`;
}

export interface ChangeFinderOptions {
  platform: PlatformClient;
  store: Pick<OutboxRepository, 'lastSeen'>;
  pageSize?: number;
  /** See `settleMs` (benchmarks that run time faster shorten it). */
  settleMs?: number;
  now?: () => number;
}

/**
 * Finds the tickets changed since last seen: one list request ordered by `modified` (newest first)
 * per scan, read until the tickets it already knows, once that order is confirmed; every page
 * otherwise. All on the budget's background lane, so a person in Slack is served first.
 */
export class ChangeFinder {
  private readonly settle: number;
  private readonly now: () => number;
  /** When this finder last saw the list's order by `modified` confirmed (see `verifyingScan`). */
  private verifiedAt = Number.NEGATIVE_INFINITY;
  /** Every ticket the last scan listed, changed or not (their records are kept: webhooks need them). */
  listed: TicketRecord[] = [];

  constructor(private readonly o: ChangeFinderOptions) {
    this.settle = o.settleMs ?? settleMs;
    this.now = o.now ?? Date.now;
  }

  /**
   * The changed tickets, oldest change first. Pages are read newest-modified first and the scan
   * stops at the first page ending with a ticket unchanged since last seen: with a change a minute,
   * one request. That order is a guess (platform-facts.md): when the platform refuses it or answers
   * pages not in that order, every page is read instead (`fullScan`), for the rest of the process.
   * Each ticket's `modified` is compared with the version last seen of it (not with a global cursor:
   * a platform clock ahead of ours, or a ticket dated in the future, must not hide changes).
   */
  async changed(): Promise<TicketRecord[]> {
    this.listed = [];
    const mode = this.mode();
    return (
      (mode === 'trusted' && (await this.trustedScan())) ||
      (mode === 'verify' && (await this.verifyingScan())) ||
      (await this.fullScan())
    );
  }

  /** How this scan reads the list, from what is known of the platform's order by `modified`. */
  private mode(): 'trusted' | 'verify' | 'full' {
    const status = this.o.platform.findings.statusOf(orderGuess);
    if (status === 'refused' || status === 'ignored') return 'full';
    if (status === 'confirmed' && this.now() - this.verifiedAt < reverifyMs) return 'trusted';
    return 'verify';
  }

  /** Whether this version of a ticket is one not yet looked at (or looked at too soon). */
  private async isChanged(t: TicketRecord): Promise<boolean> {
    const modified = t.modified?.toISOString();
    if (!modified) return false;
    const seen = await this.o.store.lastSeen(String(t.id));
    return !seen || seen.modified !== modified || fragile(seen, this.settle);
  }

  /** Lists tickets newest-modified first; a refusal of that order is recorded and answers undefined. */
  private async orderedPage(offset: number, order: 'asc' | 'desc' = 'desc') {
    try {
      return await this.o.platform.listTickets(
        { user: 'all', orderby: 'modified', order, limit: this.o.pageSize ?? 100, offset },
        background,
      );
    } catch (error) {
      this.refused(error);
      return undefined;
    }
  }

  /** Records a refusal of the order (see `orderRefusal`); rethrows any other failure. */
  private refused(error: unknown): void {
    const refusal = orderRefusal(error);
    if (!refusal) throw error;
    this.o.platform.findings.guess(orderGuess, 'refused', refusal);
  }

  private ignored(asked: 'asc' | 'desc', disorder: string): void {
    this.o.platform.findings.guess(
      orderGuess,
      'ignored',
      `asked for orderby=modified&order=${asked}, the ticket list answered ${disorder}; every page is read at each scan instead`,
    );
  }

  /**
   * Once the order is confirmed: the changed tickets, oldest first, read newest-modified first until
   * the known ones. Each page is checked again; undefined when one is out of order (then recorded).
   */
  private async trustedScan(firstPage?: Page<TicketRecord>): Promise<TicketRecord[] | undefined> {
    const changed: TicketRecord[] = [];
    let offset = 0;
    for (;;) {
      const page = offset === 0 && firstPage ? firstPage : await this.orderedPage(offset);
      if (!page) return undefined;
      if (page !== firstPage) this.listed.push(...page.items);
      const disorder = firstDisorder(page.items, 'desc');
      if (disorder) {
        this.ignored('desc', disorder);
        return undefined;
      }
      // Newest first: when the page's last ticket is unchanged since last seen, so are those after it.
      let lastChanged = false;
      for (const t of page.items) {
        if (!t.modified) continue;
        lastChanged = await this.isChanged(t);
        if (lastChanged) changed.push(t);
      }
      if (!lastChanged || page.nextOffset === undefined || page.items.length === 0) break;
      offset = page.nextOffset;
    }
    return changed.reverse();
  }

  /**
   * Until the order is confirmed (and again every `reverifyMs`), a scan reads every page asking for
   * that order and checks it across the whole list: a list that is in order by chance (a platform
   * that ignores `orderby` and sorts by start time, tickets all modified in the same second) cannot
   * make it stop early and miss a change. A list in order with two different times or more is then
   * asked oldest first, one page: a platform that honours the order answers it ascending, starting
   * with the list's oldest ticket (one that ignores the order answers the newest first again). The
   * changed tickets, oldest first; undefined when the order was refused (then recorded).
   */
  private async verifyingScan(): Promise<TicketRecord[] | undefined> {
    // Cheap first: when the newest page is in order and shows two times or more, one page asked
    // oldest first can settle the question (two requests instead of the whole list).
    const first = await this.orderedPage(0);
    if (!first) return undefined;
    this.listed.push(...first.items);
    const early = firstDisorder(first.items, 'desc');
    if (early) {
      this.ignored('desc', early);
      return undefined;
    }
    if (distinctModified(first.items) >= 2) {
      if (await this.probeAscending(first.items)) return this.trustedScan(first);
      if (this.mode() === 'full') return undefined;
    }
    const seen: TicketRecord[] = [];
    const pages = this.o.platform.paginate(
      'listTickets',
      { user: 'all', orderby: 'modified', order: 'desc', limit: this.o.pageSize ?? 100 },
      background,
    );
    try {
      for await (const t of pages) seen.push(t);
    } catch (error) {
      this.refused(error);
      return undefined;
    }
    this.listed = seen;
    const changed = await this.changedOf(seen);
    const disorder = firstDisorder(seen, 'desc');
    if (disorder) this.ignored('desc', disorder);
    else if (distinctModified(seen) >= 2) await this.probeAscending(seen);
    return changed;
  }

  /**
   * One page asked oldest first, after a whole list read newest first (`listed`, in order, with two
   * times or more): ascending from the list's oldest time confirms the order; anything else shows it
   * ignored. (Comparing with the whole list, not within the page, confirms even when the oldest page
   * holds tickets all modified in the same second.)
   */
  private async probeAscending(listed: TicketRecord[]): Promise<boolean> {
    const page = await this.orderedPage(0, 'asc');
    if (!page) return false;
    const disorder = firstDisorder(page.items, 'asc');
    if (disorder) {
      this.ignored('asc', disorder);
      return false;
    }
    const oldest = Math.min(...listed.flatMap((t) => (t.modified ? [t.modified.getTime()] : [])));
    const first = page.items.find((t) => t.modified);
    if (!first?.modified) return false;
    if (first.modified.getTime() > oldest) {
      this.ignored(
        'asc',
        `ticket ${first.id} (modified ${first.modified.toISOString()}) first, not the oldest (${new Date(oldest).toISOString()})`,
      );
      return false;
    }
    this.verifiedAt = this.now();
    this.o.platform.findings.guess(
      orderGuess,
      'confirmed',
      'the ticket list is ordered by modified, both ways',
    );
    return true;
  }

  /** The changed tickets among those listed, each once in its latest version, oldest change first. */
  private async changedOf(listed: TicketRecord[]): Promise<TicketRecord[]> {
    const latest = new Map<string, TicketRecord>();
    // A ticket listed twice (the list moved between two pages) is looked at once.
    for (const t of listed) {
      const before = latest.get(String(t.id));
      if (!before || (t.modified?.getTime() ?? 0) > (before.modified?.getTime() ?? 0))
        latest.set(String(t.id), t);
    }
    const changed: TicketRecord[] = [];
    for (const t of latest.values()) if (await this.isChanged(t)) changed.push(t);
    return changed.sort((a, b) => (a.modified?.getTime() ?? 0) - (b.modified?.getTime() ?? 0));
  }

  /**
   * The safe scan: every page of the list (in the platform's own order), on the background lane, so
   * it takes longer when the list is long but never a person's turn. The changed tickets, oldest first.
   */
  private async fullScan(): Promise<TicketRecord[]> {
    const listed: TicketRecord[] = [];
    const all = this.o.platform.paginate(
      'listTickets',
      { user: 'all', limit: this.o.pageSize ?? 100 },
      background,
    );
    for await (const t of all) listed.push(t);
    this.listed = listed;
    return this.changedOf(listed);
  }
}
