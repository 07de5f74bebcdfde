import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../observability/logger.js';
import type { Store } from '../../store/store.js';

/** A replica's heartbeat in the process store's leases: how many replicas share the workspaces. */
export const replicaPrefix = 'replica:';
/** A workspace's share: the replica holding it runs that workspace's jobs. */
export const sharePrefix = 'share:';

export interface SharesOptions {
  /** The process's store (every replica's): the leases. */
  store: Pick<Store, 'acquireLease' | 'releaseLease' | 'liveLeases' | 'renewLeases'>;
  /** The embedded store: one process, which holds every share without asking. */
  alone: boolean;
  /** How long a share lasts unless renewed; renewed every third of it. */
  leaseMs: number;
  /** The workspaces whose jobs could run (those set up), as this replica knows them. */
  teams: () => Iterable<string>;
  /** A workspace restarting (new settings): its share is kept meanwhile, though it is not in `teams`. */
  restarting?: (team: string) => boolean;
  /**
   * This replica took (`here`) or gave up a workspace's share: resolves once its jobs started or
   * stopped. Giving one back waits for it before the lease is released.
   */
  onChange: (team: string, here: boolean) => Promise<void>;
  logger: Logger;
  /** This replica's name in the leases (default: host, pid and a random tail). */
  owner?: string;
}

/**
 * Each workspace's background work (poll, read, deliver, digest, cards, directory) runs on one
 * replica at a time: the one holding the workspace's share, a lease in the process's store. Each
 * replica heartbeats a lease of its own, takes free or run-out shares up to its fair part
 * (ceil(workspaces / live replicas)), renews them every third of a lease, and gives back what is
 * over its part (a replica that joins gets its part within a lease period). A replica that dies
 * stops renewing: its shares run out and the others take them; one that stops releases them at once.
 * Requests are not concerned: every replica serves every workspace's.
 *
 * The share saves work, it does not guard it: inside a workspace, the poller's lease, the outbox's
 * claims and the digests' runs still hold across replicas, so the short overlap of a handover (a
 * replica stalled past its lease while another took over) tells nothing twice.
 */
export class WorkspaceShares {
  readonly owner: string;
  private readonly held = new Set<string>();
  private replicas = 1;
  private timer: NodeJS.Timeout | undefined;
  private dueAt = 0;
  /** When the first other replica's heartbeat runs out unless renewed (epoch ms). */
  private nextLapse = Number.POSITIVE_INFINITY;
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Jobs starting or stopping (never awaited by a look: a slow workspace must not delay the renewals). */
  private readonly changing = new Set<Promise<void>>();

  constructor(private readonly o: SharesOptions) {
    this.owner = o.owner ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  }

  /** Whether this replica holds the workspace's share (runs its jobs): always, alone on its store. */
  here(team: string): boolean {
    return this.o.alone || this.held.has(team);
  }

  /** How many workspaces' jobs run here. */
  get count(): number {
    return this.held.size;
  }

  /** `/readyz`'s line: how many workspaces' jobs run here, among how many replicas. */
  describe(): string {
    const of = [...this.o.teams()].length;
    return this.o.alone
      ? `jobs of ${this.held.size} of ${of} set-up workspace(s) run here (embedded store: one process)`
      : `jobs of ${this.held.size} of ${of} set-up workspace(s) run here (${this.replicas} replica(s) live)`;
  }

  /** Looks at the shares now, then every third of a lease. */
  start(): void {
    this.run();
  }

  /**
   * A workspace was set up or went: looked at soon (a quarter second: the starts of many workspaces
   * cost one look), not at the next renewal.
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.ticking) this.again = true;
    else if (this.dueAt > Date.now() + nudgeMs) this.at(nudgeMs);
  }

  /** No more taking; waits for a look in progress and the changes it began. The shares are kept until `release`. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all([...this.changing]);
  }

  /** Gives every share back (its jobs stopped already) and the heartbeat: the others take over at once. */
  async release(): Promise<void> {
    const teams = [...this.held];
    this.held.clear();
    if (this.o.alone) return;
    await Promise.all([
      ...teams.map((t) => this.o.store.releaseLease(sharePrefix + t, this.owner)),
      this.o.store.releaseLease(replicaPrefix + this.owner, this.owner),
    ]);
  }

  /**
   * The next look: every third of a lease, or just after another replica's heartbeat runs out if
   * that comes sooner. A live replica renews its heartbeat every third of a lease, so its end is
   * always further; one that died is seen gone the moment its lease ends (its shares ran out with
   * it: they are renewed before the heartbeat), not up to a third of a lease later.
   */
  private schedule(): void {
    if (this.stopped) return;
    const lapse = this.nextLapse + lapseMarginMs - Date.now();
    this.at(this.again ? nudgeMs : Math.max(nudgeMs, Math.min(this.o.leaseMs / 3, lapse)));
    this.again = false;
  }

  private at(inMs: number): void {
    clearTimeout(this.timer);
    this.dueAt = Date.now() + inMs;
    this.timer = setTimeout(() => this.run(), inMs);
    this.timer.unref();
  }

