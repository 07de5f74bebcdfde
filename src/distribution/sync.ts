import type { Logger } from '../observability/logger.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import type { Tenants } from './tenants.js';

export interface SyncOptions {
  tenants: Tenants;
  registry: WorkspaceRegistry;
  logger: Logger;
}

/**
 * Reads the registry again every `everyMs` (once the process's start is over) for what other
 * replicas changed; `stop` ends it.
 */
export function syncEvery(o: SyncOptions, everyMs: number): { stop(): void } {
  let syncing = false;
  const timer = setInterval(() => {
    if (syncing || !o.tenants.boot.done) return;
    syncing = true;
    sync(o)
      .catch((error: unknown) =>
        o.logger.warn({ err: error }, 'could not sync the workspaces with the store'),
      )
      .finally(() => {
        syncing = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Several replicas share the registry: what another one changed (an install, a save, an uninstall)
 * reaches this one at the next sync. A workspace gone from the registry is only stopped here: the
 * replica that forgot it dropped its store.
 */
async function sync({ tenants, registry, logger }: SyncOptions): Promise<void> {
  // One read for all of them (no secret opened): a thousand workspaces cost one query a sync.
  const versions = await registry.versions();
  const teams = new Set(versions.keys());
  for (const [team, v] of versions) {
    // One under way is left to it, and so is a failed one (its retry is armed).
    if (
      tenants.starting.has(team) ||
      tenants.waiting.has(team) ||
      (!tenants.running.has(team) && tenants.retrying(team))
    )
      continue;
    const w = tenants.running.get(team);
    if (!w || w.installedAt !== v.installedAt || w.settingsAt !== v.settingsAt) await tenants.start(team);
  }
  const known = new Set([...tenants.running.keys(), ...tenants.failures.keys()]);
  for (const team of [...known].filter((t) => !teams.has(t)))
    await tenants.inTurn(team, async () => {
      // Installed while the list above was read (an install on this replica, or a reinstall): kept.
      if (await registry.install(team).catch(() => undefined)) return;
      await tenants.drop(team);
      logger.info({ team }, 'workspace uninstalled on another replica: stopped here');
    });
}
