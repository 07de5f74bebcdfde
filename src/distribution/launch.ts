import { App, type Receiver } from '@slack/bolt';
import { type ConfdeskOptions, createConfdesk } from '../confdesk.js';
import type { Config } from '../config/config.js';
import { type DoctorContext, runDoctor } from '../doctor/doctor.js';
import type { DoctorReport } from '../domain/doctor-report.js';
import { compilePatterns } from '../domain/unfurl-links.js';
import { workspaceRules } from '../domain/workspace-settings.js';
import type { WorkspaceShares } from '../jobs/replicas/shares.js';
import type { WakeChannel } from '../jobs/replicas/wake-channel.js';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { PlatformClient } from '../platform/client.js';
import { platformAddressProblem } from '../platform/host-guard.js';
import type { WorkspaceInstall, WorkspaceRegistry, WorkspaceSettings } from '../services/workspaces.js';
import { registerAppUninstalled } from '../slack/events/app-uninstalled.js';
import { registerTokensRevoked } from '../slack/events/tokens-revoked.js';
import { installSurfaces } from '../slack/runtime/surfaces.js';
import { registerSetupOnly, type WorkspaceSetupDeps } from '../slack/setup/index.js';
import { type MemoryStore, platformClientFor } from '../startup/platform-client.js';
import { openWorkspaceStore } from '../store/lazy-store.js';
import { type StoreOptions, workspaceStoreOptions } from '../store/store.js';
import { type Launch, type Workspace, WorkspaceStartError } from './tenants.js';

export interface LaunchOptions {
  config: Config;
  registry: WorkspaceRegistry;
  /** The process's store: each set-up workspace's own is a folder or schema beside it. */
  baseStore: StoreOptions;
  /** Set: every workspace reports to this one registry, labelled with its team id. */
  metrics: Metrics | undefined;
  jobs: ConfdeskOptions['jobs'];
  now: (() => Date) | undefined;
  /** Where each set-up workspace's jobs run: on the one replica holding its share. */
  shares: Pick<WorkspaceShares, 'here' | 'nudge'>;
  /** Tells the replica running a workspace's jobs of a write made here (PostgreSQL only). */
  wakeChannel: Pick<WakeChannel, 'tell'> | undefined;
  /** What a workspace's setup surface is given (`save-settings.ts`). */
  setup(team: string, teamName: string): WorkspaceSetupDeps;
  /** Forgets a workspace after its uninstall or the revocation of its token (`uninstall.ts`). */
  forget(team: string, at?: Date): Promise<void>;
  logger: Logger;
}

/**
 * Builds each installed workspace's app: a whole confdesk when its saved settings work, else a
 * setup-only app that waits for new ones.
 */
export class Launcher {
  constructor(private readonly o: LaunchOptions) {}

  /** Starts an installed workspace from what the registry holds of it, and places it (`Launch`). */
  readonly launch: Launch = async (team, install, place) => {
    const { registry } = this.o;
    // `workspace`: a request's own lines carry `team` already (requestLog).
    const log = this.o.logger.child({ workspace: team });
    const waiting = (problem?: string, settingsAt?: number): void => {
      place(this.setupOnly(team, install, log, problem, settingsAt));
      if (problem) log.error({ problem }, `workspace waiting for new settings: ${problem}`);
      else log.info({}, 'workspace installed, waiting for its platform settings');
    };
    let settings: WorkspaceSettings | undefined;
    try {
      settings = await registry.settings(team);
    } catch (error) {
      return waiting(
        `its saved settings cannot be opened (${(error as Error).message})`,
        // The time they were saved (readable without opening them): a newer save restarts it.
        await registry.settingsAt(team).catch(() => undefined),
      );
    }
    if (!settings) return waiting();
    // Checked again at each start: the address's DNS may point inside since it was saved.
    const refused = await platformAddressProblem(settings.platformUrl, platformHostsOf(this.o.config));
    const at = settings.updatedAt.getTime();
    if (refused) return waiting(`its platform address is refused: ${refused}`, at);
    let setUp: Workspace;
    try {
      setUp = await this.setUp(team, install, settings, log);
    } catch (error) {
      // Meanwhile its admins still have the settings form, and an uninstall is still heard.
      waiting(undefined, at);
      throw error;
    }
    place(setUp);
    log.info({ platform: settings.platformUrl }, 'workspace started');
    this.o.shares.nudge();
  };

  /**
   * A workspace without working settings: only its setup (the settings form, the setup Home, an answer
   * to every command), and uninstall. `problem`: why its saved settings do not work (in /readyz).
   */
  private setupOnly(
    team: string,
    install: WorkspaceInstall,
    log: Logger,
    problem?: string,
    settingsAt?: number,
  ): Workspace {
    const { config } = this.o;
    const app = new App({
      token: install.botToken,
      receiver: handedReceiver,
      logger: boltLogger(log),
      convoStore: false,
      ...(botIdentityOf(install) ?? {}),
      ...(config.slack.apiUrl ? { clientOptions: { slackApiUrl: config.slack.apiUrl } } : {}),
    });
    // The instance forgets its own workspace, whatever team the event's body names.
    const forgetThis = (_named: string, at?: Date) => this.o.forget(team, at);
    installSurfaces(app, { logger: log, waitMs: () => 0 }, (on) => {
      registerSetupOnly(on, this.o.setup(team, install.teamName));
      registerAppUninstalled(on.listeners, { logger: log, forgetWorkspace: forgetThis });
      registerTokensRevoked(on.listeners, { logger: log, forgetWorkspace: forgetThis });
    });
    return {
      team,
      app,
      botToken: install.botToken,
      problem,
      ...(settingsAt === undefined ? {} : { settingsAt }),
      stop: async () => undefined,
    };
  }

