import type { Confdesk, ConfdeskOptions } from '../confdesk.js';
import type { Config } from '../config/config.js';
import { WorkspaceShares } from '../jobs/replicas/shares.js';
import { WakeChannel } from '../jobs/replicas/wake-channel.js';
import type { LeftForNextStart } from '../jobs/shutdown.js';
import type { Logger } from '../observability/logger.js';
import { Metrics } from '../observability/metrics.js';
import { version } from '../observability/version.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import { openConfiguredStore, storeOptionsOf, storeReadiness } from '../startup/configured-store.js';
import { useProxy } from '../startup/proxy.js';
import type { Store, StoreOptions } from '../store/store.js';
import { expectInstalled, startInstalled } from './boot.js';
import { readyReport, workspacesMetrics } from './census.js';
import { Launcher } from './launch.js';
import { serveWorkspaces } from './receiver.js';
import { openRegistry } from './registry.js';
import { setupDepsFor } from './save-settings.js';
import { syncEvery } from './sync.js';
import { Tenants } from './tenants.js';
import { forgetLater } from './uninstall.js';

/*
 * Distribution mode: any workspace installs confdesk with "Add to Slack". One HTTP server (Bolt's
 * HTTPReceiver with `@slack/oauth`'s installer) takes every workspace's requests and hands each to
 * that workspace's own confdesk: its bot token, its platform account and rate budget, its store (a
 * folder or schema of its own: nothing of one workspace is reachable from another), its jobs and
 * poller lease, its webhook URL and secret. Until a workspace's Slack admin saves its platform
 * settings, its confdesk only answers how to set it up.
 */

export interface RunningWorkspaces {
  port: number;
  /** Settles once every installed workspace was tried once (the server answers meanwhile). */
  started: Promise<void>;
  store: Store;
  registry: WorkspaceRegistry;
  /** The workspaces running now, by team id (tests look inside). */
  workspaces(): ReadonlyMap<string, { confdesk?: Confdesk | undefined; store?: Store | undefined }>;
  /** Stops taking requests, then every workspace (together, each until `deadline`): what they left. */
  stop(o?: { deadline: number }): Promise<LeftForNextStart>;
}

export interface WorkspacesOptions {
  /** The jobs' pacing (tests speed delivery up); default: the configured poll interval. */
  jobs?: ConfdeskOptions['jobs'];
  /** How often the registry is read again for what other replicas changed (default 30 s). */
  syncEveryMs?: number;
  /** How many workspaces start at once when the process starts (default 8). */
  startConcurrency?: number;
  /** A failed start is tried again after this long, doubling up to `maxMs` (default 5 s to 5 min). */
  retry?: { firstMs: number; maxMs: number };
  now?: () => Date;
}

/** Distribution mode's start path: the registry, the workspaces, and the one server for them all. */
export async function startWorkspaces(
  config: Config,
  logger: Logger,
  options: WorkspacesOptions = {},
): Promise<RunningWorkspaces> {
  const d = config.distribution;
  if (!d) throw new Error('startWorkspaces: distribution mode is not configured');
  useProxy(config, logger);
  const baseStore = storeOptionsOf(config);
  const store = await openConfiguredStore(config);
  const registry = await openRegistry(d.keys, store, logger, options.now);
  // One registry for every workspace (each labelled with its team id), served once by the process.
  const metrics = config.metrics ? new Metrics() : undefined;
  const retry = options.retry ?? { firstMs: 5_000, maxMs: 300_000 };
  const tenants: Tenants = new Tenants({ registry, retry, logger, launch: (...a) => launcher.launch(...a) });
  const { shares, wakeChannel } = shareJobs(tenants, store, baseStore, logger, config.workspaceLeaseS);
  await wakeChannel?.open();
  const uninstalls = { tenants, registry, baseStore, slackApiUrl: config.slack.apiUrl, logger };
  const launcher = new Launcher({
    config,
    registry,
    baseStore,
    metrics,
    jobs: options.jobs ?? {
      pollIntervalMs: config.pollIntervalS * 1000,
      reminderScanMs: config.reminderIntervalS * 1000,
    },
    now: options.now,
    shares,
    wakeChannel,
    setup: setupDepsFor({ config, registry, tenants, retryMaxMs: retry.maxMs, logger }),
    forget: (team, at) => forgetLater(uninstalls, team, at),
    logger,
  });
  const syncing = syncEvery({ tenants, registry, logger }, options.syncEveryMs ?? 30_000);
  metrics?.workspaces(workspacesMetrics(tenants, shares));
  const storeReady = storeReadiness(store, config, logger);
  const report = readyReport(tenants, storeReady, shares);
  const teams = await expectInstalled(tenants, registry);
  const server = await serveWorkspaces({ config, tenants, registry, store, report, metrics, logger });
  logger.info(
    { port: server.port, workspaces: teams.length, install: `${d.publicUrl}/slack/install`, version },
    `distribution mode: starting ${teams.length} workspace(s); "Add to Slack" at ${d.publicUrl}/slack/install`,
  );
  const started = startInstalled(tenants, teams, options.startConcurrency ?? 8, logger);
  // Shares are taken once this replica started its workspaces: before, it could run few of them, and
  // the others would give theirs back for nothing (alone on its store, it runs each as it starts).
  const share = () => shares.start();
  void started.then(share, share);

  return {
    port: server.port,
    started,
    store,
    registry,
    workspaces: () => tenants.running,
    async stop(o) {
      tenants.halt();
      syncing.stop();
      await shares.stop();
      storeReady.stop();
      await server.stop();
      // The starts under way finish (then stop below); the ones not begun are not begun.
      await started;
      const left = await tenants.stopAll(o);
      // Their jobs stopped: the other replicas take them at their next look.
      await shares.release();
      await wakeChannel?.close();
      await store.close();
      return left;
    },
  };
}

/**
 * Each set-up workspace's jobs run on the one replica holding its share (`jobs/replicas/shares.ts`); a write
 * for a workspace whose jobs run on another replica wakes them there (PostgreSQL only).
 */
function shareJobs(tenants: Tenants, store: Store, baseStore: StoreOptions, logger: Logger, leaseS: number) {
  const shares = new WorkspaceShares({
    store,
    alone: store.backend !== 'postgres',
    leaseMs: leaseS * 1000,
    teams: () => [...tenants.running.values()].filter((w) => w.confdesk).map((w) => w.team),
    restarting: (team) => tenants.starting.has(team),
    onChange: (team, here) =>
      tenants.inTurn(team, async () => tenants.running.get(team)?.confdesk?.jobs.runJobs(here)),
    logger,
  });
  const wakeChannel =
    store.backend === 'postgres' && baseStore.databaseUrl
      ? new WakeChannel({
          databaseUrl: baseStore.databaseUrl,
          schema: baseStore.schema,
          logger,
          onWake: ({ team, ...wake }) => {
            if (shares.here(team)) tenants.running.get(team)?.confdesk?.jobs.wake(wake);
          },
        })
      : undefined;
  return { shares, wakeChannel };
}