  private run(): void {
    if (this.stopped || this.ticking) return;
    this.ticking = this.tick()
      .catch((error: unknown) =>
        this.o.logger.warn(
          { err: error },
          'could not renew or take the workspaces’ shares: tried again soon',
        ),
      )
      .finally(() => {
        this.ticking = undefined;
        this.schedule();
      });
  }

  /** One look: heartbeat, renew, give back what is over the fair part, take what is free. */
  private async tick(): Promise<void> {
    const teams = new Set(this.o.teams());
    if (this.o.alone) {
      for (const t of [...this.held].filter((t) => !teams.has(t))) this.held.delete(t);
      for (const t of teams) if (!this.held.has(t)) this.take(t);
      return;
    }
    const { store, leaseMs } = this.o;
    const owner = this.owner;
    // Renewed in one statement; a share another replica took meanwhile (this one stalled past its
    // lease) is given up here without releasing it. Before the heartbeat: a replica's shares then
    // never outlive its heartbeat, so when it looks dead its workspaces are free.
    const mine = [...this.held];
    const keep = (t: string) => teams.has(t) || !!this.o.restarting?.(t);
    const renewed = new Set(
      (
        await store.renewLeases(
          mine.filter(keep).map((t) => sharePrefix + t),
          owner,
          leaseMs,
        )
      ).map((n) => n.slice(sharePrefix.length)),
    );
    const lost = mine.filter((t) => !renewed.has(t));
    if (lost.length) {
      for (const t of lost) this.held.delete(t);
      for (const t of lost) this.give(t, keep(t) ? 'lost' : 'gone');
    }
    await store.acquireLease(replicaPrefix + owner, owner, leaseMs);
    const [replicas, shares] = await Promise.all([
      store.liveLeases(replicaPrefix),
      store.liveLeases(sharePrefix),
    ]);
    this.replicas = Math.max(1, replicas.length);
    this.nextLapse = Math.min(
      Number.POSITIVE_INFINITY,
      ...replicas.filter((r) => r.owner !== owner).map((r) => r.until.getTime()),
    );
    const fair = Math.ceil(teams.size / this.replicas);

    // Over the fair part (a replica joined): the last taken go back, their jobs stopped first.
    const over = [...this.held].slice(fair);
    if (over.length) {
      for (const t of over) this.held.delete(t);
      for (const t of over) this.give(t, 'over');
      this.o.logger.info(
        { given: over.length, replicas: this.replicas },
        `gave ${over.length} workspace(s) back for the other replicas to take`,
      );
    }

    // Under it: free shares (none, or run out) are taken, in an order of this replica's own so that
    // replicas starting together seldom ask for the same one.
    const others = new Set(
      shares.filter((s) => s.owner !== owner).map((s) => s.name.slice(sharePrefix.length)),
    );
    const free = [...teams]
      .filter((t) => !this.held.has(t) && !others.has(t))
      .sort((a, b) => rank(owner, a).localeCompare(rank(owner, b)));
    // All the leases first, then the jobs: each workspace's jobs start with queries of their own, and
    // taking a dead replica's 500 one by one behind them waited for the pool (105 s, not 1).
    const taken: string[] = [];
    for (const t of free) {
      if (this.held.size + taken.length >= fair || this.stopped) break;
      if (await store.acquireLease(sharePrefix + t, owner, leaseMs)) taken.push(t);
    }
    for (const t of taken) this.take(t);
    const took = taken.length;
    if (took)
      this.o.logger.info(
        { took, here: this.held.size, replicas: this.replicas },
        `took ${took} workspace(s): the jobs of ${this.held.size} run here`,
      );
  }

  private take(team: string): void {
    this.held.add(team);
    this.track(
      this.o
        .onChange(team, true)
        .catch((error: unknown) =>
          this.o.logger.error({ team, err: error }, 'could not start a workspace’s jobs'),
        ),
    );
  }

  /**
   * Stops its jobs here, then releases its lease when it is still this replica's (`over`, `gone`):
   * the taker's jobs never start while these still run, unless this replica stalls past the lease.
   */
  private give(team: string, why: 'lost' | 'over' | 'gone'): void {
    this.track(
      (async () => {
        await this.o
          .onChange(team, false)
          .catch((error: unknown) =>
            this.o.logger.error({ team, err: error }, 'could not stop a workspace’s jobs'),
          );
        if (why === 'lost')
          this.o.logger.warn(
            { team },
            'a workspace’s share was taken by another replica: its jobs stopped here',
          );
        else await this.o.store.releaseLease(sharePrefix + team, this.owner);
      })().catch((error: unknown) =>
        this.o.logger.warn(
          { team, err: error },
          'could not release a workspace’s share: it runs out by itself',
        ),
      ),
    );
  }

  private track(change: Promise<void>): void {
    this.changing.add(change);
    void change.finally(() => this.changing.delete(change));
  }
}

const nudgeMs = 250;
/** Past another replica's lease end, so that the store's clock has passed it too. */
const lapseMarginMs = 50;

const rank = (owner: string, team: string) => createHash('sha1').update(`${owner}/${team}`).digest('hex');
