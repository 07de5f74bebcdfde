import type { Logger } from '../observability/logger.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import type { Page, TicketRecord } from '../platform/schemas.js';
import type { Store, Subscription } from '../store/store.js';
import { type ChangeCover, coverable, coveredBy, coverOf, type TicketChangeSink } from './ports.js';

const background = { priority: 'background' as const };

export interface PollerOptions {
  platform: PlatformClient;
  store: Store;
  logger: Logger;
  /**
   * Whether the person who added a subscription may (still) see this ticket: a job that posts checks
   * the rights of the person it posts for, as every door does. A failure to find out is thrown, and
   * the ticket is looked at again on the next scan.
   */
  mayDeliver?: (sub: Subscription, ticket: TicketRecord) => Promise<boolean>;
  /** Told of each new version of a ticket: every card of it is re-rendered (`slack/publisher.ts`). */
  publisher?: TicketChangeSink;
  /**
   * Asked before each changed ticket is looked at: false stops the scan (another replica took over
   * the poller's lease while this one was held up).
   */
  keepGoing?: () => Promise<boolean>;
  pageSize?: number;
  /** Tickets looked at once at most at the same time on a webhook's word (default 20). */
  maxChecks?: number;
  recheckGapMs?: number;
  /** See `settleMs` (benchmarks that run time faster shorten it). */
  settleMs?: number;
  now?: () => number;
}

/**
 * The platform writes times to the second, so a later change in the same second keeps the same
 * `modified`: a ticket's events are read once that second is over (plus half a second for clocks
 * that differ), and a version read sooner than that anyway (a webhook, a slow clock) is looked at
 * once more on the next scan.
 */
export const settleMs = 1_500;
const fragile = (seen: { modified: string; checkedAt: string }, settle: number) =>
  Date.parse(seen.checkedAt) - Date.parse(seen.modified) < settle;

/**
 * A new subscription starts with the events of the minute before it (context for whoever just
 * subscribed) rather than the ticket's whole history, which stays one click away (Timeline).
 */
const historyMs = 60_000;

type NewItem = Parameters<Store['advance']>[0][number];

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

/**
 * Finds what changed on the platform within the rate budget: one list request ordered by `modified`
 * (newest first) per scan, read until the tickets it already knows; events are fetched only for the
 * tickets that changed and that some channel follows. All on the budget's background lane, so a
 * person in Slack is served first. New events go to the outbox with the cursor, in one transaction.
 */
export class Poller {
  private readonly checks = new Map<string, { again: boolean; done: Promise<number> }>();

