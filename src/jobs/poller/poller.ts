import type { Logger } from '../../observability/logger.js';
import type { SlackPublisher } from '../../outbound/publisher.js';
import type { PlatformClient } from '../../platform/client.js';
import { retryLevel } from '../../platform/errors.js';
import type { TicketRecord } from '../../platform/schemas.js';
import type { EventSignal, TicketSignal, WebhookSignal } from '../../platform/webhook-signal.js';
import type { Store, Subscription } from '../../store/store.js';
import { keepTicketRecord } from '../../store/ticket-records.js';
import { ChangeFinder, settleMs } from './change-finder.js';
import { Collector, eventPropsGuess } from './collector.js';
import { type BacklogState, ReadBacklog } from './read-backlog.js';

export { orderGuess, orderRefusal, settleMs } from './change-finder.js';

const background = { priority: 'background' as const };

export interface PollerOptions {
  platform: PlatformClient;
  store: Store;
  logger: Logger;
  /** See `CollectorOptions.mayDeliver`. */
  mayDeliver?: (sub: Subscription, ticket: TicketRecord) => Promise<boolean>;
  /** Told of each new version of a ticket: every card of it is re-rendered (`outbound/publisher.ts`). */
  publisher?: Pick<SlackPublisher, 'ticketChanged'>;
  /**
   * Asked before each changed ticket is looked at: false stops the scan (another replica took over
   * the poller's lease while this one was held up).
   */
  keepGoing?: () => Promise<boolean>;
  pageSize?: number;
  /** See `settleMs` (benchmarks that run time faster shorten it). */
  settleMs?: number;
  /** See `CollectorOptions.holdMs`; a ticket webhook waits as long before it changes a card. */
  holdMs?: number;
  /** See `ReadBacklogOptions.verifyGapMs`. */
  verifyGapMs?: number;
  /** See `ReadBacklogOptions.paceMs`. */
  readPaceMs?: () => number;
  /**
   * Asks for a scan soon (the jobs' trigger). Given, a webhook about a ticket never seen waits for it:
   * one list page brings many new tickets' records (their cards need no read each), then what the
   * webhooks told is written from them. Absent, such a ticket is read (the backlog).
   */
  wantScan?: () => void;
  now?: () => number;
}

/** Tickets never seen whose webhooks wait for the next scan, at most (beyond: read one by one). */
const waitingForScanMax = 1_000;

/**
 * The poller: a scan asks the change finder which tickets changed and gives each new version to
 * the collector (cards, state lines and broadcasts from the list page; the timeline read later, from
 * the read backlog, for channels that want more); webhooks give the collector what they tell, with no
 * platform request when they tell enough.
 */
export class Poller {
  private readonly finder: ChangeFinder;
  private readonly collector: Collector;
  readonly backlog: ReadBacklog;
  private readonly settle: number;
  private readonly hold: number;
  private readonly now: () => number;
  /** Ticket webhooks waiting out their hold (see `onSignal`), so `stop` can wait for them. */
  private readonly held = new Set<Promise<void>>();
  /** Webhooks about tickets never seen, by ticket, waiting for the next scan (see `wantScan`). */
  private readonly waitingForScan = new Map<
    string,
    { since: string; signals: (EventSignal | TicketSignal)[] }
  >();

  constructor(private readonly o: PollerOptions) {
    this.settle = o.settleMs ?? settleMs;
    this.hold = o.holdMs ?? settleMs;
    this.now = o.now ?? Date.now;
    this.finder = new ChangeFinder({
      platform: o.platform,
      store: o.store,
      settleMs: this.settle,
      now: this.now,
      ...(o.pageSize !== undefined ? { pageSize: o.pageSize } : {}),
    });
    this.collector = new Collector({
      platform: o.platform,
      store: o.store,
      logger: o.logger,
      mayDeliver: o.mayDeliver,
      publisher: o.publisher,
      holdMs: this.hold,
      now: this.now,
    });
    this.backlog = new ReadBacklog({
      platform: o.platform,
      store: o.store,
      collector: this.collector,
      logger: o.logger,
      now: this.now,
      gapMs: this.settle,
      ...(o.readPaceMs ? { paceMs: o.readPaceMs } : {}),
      ...(o.verifyGapMs !== undefined ? { verifyGapMs: o.verifyGapMs } : {}),
    });
  }

