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
import { addLeft, type LeftForNextStart, nothingLeft } from './jobs/shutdown.js';
import { boltLogger } from './observability/bolt-logger.js';
import type { Logger } from './observability/logger.js';
import { Metrics, metricsHandler } from './observability/metrics.js';
import { type CheckState, Readiness } from './observability/readiness.js';
import { classifySlackError } from './outbound/refusals.js';
import { createPlatformClient, type PlatformClient } from './platform/client.js';
import { platformAddressProblem } from './platform/host-guard.js';
import { type WorkspaceInstall, WorkspaceRegistry, type WorkspaceSettings } from './services/workspaces.js';
import { registerAppUninstalled } from './slack/events/app-uninstalled.js';
import { registerTokensRevoked } from './slack/events/tokens-revoked.js';
import { guardReceiver } from './slack/receiver-guard.js';
import { answerUnhandled } from './slack/unhandled-requests.js';
import {
  type CheckedSettings,
  registerSetupHome,
  registerWorkspaceSetup,
  type WorkspaceSetupDeps,
} from './slack/workspace-setup.js';
import { openConfiguredStore, storeOptionsOf, storeReadiness, useProxy } from './start.js';
import { checkPlatform } from './startup/checks.js';
import { openWorkspaceStore } from './store/lazy-store.js';
import { dropStore, type Store, workspaceStoreOptions } from './store/store.js';
import { isSlackTeamId } from './store/workspaces.js';
import { parseKey, SecretBox } from './util/secret-box.js';

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
  /** Why its saved settings do not work (it waits for new ones). */
  problem?: string | undefined;
  confdesk?: Confdesk;
  platform?: PlatformClient;
  store?: Store;
  /** Stops it: work in flight until `deadline` (epoch ms), then what is left is released. */
  stop(o?: { deadline: number }): Promise<LeftForNextStart | undefined>;
}

export interface RunningWorkspaces {
  port: number;
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

  const platformFor = (s: WorkspaceSettings, team: string) =>
    createPlatformClient({
      baseUrl: s.platformUrl,
      credentials: s.credentials,
      rateLimitPerMinute: config.platform.rateLimitPerMinute,
      timeouts: config.platform.timeouts,
      proxy: config.proxy,
      // A workspace's admin typed this address: only PLATFORM_HOSTS are reached on any address.
      reach: { allowedHosts: d?.platformHosts ?? [], operatorConfigured: false },
      logger: logger.child({ component: 'platform', team }),
    });

  const setupDeps = (team: string, teamName: string, configured: boolean): WorkspaceSetupDeps => ({
    teamName,
    configured: () => configured,
    summary: () => registry.summary(team),
    save: (settings, by) => save(team, settings, by),
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
      await restart(team);
      return true;
    });
    if (!kept)
      return { ok: false as const, problem: md`Not saved: confdesk was uninstalled from this workspace.` };
    return {
      ok: true as const,
      webhook: { url: `${publicUrl}/webhooks/platform/${team}`, header, secret: !!settings.webhookSecret },
    };
  }

  /** (Re)starts a workspace from what the registry holds: set up, waiting for settings, or gone. */
  const start = (team: string): Promise<void> => inTurn(team, () => restart(team));

  /** `start`'s work, inside the workspace's turn. */
  async function restart(team: string): Promise<void> {
    await running.get(team)?.stop();
    running.delete(team);
    const install = await registry.install(team);
    if (!install) return;
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
      log.error({ err: error }, 'the workspace could not start: its admins can save its settings again');
      return waitForSettings(team, install, log, `it could not start (${(error as Error).message})`, at);
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
    const wsStore = await openWorkspaceStore(storeOptions);
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
    });
    registerWorkspaceSetup(confdesk.slack.app, setupDeps(team, install.teamName, true));
    try {
      await confdesk.start();
    } catch (error) {
      await confdesk.stop().catch(() => undefined);
      await platform.close();
      await wsStore.close();
      throw error;
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
    const teams = new Set(await registry.teams());
    for (const team of teams) {
      const w = running.get(team);
      const [install, settings] = await Promise.all([
        registry.install(team),
        registry.settings(team).catch(() => undefined),
      ]);
      if (!w || w.botToken !== install?.botToken || w.settingsAt !== settings?.updatedAt.getTime())
        await start(team);
    }
    for (const team of [...running.keys()].filter((t) => !teams.has(t)))
      await inTurn(team, async () => {
        const w = running.get(team);
        running.delete(team);
        await w?.stop();
        logger.info({ team }, 'workspace uninstalled on another replica: stopped here');
      });
  }
  const syncEveryMs = options.syncEveryMs ?? 30_000;
  let syncing = false;
  const syncTimer = setInterval(() => {
    if (syncing) return;
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
      const w = team ? running.get(team) : undefined;
      if (!w) {
        logger.warn({ team }, 'a Slack request from a workspace confdesk is not installed in: ignored');
        await event.ack();
        return;
      }
      await w.app.processEvent(event);
    },
  };

  const storeReady = storeReadiness(store, config, logger);
  const readiness = new Readiness()
    .add('store', () => storeReady.state())
    .add('workspaces', () => describeWorkspaces([...running.values()]));
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
            json(res, r.ok ? 200 : 503, r);
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

  for (const team of await registry.teams())
    await start(team).catch((error: unknown) =>
      logger.error({ team, err: error }, 'a workspace could not start: it stays installed, restart to retry'),
    );
  const { port: listenPort, host } = config.slack;
  const server = (await receiver.start(host ? { port: listenPort, host } : listenPort)) as unknown as {
    address(): AddressInfo | null;
  };
  const port = server.address()?.port ?? config.slack.port;
  logger.info(
    { port, workspaces: running.size, install: `${publicUrl}/slack/install` },
    `distribution mode: ${running.size} workspace(s); "Add to Slack" at ${publicUrl}/slack/install`,
  );

  return {
    port,
    store,
    registry,
    workspaces: () => running,
    async stop(o) {
      clearInterval(syncTimer);
      storeReady.stop();
      await receiver.stop();
      const lefts = await Promise.all([...running.values()].map((w) => w.stop(o)));
      await store.close();
      return lefts.reduce<LeftForNextStart>((sum, l) => (l ? addLeft(sum, l) : sum), nothingLeft());
    },
  };
}

/** How far Slack's clock (an event's time) and this host's (an install's time) may be apart. */
const clockMarginMs = 60_000;

const botIdentityOf = (i: WorkspaceInstall) =>
  i.botId && i.botUserId ? { botId: i.botId, botUserId: i.botUserId } : undefined;

/** `/readyz`'s line for the workspaces: how many are set up, and which wait for their settings. */
function describeWorkspaces(all: Workspace[]): CheckState {
  const set = all.filter((w) => w.confdesk).length;
  const failing = all.filter((w) => w.problem).map((w) => w.team);
  const waiting = all.length - set - failing.length;
  return {
    ok: true,
    detail:
      `${all.length} workspace(s): ${set} set up` +
      (waiting ? `, ${waiting} waiting for their platform settings` : '') +
      (failing.length ? `, settings not working in ${failing.join(', ')} (see the log)` : ''),
  };
}
