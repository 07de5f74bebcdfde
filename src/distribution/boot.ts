import type { Logger } from '../observability/logger.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import { census } from './census.js';
import type { Tenants } from './tenants.js';

/**
 * The installed workspaces, read before the server answers: each waits for the process's start (a
 * request for one starts it first).
 */
export async function expectInstalled(tenants: Tenants, registry: WorkspaceRegistry): Promise<string[]> {
  const teams = await registry.teams();
  for (const team of teams) tenants.waiting.add(team);
  tenants.boot.total = teams.length;
  return teams;
}

/**
 * Starts the installed workspaces a few at a time, once the server answers (/healthz 200, /readyz 503
 * "starting…"): all at once would ask the store for as many connections and files as there are
 * workspaces; one by one would leave the machine idle while each waits for its store. Settles once
 * every one was tried once (or the process stops).
 */
export async function startInstalled(
  tenants: Tenants,
  teams: readonly string[],
  concurrency: number,
  logger: Logger,
): Promise<void> {
  const bootStarted = Date.now();
  const queue = [...teams];
  const worker = async () => {
    for (let team = queue.shift(); team !== undefined && !tenants.stopping; team = queue.shift()) {
      // The embedded store works synchronously under its promises: without a turn of the event loop
      // between starts, no request (not even /healthz) would be answered until all had started.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (tenants.waiting.has(team)) await tenants.startFirst(team);
    }
  };
  await Promise.all(Array.from({ length: Math.min(queue.length, concurrency) }, worker));
  tenants.waiting.clear();
  tenants.boot.done = true;
  const { states } = census(tenants);
  logger.info(
    { ...states, seconds: (Date.now() - bootStarted) / 1000 },
    `distribution mode: ${states.running} of ${teams.length} workspace(s) running` +
      (states.failed ? `, ${states.failed} failed (named in /readyz)` : ''),
  );
}