  /**
   * One scan (the list, then each new version from it, no other request), then the read backlog
   * until nothing is due. Answers how many new outbox items it wrote.
   */
  async scanOnce(): Promise<number> {
    return (await this.findOnce()) + (await this.backlog.drain(this.o.keepGoing));
  }

  /** The scan alone: which tickets changed, and what the list page says of each. */
  async findOnce(): Promise<number> {
    let written = 0;
    const waited = [...this.waitingForScan.keys()];
    const changed = await this.finder.changed();
    await this.keepRecords(this.finder.listed);
    for (const t of changed) {
      // Changed within the last second or so: wait for that second to be over rather than read twice.
      // (At most that long: a platform clock ahead of ours only costs a second look.)
      const settled = Math.min(this.settle, (t.modified?.getTime() ?? 0) + this.settle - this.now());
      if (settled > 0) await new Promise((r) => setTimeout(r, settled));
      if (this.o.keepGoing && !(await this.o.keepGoing())) break;
      written += await this.collector.fromList(t, await this.toldByWebhooks(t));
    }
    await this.afterScan(waited);
    return written;
  }

  /**
   * The webhooks that waited for this scan: written now from the records it kept (no request); a
   * ticket the list did not show is read instead.
   */
  private async afterScan(ticketIds: string[]): Promise<void> {
    for (const ticketId of ticketIds) {
      const waiting = this.waitingForScan.get(ticketId);
      this.waitingForScan.delete(ticketId);
      if (!waiting) continue;
      if (!(await this.collector.keptRecord(ticketId))) {
        await this.o.store.wantRead({ ticketId, since: waiting.since, priority: 0, channels: [] });
        continue;
      }
      for (const signal of waiting.signals) await this.apply(signal);
    }
  }

  /**
   * A webhook about a ticket never seen (no record kept): it waits for the next scan, asked for now,
   * when the jobs can ask (see `wantScan`); answers false when it did not wait. Answers once the
   * ticket is in the read backlog as well, so what was accepted survives a crash.
   */
  private async waitForScan(signal: EventSignal | TicketSignal): Promise<boolean> {
    const { wantScan } = this.o;
    if (!wantScan || (await this.collector.keptRecord(signal.ticketId))) return false;
    const waiting = this.waitingForScan.get(signal.ticketId);
    if (!waiting && this.waitingForScan.size >= waitingForScanMax) return false;
    const since =
      (signal.kind === 'event' ? signal.timestamp : signal.at)?.toISOString() ??
      new Date(this.now()).toISOString();
    // Kept in the store too (a check read, served only when nothing else waits): a crash before the
    // scan loses nothing, and the scan's own read of the new ticket supersedes it.
    await this.o.store.wantRead({ ticketId: signal.ticketId, since, priority: 1, channels: [] });
    if (waiting) waiting.signals.push(signal);
    else this.waitingForScan.set(signal.ticketId, { since, signals: [signal] });
    wantScan();
    return true;
  }

  /**
   * Keeps the record of every listed ticket that has none yet (a webhook's event about it is then
   * written with no request); the changed ones are kept as they are looked at.
   */
  private async keepRecords(listed: TicketRecord[]): Promise<void> {
    const missing = new Set(await this.o.store.recordsMissing(listed.map((t) => String(t.id))));
    for (const t of listed) if (missing.has(String(t.id))) await keepTicketRecord(this.o.store, t);
  }

  /** How many list pages the last scan read. */
  lastScanPages(): number {
    return Math.ceil(this.finder.listed.length / (this.o.pageSize ?? 100));
  }

