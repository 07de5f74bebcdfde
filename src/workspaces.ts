import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, type Receiver, type ReceiverEvent } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { md } from './blocks/mrkdwn.js';
import { type Confdesk, type ConfdeskOptions, createConfdesk } from './confdesk.js';
import type { Config } from './config/config.js';
import { runDoctor } from './doctor/doctor.js';
import { readManifest } from './doctor/manifest.js';
import { workspaceRules } from './domain/workspace-settings.js';
import { installRoutes } from './install-flow.js';
import { WorkspaceShares } from './jobs/shares.js';
import { addLeft, type LeftForNextStart, nothingLeft } from './jobs/shutdown.js';
import { WakeChannel } from './jobs/wake-channel.js';
import { boltLogger } from './observability/bolt-logger.js';
import type { Logger } from './observability/logger.js';
import { Metrics, metricsHandler } from './observability/metrics.js';
import { type CheckState, Readiness } from './observability/readiness.js';
import { version } from './observability/version.js';
import type { PlatformClient } from './platform/client.js';
import { platformAddressProblem } from './platform/host-guard.js';
import { type WorkspaceInstall, WorkspaceRegistry, type WorkspaceSettings } from './services/workspaces.js';
import { registerAppUninstalled } from './slack/events/app-uninstalled.js';
import { registerTokensRevoked } from './slack/events/tokens-revoked.js';
import { guardReceiver } from './slack/runtime/receiver-guard.js';
import { answerUnhandled } from './slack/runtime/unhandled-requests.js';
import {
  type CheckedSettings,
  registerSetupHome,
  registerWorkspaceSetup,
  type WorkspaceSetupDeps,
} from './slack/workspace-setup.js';
import { checkPlatform } from './startup/checks.js';
import { openConfiguredStore, storeOptionsOf, storeReadiness } from './startup/configured-store.js';
import { platformClientFor } from './startup/platform-client.js';
import { useProxy } from './startup/proxy.js';
import { openWorkspaceStore } from './store/lazy-store.js';
import { dropStore, type Store, workspaceStoreOptions } from './store/store.js';
import { isSlackTeamId } from './store/workspaces.js';
import { parseKey, SecretBox } from './util/secret-box.js';
import { classifySlackError } from './util/slack-errors.js';

/*
 * Distribution mode (issue 23): any workspace installs confdesk with "Add to Slack". One HTTP server
 * (Bolt's HTTPReceiver with `@slack/oauth`'s installer) takes every workspace's requests and hands each
 * to that workspace's own confdesk: its bot token, its platform account and rate budget, its store
 * (a folder or schema of its own: nothing of one workspace is reachable from another), its jobs and
 * poller lease, its webhook URL and secret. Until a workspace's Slack admin saves its platform
 * settings, its confdesk only answers how to set it up.
 */

/** One installed workspace: set up (a whole confdesk), or waiting for its settings. */
interface Workspace {
  team: string;
  app: App;
  /** The bot token it runs with (a reinstall brings a new one). */
  botToken: string;
  /** When its running settings were saved (another replica's save shows as a newer time). */
  settingsAt?: number;
  /** When its installation was kept, read before it (a reinstall shows as a newer time). */
  installedAt?: number;
  /** Why its saved settings do not work (it waits for new ones). */
  problem?: string | undefined;
  confdesk?: Confdesk;
  platform?: PlatformClient;
  store?: Store;
  /** Stops it: work in flight until `deadline` (epoch ms), then what is left is released. */
  stop(o?: { deadline: number }): Promise<LeftForNextStart | undefined>;
}

/** A workspace whose start failed, as `/readyz`, `/metrics` and its admin's form say it. */
interface StartFailure {
  problem: string;
  /** Failed starts in a row. */
  attempts: number;
  retryAt: number;
}

/** Where a workspace stands (the `state` label of `confdesk_workspaces`). */
export type WorkspaceState = 'running' | 'starting' | 'failed' | 'not_set_up';

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