  /** A set-up workspace: its whole confdesk, started (its jobs too, when its share is here). */
  private async setUp(
    team: string,
    install: WorkspaceInstall,
    settings: WorkspaceSettings,
    log: Logger,
  ): Promise<Workspace> {
    const { config, metrics, wakeChannel } = this.o;
    const storeOptions = workspaceStoreOptions(this.o.baseStore, team);
    const wsStore = await openWorkspaceStore(storeOptions).catch(failedAt('its store could not open'));
    // The workspace's own store keeps its platform account's grants and cached reads across restarts.
    const platform = workspacePlatform(config, settings, team, this.o.logger, wsStore);
    const webhook = settings.webhookSecret
      ? { secret: settings.webhookSecret, header: webhookHeaderOf(config) }
      : undefined;
    const confdesk = createConfdesk({
      slack: {
        botToken: install.botToken,
        signingSecret: config.slack.signingSecret as string,
        apiUrl: config.slack.apiUrl,
        port: 0,
        receiver: handedReceiver,
        botIdentity: botIdentityOf(install),
        // Its admins' settings: `/conference admin settings`, Home's button, the form.
        setup: this.o.setup(team, install.teamName),
        doctor: () =>
          workspaceDoctor({ config, install, settings, platform, webhook, store: () => wsStore.inspect() }),
      },
      platform,
      store: wsStore,
      logger: log,
      webhook,
      // Fixed per app: the vendor's patterns (and its platform domains in the app's unfurl_domains).
      unfurlPatterns: compilePatterns(config.unfurls),
      reactions: config.reactions,
      // Its admins' choice in the settings (issue 39): cards, threads, unfurls, digests.
      channelLocale: settings.channelLanguage ?? 'en',
      workspace: team,
      ...(metrics ? { metrics: { registry: metrics } } : {}),
      jobs: this.o.jobs,
      distribution: {
        defaults: { serviceKey: settings.serviceKey, language: settings.language },
        rules: workspaceRules(settings.ticketCreators),
        forget: (_named: string, at?: Date) => this.o.forget(team, at),
      },
      ...(this.o.now ? { now: this.o.now } : {}),
      jobsWhenAsked: true,
      writesElsewhere: wakeChannel && ((wake) => wakeChannel.tell({ team, ...wake })),
    });
    try {
      await confdesk.start();
      if (this.o.shares.here(team)) await confdesk.jobs.runJobs(true);
    } catch (error) {
      await confdesk.stop().catch(() => undefined);
      await platform.close();
      await wsStore.close();
      throw new WorkspaceStartError('its jobs could not start', error);
    }
    return {
      team,
      app: confdesk.slack.app,
      botToken: install.botToken,
      settingsAt: settings.updatedAt.getTime(),
      confdesk,
      platform,
      store: wsStore,
      async stop(o) {
        // A job waiting for the platform's budget ends now, not at the deadline (see startConfdesk).
        platform.stopWaiting();
        const left = await confdesk.stop(o);
        await platform.close();
        await wsStore.close();
        return left;
      },
    };
  }
}

/**
 * A workspace's platform client. Its admin typed the address: only PLATFORM_HOSTS are reached on any
 * address.
 */
export const workspacePlatform = (
  config: Config,
  s: WorkspaceSettings,
  team: string,
  logger: Logger,
  memory?: MemoryStore,
): PlatformClient =>
  platformClientFor(config, {
    baseUrl: s.platformUrl,
    credentials: s.credentials,
    reach: { allowedHosts: platformHostsOf(config), operatorConfigured: false },
    logger: logger.child({ component: 'platform', team }),
    ...(memory ? { memory } : {}),
  });

/** PLATFORM_HOSTS: the hosts a workspace's platform may be on whatever their address. */
export const platformHostsOf = (config: Config): readonly string[] =>
  config.distribution?.platformHosts ?? [];

/** The header the platform's webhooks carry a workspace's secret in. */
export const webhookHeaderOf = (config: Config): string => config.webhook?.header ?? 'X-Webhook-Secret';

/** `/conference admin doctor` in a workspace: the process's configuration with the workspace's settings. */
function workspaceDoctor(w: {
  config: Config;
  install: WorkspaceInstall;
  settings: WorkspaceSettings;
  platform: PlatformClient;
  webhook: Config['webhook'];
  store: DoctorContext['store'];
}): Promise<DoctorReport> {
  const { config, settings } = w;
  return runDoctor({
    config: {
      ...config,
      slack: { ...config.slack, botToken: w.install.botToken },
      platform: { ...config.platform, url: settings.platformUrl, credentials: settings.credentials },
      webhook: w.webhook,
    },
    platform: {
      baseUrl: settings.platformUrl,
      credentials: settings.credentials,
      simulator: false,
      findings: w.platform.findings,
      budget: w.platform.budget,
    },
    store: w.store,
  });
}

/** A workspace's app has no server: the process's receiver hands it its requests. */
const handedReceiver: Receiver = {
  init: () => undefined,
  start: async () => undefined,
  stop: async () => undefined,
};

const botIdentityOf = (i: WorkspaceInstall) =>
  i.botId && i.botUserId ? { botId: i.botId, botUserId: i.botUserId } : undefined;

const failedAt =
  (stage: string) =>
  (cause: unknown): never => {
    throw new WorkspaceStartError(stage, cause);
  };
