import { describeBacklog, somethingWaits } from '../domain/ticket-feed.js';
import type { WorkspaceShares } from '../jobs/replicas/shares.js';
import type { WorkspacesSource } from '../observability/metrics.js';
import { type CheckState, Readiness, type ReadinessReport } from '../observability/readiness.js';
import type { Tenants } from './tenants.js';

/** Where a workspace stands (the `state` label of `confdesk_workspaces`). */
export type WorkspaceState = 'running' | 'starting' | 'failed' | 'not_set_up';

/** What the process knows of its workspaces: how many in each state, and the failed ones. */
export interface Census {
  states: Record<WorkspaceState, number>;
  failed: {
    team: string;
    /** start: its store or jobs failed to start (retried); settings: they do not work (its admin saves new ones). */
    reason: 'start' | 'settings';
    problem: string;
    attempts?: number;
    retryAt?: string;
  }[];
  boot: { total: number; tried: number; done: boolean };
}

/** Every workspace known here, by state: what /readyz and /metrics report. */
export function census(tenants: Tenants): Census {
  const { running, starting, waiting, failures } = tenants;
  const teams = new Set([...running.keys(), ...starting, ...waiting, ...failures.keys()]);
  const states: Record<WorkspaceState, number> = { running: 0, starting: 0, failed: 0, not_set_up: 0 };
  const failed: Census['failed'] = [];
  for (const team of teams) {
    const w = running.get(team);
    const failure = failures.get(team);
    const state: WorkspaceState =
      starting.has(team) || waiting.has(team)
        ? 'starting'
        : failure || w?.problem
          ? 'failed'
          : w?.confdesk
            ? 'running'
            : 'not_set_up';
    states[state]++;
    if (failure)
      failed.push({
        team,
        reason: 'start',
        problem: failure.problem,
        attempts: failure.attempts,
        retryAt: new Date(failure.retryAt).toISOString(),
      });
    else if (w?.problem && state === 'failed') failed.push({ team, reason: 'settings', problem: w.problem });
  }
  return { states, failed, boot: tenants.boot };
}

/**
 * `/readyz`'s report: the store, the workspaces and the jobs held here, with the workspaces by state
 * and the failed ones by name, for whoever looks (the load balancer reads the status only).
 */
export function readyReport(
  tenants: Tenants,
  store: { state(): CheckState },
  shares: Pick<WorkspaceShares, 'describe'>,
): () => ReadinessReport & { workspaces: object } {
  const readiness = new Readiness()
    .add('store', () => store.state())
    .add('workspaces', () => describeWorkspaces(census(tenants)))
    .add('jobs here', () => ({ ok: true, detail: shares.describe() }))
    // A backlog is not a fault (nothing is lost): said, never "not ready".
    .add('ticket events', () => ({ ok: true, detail: describeWaiting(tenants) }));
  return () => {
    const r = readiness.report();
    const c = census(tenants);
    const failed = c.failed.slice(0, listedFailures);
    return { ...r, workspaces: { ...c.states, failed } };
  };
}

/** What /metrics reads of the workspaces at each scrape. */
export const workspacesMetrics =
  (tenants: Tenants, shares: Pick<WorkspaceShares, 'count'>): WorkspacesSource =>
  () => {
    const c = census(tenants);
    return {
      states: c.states,
      failed: c.failed.map((f) => ({ workspace: f.team, reason: f.reason })),
      jobsHere: shares.count,
    };
  };

/** How many failed workspaces /readyz lists by name (the metrics name every one). */
const listedFailures = 50;

/**
 * `/readyz`'s line for the workspaces. Not ready only while the process starts them: afterwards one
 * customer's broken workspace must not take this replica (and every other customer on it) out of the
 * load balancer, so failed ones are counted and named while the replica stays ready.
 */
function describeWorkspaces({ states, failed, boot }: Census): CheckState {
  if (!boot.done)
    return {
      ok: false,
      problem: `starting workspaces: ${boot.tried} of ${boot.total} tried, ${states.running} running`,
    };
  const all = states.running + states.starting + states.failed + states.not_set_up;
  const named = failed
    .slice(0, 10)
    .map(
      (f) =>
        `${f.team} (${f.problem}${f.retryAt ? `; tried again at ${f.retryAt}` : '; waits for new settings'})`,
    );
  return {
    ok: true,
    detail:
      `${all} workspace(s): ${states.running} running` +
      (states.starting ? `, ${states.starting} starting` : '') +
      (states.not_set_up ? `, ${states.not_set_up} waiting for their platform settings` : '') +
      (states.failed
        ? `, ${states.failed} failed: ${named.join(', ')}${failed.length > named.length ? ` and ${failed.length - named.length} more` : ''}`
        : ''),
  };
}

/**
 * `/readyz`'s line for the ticket events of the workspaces whose jobs run here: how many have
 * something waiting (posts, card updates, new tickets, reads), the longest-waiting few by name with
 * their own sentence.
 */
export function describeWaiting(tenants: Pick<Tenants, 'running'>): string {
  const waiting: { team: string; sentence: string; oldestMs: number }[] = [];
  for (const [team, w] of tenants.running) {
    const b = w.confdesk?.jobs.running()?.lastBacklog();
    if (!b || !somethingWaits(b)) continue;
    waiting.push({
      team,
      sentence: describeBacklog(b),
      oldestMs: Math.max(b.postsOldestMs ?? 0, b.oldestMs ?? 0),
    });
  }
  if (!waiting.length) return 'no change waiting';
  const named = waiting
    .sort((a, b) => b.oldestMs - a.oldestMs)
    .slice(0, 3)
    .map((x) => `${x.team}: ${x.sentence}`);
  return `${waiting.length} workspace(s) with changes waiting; ${named.join(' · ')}${waiting.length > named.length ? ` and ${waiting.length - named.length} more` : ''}`;
}