/** A workspace's app has no server: the process's receiver hands it its requests. */
const handedReceiver: Receiver = {
  init: () => undefined,
  start: async () => undefined,
  stop: async () => undefined,
};

/**
 * The workspace a Slack request comes from, read as Bolt reads it (App.js buildSource): commands,
 * `team_id`; events, the installation in `authorizations` first (in a Slack Connect channel the outer
 * `team_id` may be the other workspace's); a view, `view.app_installed_team_id` first (a modal opened
 * from a shared channel); other interactivity, `team.id`, else `user.team_id`.
 */
export function teamOf(body: unknown): string | undefined {
  const b = body as {
    type?: string;
    command?: string;
    event?: unknown;
    team_id?: string;
    team?: { id?: string } | null;
    user?: { team_id?: string };
    view?: { app_installed_team_id?: string };
    authorizations?: { team_id?: string | null }[];
  };
  if (b.command !== undefined) return b.team_id;
  if (b.event !== undefined) return b.authorizations?.[0]?.team_id ?? b.team_id;
  const installed =
    b.type === 'view_submission' || b.type === 'view_closed' ? b.view?.app_installed_team_id : undefined;
  return installed || (b.team?.id ?? b.user?.team_id ?? b.team_id);
}

export async function startWorkspaces(
  config: Config,
  logger: Logger,
  options: WorkspacesOptions = {},
): Promise<RunningWorkspaces> {
  const d = config.distribution;
  if (!d) throw new Error('startWorkspaces: distribution mode is not configured');
  useProxy(config, logger);
  const keys = d.keys.map(parseKey).filter((k): k is Buffer => k !== undefined);
  const box = new SecretBox(keys);
  const baseStore = storeOptionsOf(config);
  const store = await openConfiguredStore(config);
  const registry = new WorkspaceRegistry(store, box, options.now);
  const resealed = await registry.reseal((team, error) =>
    logger.error(
      { team, err: error },
      'could not seal a workspace’s secrets again (with the new key, bound to it)',
    ),
  );
  if (resealed)
    logger.info(
      { resealed },
      'sealed the workspaces’ secrets again: with the new CONFDESK_ENCRYPTION_KEY, and bound to their workspace',
    );

  const { publicUrl } = d;
  const header = config.webhook?.header ?? 'X-Webhook-Secret';
  // One registry for every workspace (each labelled with its team id), served once by the process.
  const metrics = config.metrics ? new Metrics() : undefined;
  const signingSecret = config.slack.signingSecret as string;
  const running = new Map<string, Workspace>();
  // Starting or forgetting a workspace happens one at a time per workspace (a reinstall during a save).
  const turns = new Map<string, Promise<unknown>>();
  const inTurn = <T>(team: string, work: () => Promise<T>): Promise<T> => {
    const next = (turns.get(team) ?? Promise.resolve()).then(work, work);
    turns.set(
      team,
      next.catch(() => undefined),
    );
    return next;
  };
  // Each set-up workspace's jobs run on the one replica holding its share (`jobs/shares.ts`).
  const shares = new WorkspaceShares({
    store,
    alone: store.backend !== 'postgres',
    leaseMs: config.workspaceLeaseS * 1000,
    teams: () => [...running.values()].filter((w) => w.confdesk).map((w) => w.team),
    restarting: (team) => starting.has(team),
    onChange: (team, here) => inTurn(team, async () => running.get(team)?.confdesk?.runJobs(here)),
    logger,
  });
  // A write for a workspace whose jobs run on another replica wakes them there (PostgreSQL only).
  const wakeChannel =
    store.backend === 'postgres' && baseStore.databaseUrl
      ? new WakeChannel({
          databaseUrl: baseStore.databaseUrl,
          schema: baseStore.schema,
          logger,
          onWake: ({ team, ...wake }) => {
            if (shares.here(team)) running.get(team)?.confdesk?.wake(wake);
          },
        })
      : undefined;
  await wakeChannel?.open();
  const retry = options.retry ?? { firstMs: 5_000, maxMs: 300_000 };
  /** Workspaces whose last start failed, each tried again by its timer in `retryTimers`. */
  const failures = new Map<string, StartFailure>();
  const retryTimers = new Map<string, NodeJS.Timeout>();
  /** Workspaces whose start is under way (the process's start, a save, a sync, a retry). */
  const starting = new Set<string>();
  /** Installed workspaces the process's start has not begun yet. */
  const waiting = new Set<string>();
  const boot = { total: 0, tried: 0, done: false };
  let stopping = false;

  const platformFor = (s: WorkspaceSettings, team: string) =>
    platformClientFor(config, {
      baseUrl: s.platformUrl,
      credentials: s.credentials,
      // A workspace's admin typed this address: only PLATFORM_HOSTS are reached on any address.
      reach: { allowedHosts: d?.platformHosts ?? [], operatorConfigured: false },
      logger: logger.child({ component: 'platform', team }),
    });

  const setupDeps = (team: string, teamName: string, configured: boolean): WorkspaceSetupDeps => ({
    teamName,
    configured: () => configured,
    summary: () => registry.summary(team),
    save: (settings, by) => save(team, settings, by),
    notStarted: () => {
      const failure = failures.get(team);
      if (!failure) return undefined;
      const next = inWords(failure.retryAt - Date.now());
      return md`confdesk is set up in this workspace but could not start: ${failure.problem}. It tries again by itself (next in ${next}); please try again later.`;
    },
    logger: logger.child({ team }),
  });

  /** Tries the settings on the platform; keeps them and restarts the workspace only if it signs in. */
  async function save(team: string, checked: CheckedSettings, by: string) {
    const { ok: _, ...form } = checked;
    const settings = await registry.merge(team, form, by);
    const refused = await platformAddressProblem(settings.platformUrl, d?.platformHosts ?? []);
    if (refused) return { ok: false as const, problem: md`Not saved: Platform address: ${refused}.` };
    const probe = platformFor(settings, team);
    try {
      const check = await checkPlatform(probe, {
        url: settings.platformUrl,
        credentials: settings.credentials.kind,
        // Said in the settings form's words, not the environment's.
        names: {
          url: 'Platform address',
          token: 'API token',
          login: 'Username and password',
          renew: 'sign in with a username and password instead (renewed automatically)',
        },
      });
      if (!check.ok) return { ok: false as const, problem: md`Not saved: ${check.problem}` };
    } finally {
      await probe.close();
    }
    // In the workspace's turn: an uninstall that came while the platform was asked has forgotten it,
    // and its settings must not come back (nor revive at a reinstall, which starts afresh).
    const kept = await inTurn(team, async () => {
      if (!(await registry.install(team))) return false;
      await registry.saveSettings(team, settings);
      // New settings start the backoff afresh: the admin is told of the first retry, seconds away.
      failures.delete(team);
      await restart(team);
      return true;
    });
    if (!kept)
      return { ok: false as const, problem: md`Not saved: confdesk was uninstalled from this workspace.` };
    // "Saved" only when the workspace runs with them: the platform took them, but its store or jobs
    // may still fail here (the database full), and the admin would otherwise wait for nothing.
    const failure = failures.get(team);
    if (failure)
      return {
        ok: false as const,
        problem: md`Saved (the platform took these settings), but confdesk could not start in this workspace: ${failure.problem}. It tries again by itself in ${inWords(failure.retryAt - Date.now())}, then less often (at least every ${inWords(retry.maxMs)}); nothing to do here unless this stays. The people who run confdesk see it too.`,
      };
    const notWorking = running.get(team)?.problem;
    if (notWorking)
      return { ok: false as const, problem: md`Saved, but confdesk could not start: ${notWorking}.` };
    return {
      ok: true as const,
      webhook: { url: `${publicUrl}/webhooks/platform/${team}`, header, secret: !!settings.webhookSecret },
    };
  }

  /** (Re)starts a workspace from what the registry holds: set up, waiting for settings, or gone. */
  const start = (team: string): Promise<void> => inTurn(team, () => restart(team));

  /**
   * `start`'s work, inside the workspace's turn. A start that fails (the registry, the store, the jobs)
   * is recorded in `failures` (for /readyz, /metrics and the admin's save) and tried again later.
   */
  async function restart(team: string): Promise<void> {
    clearTimeout(retryTimers.get(team));
    retryTimers.delete(team);
    starting.add(team);
    try {
      await startNow(team);
      failures.delete(team);
    } catch (error) {
      failedToStart(team, error);
    } finally {
      starting.delete(team);
    }
  }

  /** Records a failed start and arms its retry: 5 s, doubling up to 5 min (`options.retry`). */
  function failedToStart(team: string, error: unknown): void {
    const attempts = (failures.get(team)?.attempts ?? 0) + 1;
    const delay = Math.min(retry.maxMs, retry.firstMs * 2 ** (attempts - 1));
    const problem = startProblem(error);
    failures.set(team, { problem, attempts, retryAt: Date.now() + delay });
    logger.error(
      { team, err: error, attempts, retryInS: delay / 1000 },
      `workspace could not start (${problem}): tried again in ${inWords(delay)}`,
    );
    if (stopping) return;
    const timer = setTimeout(() => {
      retryTimers.delete(team);
      if (!stopping) void start(team);
    }, delay);
    // A retry never keeps the process alive on its own.
    timer.unref();
    retryTimers.set(team, timer);
  }

  /** `restart` without its bookkeeping: throws what kept the workspace from starting. */
  async function startNow(team: string): Promise<void> {
    await running.get(team)?.stop();
    running.delete(team);
    // Read before the installation: a reinstall in between shows as newer at the next sync.
    const installedAt = (await registry.installedAt(team))?.getTime();
    const install = await registry.install(team);
    if (!install) return;
    try {
      await startInstalled(team, install);
    } finally {
      const w = running.get(team);
      if (w && installedAt !== undefined) w.installedAt = installedAt;
    }
  }

  async function startInstalled(team: string, install: WorkspaceInstall): Promise<void> {
    // `workspace`: a request's own lines carry `team` already (requestLog).
    const log = logger.child({ workspace: team });
    let settings: WorkspaceSettings | undefined;
    try {
      settings = await registry.settings(team);
    } catch (error) {
      return waitForSettings(
        team,
        install,
        log,
        `its saved settings cannot be opened (${(error as Error).message})`,
        // The time they were saved (readable without opening them): a newer save restarts it.
        await registry.settingsAt(team).catch(() => undefined),
      );
    }
    if (!settings) return waitForSettings(team, install, log);
    // Checked again at each start: the address's DNS may point inside since it was saved.
    const refused = await platformAddressProblem(settings.platformUrl, d?.platformHosts ?? []);
    const at = settings.updatedAt.getTime();
    if (refused)
      return waitForSettings(team, install, log, `its platform address is refused: ${refused}`, at);
    try {
      await startSetUp(team, install, settings, log);
    } catch (error) {
      // Meanwhile its admins still have the settings form, and an uninstall is still heard.
      waitForSettings(team, install, log, undefined, at);
      throw error;
    }
  }

  /**
   * A workspace without working settings: only its setup (the settings form, the setup Home, an answer
   * to every command), and uninstall. `problem`: why its saved settings do not work (in /readyz).
   */
  function waitForSettings(
    team: string,
    install: WorkspaceInstall,
    log: Logger,
    problem?: string,
    settingsAt?: number,
  ): void {
    const app = new App({
      token: install.botToken,
      receiver: handedReceiver,
      logger: boltLogger(log),
      convoStore: false,
      ...(botIdentityOf(install) ?? {}),
      ...(config.slack.apiUrl ? { clientOptions: { slackApiUrl: config.slack.apiUrl } } : {}),
    });
    registerWorkspaceSetup(app, setupDeps(team, install.teamName, false));
    registerSetupHome(app, { teamName: install.teamName });
    // The instance forgets its own workspace, whatever team the event's body names.
    const forgetThis = (_named: string, at?: Date) => forgetLater(team, at);
    registerAppUninstalled(app, { logger: log, forgetWorkspace: forgetThis });
    registerTokensRevoked(app, { logger: log, forgetWorkspace: forgetThis });
    running.set(team, {
      team,
      app,
      botToken: install.botToken,
      problem,
      ...(settingsAt === undefined ? {} : { settingsAt }),
      stop: async () => undefined,
    });
    if (problem) log.error({ problem }, `workspace waiting for new settings: ${problem}`);
    else log.info({}, 'workspace installed, waiting for its platform settings');
  }

  /** A set-up workspace: its whole confdesk. */
  async function startSetUp(
    team: string,
    install: WorkspaceInstall,
    settings: WorkspaceSettings,
    log: Logger,
  ): Promise<void> {
    const botIdentity = botIdentityOf(install);
    const storeOptions = workspaceStoreOptions(baseStore, team);
    const wsStore = await openWorkspaceStore(storeOptions).catch(failedAt('its store could not open'));
    const platform = platformFor(settings, team);
    const webhook = settings.webhookSecret ? { secret: settings.webhookSecret, header } : undefined;
    const tenantConfig: Config = {
      ...config,
      slack: { ...config.slack, botToken: install.botToken },
      platform: { ...config.platform, url: settings.platformUrl, credentials: settings.credentials },
      webhook,
    };
    const confdesk = createConfdesk({
      slack: {
        botToken: install.botToken,
        signingSecret,
        apiUrl: config.slack.apiUrl,
        port: 0,
        receiver: handedReceiver,
        botIdentity,
        doctor: () =>
          runDoctor({
            config: tenantConfig,
            platform: {
              baseUrl: settings.platformUrl,
              credentials: settings.credentials,
              simulator: false,
              findings: platform.findings,
              budget: platform.budget,
            },
            store: () => wsStore.inspect(),
          }),
      },
      platform,
      store: wsStore,
      logger: log,
      webhook,
      workspace: team,
      ...(metrics ? { metrics: { registry: metrics } } : {}),
      jobs: options.jobs ?? { pollIntervalMs: config.pollIntervalS * 1000 },
      distribution: {
        defaults: { serviceKey: settings.serviceKey, language: settings.language },
        rules: workspaceRules(settings.ticketCreators),
        forget: (_named: string, at?: Date) => forgetLater(team, at),
      },
      ...(options.now ? { now: options.now } : {}),
      jobsWhenAsked: true,
      writesElsewhere: wakeChannel && ((wake) => wakeChannel.tell({ team, ...wake })),
    });
    registerWorkspaceSetup(confdesk.slack.app, setupDeps(team, install.teamName, true));
    try {
      await confdesk.start();
      if (shares.here(team)) await confdesk.runJobs(true);
    } catch (error) {
      await confdesk.stop().catch(() => undefined);
      await platform.close();
      await wsStore.close();
      throw new WorkspaceStartError('its jobs could not start', error);
    }
    running.set(team, {
      team,
      app: confdesk.slack.app,
      botToken: install.botToken,
      settingsAt: settings.updatedAt.getTime(),
      confdesk,
      platform,
      store: wsStore,
      async stop(o) {
        const left = await confdesk.stop(o);
        await platform.close();
        await wsStore.close();
        return left;
      },
    });
    log.info({ platform: settings.platformUrl }, 'workspace started');
    shares.nudge();
  }

  /**
   * What the uninstall and revocation listeners call, with the event's time: the forgetting runs after
   * their request (a workspace's stop waits for its requests in flight, this one among them).
   */
  const forgetLater = async (team: string, at?: Date): Promise<void> => {
    setImmediate(() =>
      forget(team, at).catch((error: unknown) =>
        logger.error({ team, err: error }, 'could not forget a workspace'),
      ),
    );
  };

  /**
   * Uninstalled, or its bot token revoked (`at`: when Slack says it happened): stops the workspace
   * and deletes all it kept. An event older than the workspace's latest install is a late one (Slack
   * retries an event for a while; an uninstall's retry can arrive after a reinstall): it is obeyed
   * only if Slack now refuses the installation's token.
   */
  function forget(team: string, at?: Date): Promise<void> {
    return inTurn(team, async () => {
      if (at && (await outlived(team, at))) return;
      clearTimeout(retryTimers.get(team));
      retryTimers.delete(team);
      failures.delete(team);
      const w = running.get(team);
      running.delete(team);
      await w?.stop();
      try {
        // Only a Slack-shaped id has a store of its own (its name is made of it): an installation kept
        // under another id (from before ids were checked at install) has none, and is forgotten all the same.
        if (isSlackTeamId(team)) await dropStore(workspaceStoreOptions(baseStore, team));
      } finally {
        // Its token and settings go even when its store could not be dropped (the error is logged).
        await registry.forget(team);
      }
      logger.warn(
        { team },
        'workspace forgotten: its tokens, settings, subscriptions, cards, digests and queue are deleted',
      );
    });
  }

  /**
   * Whether the workspace's installation outlived an uninstall or revocation of time `at` (the event
   * was about an earlier installation). Only an event clearly after the install (by a minute: Slack's
   * event time is in whole seconds, and its clock is not this host's) is obeyed without asking; for
   * any other, Slack is asked whether the installation's token still works.
   */
  async function outlived(team: string, at: Date): Promise<boolean> {
    const installedAt = await registry.installedAt(team);
    if (!installedAt || at.getTime() >= installedAt.getTime() + clockMarginMs) return false;
    const install = await registry.install(team).catch(() => undefined);
    if (!install) return false;
    const client = new WebClient(install.botToken, {
      ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
      retryConfig: { retries: 1 },
      timeout: 10_000,
      logger: boltLogger(logger),
    });
    try {
      await client.auth.test();
    } catch (error) {
      const refusal = classifySlackError(error);
      if (refusal.kind === 'token') return false;
      // Slack could not be asked: the newer installation is kept (an uninstall it missed shows as
      // the token refused at the next post).
      logger.warn(
        { team, err: error },
        'an uninstall older than the workspace’s latest install: kept, as Slack could not be asked about its token',
      );
      return true;
    }
    logger.info(
      { team, eventAt: at.toISOString(), installedAt: installedAt.toISOString() },
      'a late uninstall or revocation (older than the workspace’s latest install, whose token works): ignored',
    );
    return true;
  }

  /**
   * Several replicas share the registry: what another one changed (an install, a save, an uninstall)
   * reaches this one at the next sync. A workspace gone from the registry is only stopped here: the
   * replica that forgot it dropped its store.
   */
  async function sync(): Promise<void> {
    // One read for all of them (no secret opened): a thousand workspaces cost one query a sync.
    const versions = await registry.versions();
    const teams = new Set(versions.keys());
    for (const [team, v] of versions) {
      // One under way is left to it, and so is a failed one (its retry is armed).
      if (starting.has(team) || waiting.has(team) || (!running.has(team) && retryTimers.has(team))) continue;
      const w = running.get(team);
      if (!w || w.installedAt !== v.installedAt || w.settingsAt !== v.settingsAt) await start(team);
    }
    for (const team of [...new Set([...running.keys(), ...failures.keys()])].filter((t) => !teams.has(t)))
      await inTurn(team, async () => {
        // Installed while the list above was read (an install on this replica, or a reinstall): kept.
        if (await registry.install(team).catch(() => undefined)) return;
        clearTimeout(retryTimers.get(team));
        retryTimers.delete(team);
        failures.delete(team);
        const w = running.get(team);
        running.delete(team);
        await w?.stop();
        logger.info({ team }, 'workspace uninstalled on another replica: stopped here');
      });
  }
  const syncEveryMs = options.syncEveryMs ?? 30_000;
  let syncing = false;
  const syncTimer = setInterval(() => {
    if (syncing || !boot.done) return;
    syncing = true;
    sync()
      .catch((error: unknown) => logger.warn({ err: error }, 'could not sync the workspaces with the store'))
      .finally(() => {
        syncing = false;
      });
  }, syncEveryMs);
  syncTimer.unref();

  // Every request of every workspace arrives here, and goes to that workspace's app.
  const dispatcher = {
    async processEvent(event: ReceiverEvent): Promise<void> {
      const team = teamOf(event.body);
      // While the process starts, a workspace someone uses goes first, and its request waits for it
      // a little (Slack wants the ack within 3 s).
      const under = !team
        ? undefined
        : waiting.has(team)
          ? startFirst(team)
          : starting.has(team)
            ? turns.get(team)
            : undefined;
      if (under) await Promise.race([under, sleep(requestWaitMs)]);
      const w = team ? running.get(team) : undefined;
      if (!w) {
        logger.warn({ team }, 'a Slack request from a workspace confdesk is not installed in: ignored');
        await event.ack();
        return;
      }
      await w.app.processEvent(event);
    },
  };

  /** Every workspace known here, by state: what /readyz and /metrics report. */
  const census = (): Census => {
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
      else if (w?.problem && state === 'failed')
        failed.push({ team, reason: 'settings', problem: w.problem });
    }
    return { states, failed, boot };
  };
  metrics?.workspaces(() => {
    const c = census();
    return {
      states: c.states,
      failed: c.failed.map((f) => ({ workspace: f.team, reason: f.reason })),
      jobsHere: shares.count,
    };
  });

  const storeReady = storeReadiness(store, config, logger);
  const readiness = new Readiness()
    .add('store', () => storeReady.state())
    .add('workspaces', () => describeWorkspaces(census()))
    .add('jobs here', () => ({ ok: true, detail: shares.describe() }));
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const bolt = boltLogger(logger);
  const receiver = guardReceiver(
    new HTTPReceiver({
      signingSecret,
      port: config.slack.port,
      logger: bolt,
      // Bolt's default line for each request to a path it does not serve (a scan, /metrics with metrics
      // off) is an info line per request: outsiders could fill the log with it.
      dispatchErrorHandler: answerUnhandled(logger),
      customRoutes: [
        ...installRoutes({
          clientId: d.clientId,
          clientSecret: d.clientSecret,
          stateSecret: d.stateSecret,
          scopes: readManifest().botScopes,
          publicUrl,
          apiUrl: config.slack.apiUrl,
          allowedTeams: d.allowedTeams,
          store,
          installationStore: registry.installationStore(start),
          logger,
        }),
        { path: '/healthz', method: ['GET'], handler: (_req, res) => json(res, 200, { ok: true }) },
        {
          path: '/readyz',
          method: ['GET'],
          handler: (_req, res) => {
            const r = readiness.report();
            const c = census();
            // The failed ones by name, for whoever looks (the load balancer reads the status only).
            const failed = c.failed.slice(0, listedFailures);
            json(res, r.ok ? 200 : 503, { ...r, workspaces: { ...c.states, failed } });
          },
        },
        ...(metrics && config.metrics
          ? [{ path: '/metrics', method: ['GET'], handler: metricsHandler(metrics, config.metrics.token) }]
          : []),
        {
          path: '/webhooks/platform/:team',
          method: ['POST'],
          handler: (req, res) => {
            const team = (req as IncomingMessage & { params?: { team?: string } }).params?.team ?? '';
            const hook = running.get(team)?.confdesk?.webhook;
            if (hook) return hook(req, res);
            req.resume();
            json(res, 404, { ok: false, error: 'no workspace set up at this address' });
          },
        },
      ],
    }),
    { signingSecret, logger },
  );
  receiver.init(dispatcher as unknown as App);

  // The server answers first (/healthz 200, /readyz 503 "starting…"), then the workspaces start a few
  // at a time: all at once would ask the store for as many connections and files as there are
  // workspaces; one by one would leave the machine idle while each waits for its store.
  const teams = await registry.teams();
  for (const team of teams) waiting.add(team);
  boot.total = teams.length;
  const { port: listenPort, host } = config.slack;
  const server = (await receiver.start(host ? { port: listenPort, host } : listenPort)) as unknown as {
    address(): AddressInfo | null;
  };
  const port = server.address()?.port ?? config.slack.port;
  logger.info(
    { port, workspaces: teams.length, install: `${publicUrl}/slack/install`, version },
    `distribution mode: starting ${teams.length} workspace(s); "Add to Slack" at ${publicUrl}/slack/install`,
  );
  function startFirst(team: string): Promise<void> {
    waiting.delete(team);
    return start(team).finally(() => {
      boot.tried++;
    });
  }
  const bootStarted = Date.now();
  const queue = [...teams];
  const worker = async () => {
    for (let team = queue.shift(); team !== undefined && !stopping; team = queue.shift()) {
      // The embedded store works synchronously under its promises: without a turn of the event loop
      // between starts, no request (not even /healthz) would be answered until all had started.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (waiting.has(team)) await startFirst(team);
    }
  };
  const started = Promise.all(
    Array.from({ length: Math.min(queue.length, options.startConcurrency ?? 8) }, worker),
  ).then(() => {
    waiting.clear();
    boot.done = true;
    const { states } = census();
    logger.info(
      { ...states, seconds: (Date.now() - bootStarted) / 1000 },
      `distribution mode: ${states.running} of ${teams.length} workspace(s) running` +
        (states.failed ? `, ${states.failed} failed (named in /readyz)` : ''),
    );
  });

  // Shares are taken once this replica started its workspaces: before, it could run few of them, and
  // the others would give theirs back for nothing (alone on its store, it runs each as it starts).
  const share = () => shares.start();
  void started.then(share, share);

  return {
    port,
    started,
    store,
    registry,
    workspaces: () => running,
    async stop(o) {
      stopping = true;
      clearInterval(syncTimer);
      await shares.stop();
      for (const timer of retryTimers.values()) clearTimeout(timer);
      retryTimers.clear();
      storeReady.stop();
      await receiver.stop();
      // The starts under way finish (then stop below); the ones not begun are not begun.
      await started;
      await Promise.all([...turns.values()]);
      const lefts = await Promise.all([...running.values()].map((w) => w.stop(o)));
      // Their jobs stopped: the other replicas take them at their next look.
      await shares.release();
      await wakeChannel?.close();
      await store.close();
      return lefts.reduce<LeftForNextStart>((sum, l) => (l ? addLeft(sum, l) : sum), nothingLeft());
    },
  };
}

/** How far Slack's clock (an event's time) and this host's (an install's time) may be apart. */
const clockMarginMs = 60_000;

const botIdentityOf = (i: WorkspaceInstall) =>
  i.botId && i.botUserId ? { botId: i.botId, botUserId: i.botUserId } : undefined;

/** What the process knows of its workspaces: how many in each state, and the failed ones. */
interface Census {
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

/** How many failed workspaces /readyz lists by name (the metrics name every one). */
const listedFailures = 50;
/** How long a request for a workspace still starting waits for it. */
const requestWaitMs = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A start that failed at one stage: that stage in words, with its cause. */
class WorkspaceStartError extends Error {
  readonly code = 'workspace_start';
  constructor(stage: string, cause: unknown) {
    super(`${stage}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
const failedAt =
  (stage: string) =>
  (cause: unknown): never => {
    throw new WorkspaceStartError(stage, cause);
  };

/** A failed start in one line for /readyz and the admin (the whole error goes to the log). */
function startProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const said = error instanceof WorkspaceStartError ? message : `it could not start: ${message}`;
  const line = said.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** A delay as people read it: 5 s, 2 min. */
function inWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

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
