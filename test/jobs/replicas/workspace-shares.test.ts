import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceShares } from '../../../src/jobs/replicas/shares.js';
import { createLogger } from '../../../src/observability/logger.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { storeBackends } from '../../helpers/store-backends.js';

/*
 * The replicas' shares of the workspaces, on one store as the replicas of one PostgreSQL see it
 * (several `WorkspaceShares` in this process, each a replica): fair parts, a joiner getting its
 * part, a dead replica's workspaces taken over within a lease period, a stopped one's at once.
 */

const leaseMs = 900;
const teams = Array.from({ length: 9 }, (_, i) => `T${String(i).padStart(3, '0')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!check() && Date.now() - start < ms) await sleep(10);
  expect(check()).toBe(true);
  return Date.now() - start;
}

const open: WorkspaceShares[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.stop();
});

/** Replicas on `store`; `holder` says who runs each workspace's jobs (a second taker is a failure). */
function replicas(store: Store) {
  const holder = new Map<string, string>();
  const overlaps: string[] = [];
  /** Replicas whose jobs stopped (killed, or stopped with their workspaces). */
  const dead = new Set<string>();
  const replica = (name: string) => {
    const shares = new WorkspaceShares({
      store,
      alone: false,
      leaseMs,
      teams: () => teams,
      owner: name,
      logger: createLogger('silent'),
      onChange: async (team, here) => {
        const was = holder.get(team);
        if (here) {
          if (was && was !== name && !dead.has(was)) overlaps.push(`${team}: ${was} and ${name}`);
          holder.set(team, name);
        } else if (was === name) holder.delete(team);
      },
    });
    open.push(shares);
    shares.start();
    return shares;
  };
  return { replica, holder, overlaps, dead };
}

describe.each(storeBackends('workspace shares tests'))('the workspaces’ shares, $name', ({ options }) => {
  it('two replicas split the workspaces, a third gets its part, a dead one’s part is taken within a lease period', async () => {
    const store = await openStore(options());
    const r = replicas(store);
    const a = r.replica('a');
    const b = r.replica('b');
    await until(() => a.count + b.count === teams.length && Math.abs(a.count - b.count) <= 1, 3 * leaseMs);
    expect(r.holder.size).toBe(teams.length);

    const c = r.replica('c');
    await until(() => a.count === 3 && b.count === 3 && c.count === 3, 4 * leaseMs);
    expect(c.describe()).toBe('jobs of 3 of 9 set-up workspace(s) run here (3 replica(s) live)');

    // c dies: it stops renewing, without giving anything back.
    await c.stop();
    r.dead.add('c');
    const took = await until(() => a.count + b.count === teams.length, 3 * leaseMs);
    // Its leases ran out within a lease period, and the others look the moment its heartbeat ends;
    // half a lease more is the margin for the store's queries and timers on a loaded machine (two
    // cores running four test files: 1,201 ms was seen against the third of a lease it had before).
    expect(took).toBeLessThan(leaseMs * 1.5);
    expect([a.count, b.count].sort()).toEqual([4, 5]);
    expect(new Set(r.holder.values())).toEqual(new Set(['a', 'b']));
    expect(r.overlaps).toEqual([]);
    await store.close();
  });

  it('a replica that stops gives its workspaces back at once: the other takes them at its next look', async () => {
    const store = await openStore(options());
    const r = replicas(store);
    const a = r.replica('a');
    const b = r.replica('b');
    await until(() => a.count + b.count === teams.length && a.count > 0 && b.count > 0, 3 * leaseMs);
    // As the process does: no more looks, its workspaces (and their jobs) stopped, then the release.
    await b.stop();
    r.dead.add('b');
    await b.release();
    expect(b.count).toBe(0);
    // Well within a lease: the next look, a third of one away.
    const took = await until(() => a.count === teams.length, leaseMs);
    expect(took).toBeLessThanOrEqual(leaseMs / 3 + 300);
    expect((await store.liveLeases('replica:')).map((l) => l.owner)).toEqual(['a']);
    expect(r.overlaps).toEqual([]);
    await store.close();
  });

  it('renews only the leases the owner still holds, and lists only live ones', async () => {
    const store = await openStore(options());
    expect(await store.acquireLease('share:T1', 'a', 60_000)).toBe(true);
    expect(await store.acquireLease('share:T2', 'b', 60_000)).toBe(true);
    expect(await store.acquireLease('poller', 'a', 60_000)).toBe(true);
    expect((await store.renewLeases(['share:T1', 'share:T2', 'share:T3'], 'a', 60_000)).sort()).toEqual([
      'share:T1',
    ]);
    expect(await store.acquireLease('share:T3', 'a', 1)).toBe(true);
    await sleep(20);
    expect((await store.liveLeases('share:')).map((l) => `${l.name}=${l.owner}`).sort()).toEqual([
      'share:T1=a',
      'share:T2=b',
    ]);
    await store.close();
  });
});

describe('the embedded store', () => {
  it('holds every workspace’s share in its one process, asking no lease', async () => {
    const calls: string[] = [];
    const never = async () => {
      calls.push('store');
      throw new Error('no lease on the embedded store');
    };
    const here: string[] = [];
    const shares = new WorkspaceShares({
      store: { acquireLease: never, releaseLease: never, liveLeases: never, renewLeases: never },
      alone: true,
      leaseMs,
      teams: () => teams,
      logger: createLogger('silent'),
      onChange: async (team, on) => void (on && here.push(team)),
    });
    open.push(shares);
    expect(shares.here('TNEW')).toBe(true);
    shares.start();
    await until(() => shares.count === teams.length, 1_000);
    expect(here.sort()).toEqual(teams);
    expect(shares.describe()).toBe(
      'jobs of 9 of 9 set-up workspace(s) run here (embedded store: one process)',
    );
    await shares.release();
    expect(calls).toEqual([]);
  });
});
