import type { Logger } from '../observability/logger.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { PlatformClient } from '../platform/client.js';
import type { TicketRecord } from '../platform/schemas.js';
import type { Store, Subscription } from '../store/store.js';
import { ChangeFinder, settleMs } from './change-finder.js';
import { Collector } from './collector.js';

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
  /** Tickets looked at once at most at the same time on a webhook's word (default 20). */
  maxChecks?: number;
  recheckGapMs?: number;
  /** See `settleMs` (benchmarks that run time faster shorten it). */
  settleMs?: number;
  now?: () => number;
}

/**
 * The poller: a scan asks the change finder which tickets changed, then the collector writes what
 * each channel gets of each one (new events to the outbox with the version, in one transaction); a
 * webhook asks the collector about one ticket at once.
 */
export class Poller {
  private readonly checks = new Map<string, { again: boolean; done: Promise<number> }>();
  private readonly finder: ChangeFinder;
  private readonly collector: Collector;
  private readonly settle: number;
  private readonly now: () => number;

  constructor(private readonly o: PollerOptions) {
    this.settle = o.settleMs ?? settleMs;
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
    });
  }

  /** One scan; answers how many new outbox items it wrote. */
  async scanOnce(): Promise<number> {
    let written = 0;
    for (const t of await this.finder.changed()) {
      // Changed within the last second or so: wait for that second to be over rather than read twice.
      // (At most that long: a platform clock ahead of ours only costs a second look.)
      const settled = Math.min(this.settle, (t.modified?.getTime() ?? 0) + this.settle - this.now());
      if (settled > 0) await new Promise((r) => setTimeout(r, settled));
      if (this.o.keepGoing && !(await this.o.keepGoing())) break;
      written += await this.collector.collect(t);
    }
    return written;
  }

  /** What each channel gets of this version of a ticket (see `Collector.collect`). */
  collect(t: TicketRecord): Promise<number> {
    return this.collector.collect(t);
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
          written += await this.collector.collect(await this.o.platform.getTicket({ ticketId }, background));
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
}