  private readonly settle: number;
  private readonly now: () => number;
  /** When this poller last saw the list's order by `modified` confirmed (see `verifyingScan`). */
  private verifiedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly o: PollerOptions) {
    this.settle = o.settleMs ?? settleMs;
    this.now = o.now ?? Date.now;
  }

  /**
   * One scan; answers how many new outbox items it wrote. Pages are read newest-modified first and
   * the scan stops at the first page ending with a ticket unchanged since last seen: with a change a
   * minute, one request. That order is a guess (platform-facts.md): when the platform refuses it or
   * answers pages not in that order, the scan reads every page instead (`fullScan`), for the rest of
   * the process.
   * Each ticket's `modified` is compared with the version last seen of it (not with a global
   * cursor: a platform clock ahead of ours, or a ticket dated in the future, must not hide changes).
   */
  async scanOnce(): Promise<number> {
    const mode = this.mode();
    const changed =
      (mode === 'trusted' && (await this.trustedScan())) ||
      (mode === 'verify' && (await this.verifyingScan())) ||
      (await this.fullScan());
    let written = 0;
    for (const t of changed) {
      // Changed within the last second or so: wait for that second to be over rather than read twice.
      // (At most that long: a platform clock ahead of ours only costs a second look.)
      const settled = Math.min(this.settle, (t.modified?.getTime() ?? 0) + this.settle - this.now());
      if (settled > 0) await new Promise((r) => setTimeout(r, settled));
      if (this.o.keepGoing && !(await this.o.keepGoing())) break;
      written += await this.collect(t);
    }
    return written;
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
    return this.changedOf(listed);
  }

  /**
   * Looks at one ticket now (a webhook said it changed): its new events go to the outbox. A flood
   * of webhooks costs little: calls for a ticket already being looked at are folded into one more
   * look, a second after the last one (`recheckGapMs`), and beyond `maxChecks` tickets at once the
   * rest are left to the next scan, which finds every change anyway (webhooks only make it faster).
   */
  checkTicket(ticketId: string): Promise<number> {
    const running = this.checks.get(ticketId);
    if (running) {
      running.again = true;
      return running.done;
    }
    if (this.checks.size >= (this.o.maxChecks ?? 20)) return Promise.resolve(0);
    const entry = { again: false, done: Promise.resolve(0) };
    entry.done = (async () => {
      let written = 0;
      try {
        for (;;) {
          entry.again = false;
          written += await this.collect(await this.o.platform.getTicket({ ticketId }, background));
          if (!entry.again) break;
          await new Promise((r) => setTimeout(r, this.o.recheckGapMs ?? 1_000));
        }
      } finally {
        this.checks.delete(ticketId);
      }
      return written;
    })();
    this.checks.set(ticketId, entry);
    return entry.done;
  }

  /** The channels interested in a ticket: those watching it, and those whose follow filter matches. */
  private async channelsFor(t: TicketRecord): Promise<{ channel: string; sub: Subscription }[]> {
    const subs = await this.o.store.subscriptionsForTicket(String(t.id));
    const matching = subs.filter((s) => s.kind === 'watch' || followMatches(s.filter, t));
    const wanted: Subscription[] = [];
    for (const s of matching) {
      if (!this.o.mayDeliver || (await this.o.mayDeliver(s, t))) wanted.push(s);
      else
        this.o.logger.info(
          { subscription: s.id, channel: s.channel, ticketId: String(t.id) },
          'not delivered: the person who added this subscription may not see this ticket',
        );
    }
    const byChannel = new Map<string, Subscription>();
    for (const s of wanted) if (!byChannel.has(s.channel)) byChannel.set(s.channel, s);
    return [...byChannel].map(([channel, sub]) => ({ channel, sub }));
  }

  /**
   * Fetches a changed ticket's events and writes those its channels want to the outbox, after the
   * ticket's card for channels that have none yet; for channels that asked (`broadcast`), a state
   * change also adds a message in the channel itself. A platform event of a change a person made from
   * Slack is left out of the channels that got their line (`ChangeCover`; only the kinds such a change
   * writes, see `coverable`). Then every card of a new version is re-rendered, by the publisher,
   * whether or not a channel subscribes.
   */
  async collect(t: TicketRecord): Promise<number> {
    const { platform, store } = this.o;
    const ticketId = String(t.id);
    const before = await store.lastSeen(ticketId);
    const channels = await this.channelsFor(t);
    const modified = t.modified?.toISOString() ?? '';
    const seen = { ticketId, modified, state: t.state };
    if (!channels.length) {
      await store.markSeen(seen.ticketId, seen.modified, seen.state);
      await this.cardsChanged(t, before?.modified);
      return 0;
    }
    const events = [];
    for await (const e of platform.paginate('listTicketEvents', { ticketId, limit: 100 }, background))
      events.push(e);
    const stateChanged = before !== undefined && before.state !== t.state;
    const covers = await this.coversOf(ticketId);
    const items: NewItem[] = [];
    for (const { channel, sub } of channels) {
      const item = (eventId: string, payload: Record<string, unknown>) =>
        items.push({ ticketId, eventId, channel, payload });
      if (!(await store.find(ticketId, channel))) item('card', { card: true });
      const kinds = Array.isArray(sub.filter.events) ? (sub.filter.events as string[]) : undefined;
      const since = sub.createdAt.getTime() - historyMs;
      const said = covers.get(channel) ?? [];
      for (const e of events)
        if (
          (!kinds || kinds.includes(e.eventName)) &&
          e.timestamp.getTime() >= since &&
          !(coverable(e) && said.some((c) => coveredBy(c, e.timestamp)))
        )
          item(e.id, {
            eventName: e.eventName,
            timestamp: e.timestamp.toISOString(),
            source: e.source ?? null,
          });
      if (stateChanged && sub.filter.broadcast === true)
        // Facts, not text: delivery renders them (buildStateBroadcast), escaping what the platform wrote.
        item(`state:${t.state}:${modified}`, {
          broadcast: true,
          ticketId,
          reference: t.reference ?? null,
          from: before?.state ?? null,
          to: t.state ?? null,
        });
    }
    // The events and the version they come from are recorded together.
    const written = await store.advance(items, seen);
    await this.cardsChanged(t, before?.modified);
    return written;
  }

  /** The changes people made from Slack on a ticket (their lines' covers), by channel. */
  private async coversOf(ticketId: string): Promise<Map<string, ChangeCover[]>> {
    const byChannel = new Map<string, ChangeCover[]>();
    for (const i of await this.o.store.outboxOf(ticketId)) {
      const cover = coverOf(i.payload);
      if (cover) byChannel.set(i.channel, [...(byChannel.get(i.channel) ?? []), cover]);
    }
    return byChannel;
  }

  /** A version not looked at before (not a second look at the same one): the publisher re-renders the cards. */
  private async cardsChanged(t: TicketRecord, previous: string | undefined): Promise<void> {
    const modified = t.modified?.toISOString();
    if (!this.o.publisher || !modified || previous === modified) return;
    await this.o.publisher
      .ticketChanged({ ticket: t, previous })
      .catch((error: unknown) =>
        this.o.logger.warn({ err: error, ticketId: String(t.id) }, 'could not refresh the ticket’s cards'),
      );
  }
}