  /**
   * Whether webhooks told this version's events already (then its read is only a check): as stored,
   * or (a new ticket) by the webhooks that waited for this scan, written right after it.
   */
  private async toldByWebhooks(t: TicketRecord): Promise<boolean> {
    if (!t.modified) return false;
    const modified = t.modified.getTime();
    const waiting = this.waitingForScan.get(String(t.id));
    if (waiting?.signals.some((s) => ((s.kind === 'event' ? s.timestamp : s.at)?.getTime() ?? 0) >= modified))
      return true;
    const { pushedAt } = await this.o.store.knownTicket(String(t.id));
    return !!pushedAt && modified <= Date.parse(pushedAt);
  }

  /**
   * What a webhook told: a whole event is written at once (no request); one that says too little puts
   * its ticket in the read backlog; a ticket's new state changes its cards after `holdMs` (the click
   * that caused it shows first). Answers once what must survive a crash is stored.
   */
  async onSignal(signal: WebhookSignal): Promise<void> {
    const findings = this.o.platform.findings;
    switch (signal.kind) {
      case 'event':
        if (findings.statusOf(eventPropsGuess) === 'unknown')
          findings.guess(eventPropsGuess, 'confirmed', 'conversationevent webhooks carry the event whole');
        if (await this.waitForScan(signal)) return;
        await this.collector.fromEvent(signal);
        return;
      case 'partial':
        findings.guess(
          eventPropsGuess,
          'ignored',
          `conversationevent webhooks carry no ${signal.missing.join(' nor ')}: each costs one timeline read`,
        );
        await this.wantRead(signal.ticketId);
        return;
      case 'ticket': {
        // A change the delivery does not describe (no state: props [] on some platforms): the ticket is
        // read, as for a partial event, rather than waiting for the next scan (minutes while webhooks flow).
        if (needsRead(signal)) {
          await this.wantRead(signal.ticketId);
          return;
        }
        if (signal.event !== 'delete' && (await this.waitForScan(signal))) return;
        await this.apply(signal);
        return;
      }
      case 'none':
        return;
    }
  }

  /**
   * Writes what a whole webhook told: an event at once; a ticket's new state after `holdMs` (the
   * click that caused it shows first).
   */
  private async apply(signal: EventSignal | TicketSignal): Promise<void> {
    switch (signal.kind) {
      case 'event':
        await this.collector.fromEvent(signal);
        return;
      case 'ticket': {
        const applied = new Promise<void>((r) => setTimeout(r, this.hold))
          .then(() => this.collector.fromTicket(signal))
          .catch((error: unknown) =>
            this.o.logger[retryLevel(error)](
              { err: error, ticketId: signal.ticketId },
              'ticket webhook not applied',
            ),
          )
          .finally(() => this.held.delete(applied));
        this.held.add(applied);
        return;
      }
    }
  }

  private wantRead(ticketId: string): Promise<void> {
    return this.o.store.wantRead({
      ticketId,
      since: new Date(this.now()).toISOString(),
      priority: 0,
      channels: [],
    });
  }

  /** Reads one ticket and its timeline now (two requests): a test's or an operator's look. */
  async checkTicket(ticketId: string): Promise<number> {
    return this.collector.collect(await this.o.platform.getTicket({ ticketId }, background));
  }

  async backlogState(): Promise<BacklogState> {
    return { ...(await this.backlog.state()), awaitingScan: this.waitingForScan.size };
  }

  /** Waits for the ticket webhooks still held. */
  async settled(): Promise<void> {
    await Promise.all([...this.held]);
  }
}

/**
 * Whether a delivery means a read: it tells of a change without saying what (a timeline event without
 * its name or time, a ticket update without its state).
 */
export const needsRead = (signal: WebhookSignal): boolean =>
  signal.kind === 'partial' || (signal.kind === 'ticket' && !signal.state && signal.event !== 'delete');
