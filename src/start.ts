import { type Confdesk, createConfdesk } from './confdesk.js';
import { type Config, platformMissing, simulatorByName } from './config/config.js';
import { runDoctor } from './doctor/doctor.js';
import { describeBacklog } from './domain/ticket-feed.js';
import { compilePatterns } from './domain/unfurl-links.js';
import type { LeftForNextStart } from './jobs/shutdown.js';
import type { Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { PlatformReadiness, Readiness } from './observability/readiness.js';
import { version } from './observability/version.js';
import type { PlatformClient } from './platform/client.js';
import type { Simulator } from './sim/server.js';
import { checkPlatform, checkSlack, type SlackIdentity } from './startup/checks.js';
import { openConfiguredStore, storeReadiness } from './startup/configured-store.js';
import { platformClientFor } from './startup/platform-client.js';
import { useProxy } from './startup/proxy.js';
import { describeSimAccounts, provideSimAccounts } from './startup/sim-accounts.js';
import { StartupError } from './startup/startup-error.js';
import { retryDelayMs, serveWhileWaiting } from './startup/waiting.js';
import type { Store } from './store/store.js';

/** The running bot and what it started, for whoever stops it. */
export interface RunningConfdesk {
  confdesk: Confdesk;
  /** The HTTP port (POST /slack/events in HTTP mode; health routes in both modes). */
  port: number;
  platform: PlatformClient;
  store: Store;
  /** The built-in simulator, when no PLATFORM_URL is set. */
  sim: Simulator | undefined;
  /**
   * Stops the app and the jobs (what is in flight may finish until `deadline`, epoch ms), then the
   * platform client, the store and the simulator; resolves with what was left for the next start.
   */
  stop(o?: { deadline?: number }): Promise<LeftForNextStart>;
}

/**
 * The one start path, for Slack itself and for the playground's local Slack alike: start-up checks
 * (Slack's auth.test, the store: a StartupError naming the fix) → platform (the built-in simulator
 * when no PLATFORM_URL is set) and its check (not fatal: /readyz says why, re-checked every minute) →
 * Slack app → simulator accounts for the workspace's people → background jobs.
 */
export async function startConfdesk(config: Config, logger: Logger): Promise<RunningConfdesk> {
  useProxy(config, logger);
  const botToken = config.slack.botToken as string;
  // Demo data reaches a workspace only when asked for by name (main.ts says so before; this is the
  // start path's own guard, for every caller).
  if (!config.platform.simulator && (!config.platform.url || !config.platform.credentials))
    throw new StartupError(platformMissing);

  // Slack and the store are the bot's own: if either is wrong, nothing can work, so stop and say why.
  // Slack that does not answer yet is waited for (with /healthz served), not a reason to stop.
  const { info, waitedOn } = await slackIdentity(config, botToken, logger);
  const { team, teamId, botId, botUserId } = info;
  logger.info({ team, teamId, botUserId }, 'Slack accepted the bot token (auth.test)');

  const store = await openConfiguredStore(config);
  logger.info(
    { backend: store.backend, ...(store.backend === 'sqlite' ? { dataDir: config.store.dataDir } : {}) },
    store.backend === 'sqlite' ? 'store: embedded SQLite file' : 'store: PostgreSQL',
  );

  let sim: Simulator | undefined;
  let baseUrl = config.platform.url;
  let credentials = config.platform.credentials;
  if (config.platform.simulator || !baseUrl || !credentials) {
    // Loaded only when used: a production start with PLATFORM_URL never loads the simulator.
    const { createSimulator } = await import('./sim/server.js');
    sim = await createSimulator({ rateLimit: config.platform.rateLimitPerMinute, activityEveryMs: 60_000 });
    baseUrl = sim.url;
    credentials = { kind: 'token', token: sim.adminToken };
    logger.info(
      { url: sim.url },
      `PLATFORM_URL=${simulatorByName}: started the built-in platform simulator with demo data (npm run sim runs it alone)`,
    );
  }

  const platform = platformClientFor(config, {
    baseUrl,
    credentials,
    simulator: sim !== undefined,
    logger: logger.child({ component: 'platform' }),
    // The platform counts the previous process's requests in its window too: start from them, and
    // from the reads it cached (a person's first request after a restart costs what it did before).
    memory: store,
  });
  // The platform is a remote service that may come back: a failed check is logged, /readyz answers
  // 503 with the reason, and the check is repeated once a minute until it passes.
  const checkOptions = { url: config.platform.url, credentials: credentials.kind };
  // Not held for the budget: a start inside a window the previous process spent must not wait for it.
  const platformCheck = await checkPlatform(platform, { ...checkOptions, maxWaitMs: 2_000 });
  if (platformCheck.ok)
    logger.info(
      { user: platformCheck.info.username, enterpriseId: platformCheck.info.enterpriseId, platform: baseUrl },
      'connected to the video platform',
    );
  else logger.error({ platform: baseUrl }, platformCheck.problem);
  const platformReady = new PlatformReadiness(
    platform,
    () => checkPlatform(platform, { ...checkOptions, priority: 'background' }),
    logger.child({ component: 'readiness' }),
  );
  platformReady.record(platformCheck);
  platformReady.start();

  const doctorPlatform = {
    baseUrl,
    credentials,
    simulator: sim !== undefined,
    findings: platform.findings,
    budget: platform.budget,
  };
  const confdesk = createConfdesk({
    slack: {
      botToken,
      signingSecret: config.slack.signingSecret as string,
      appToken: config.slack.appToken,
      apiUrl: config.slack.apiUrl,
      proxy: config.proxy,
      // The port the wait for Slack listened on (PORT=0 got one): the same for the app's server.
      port: waitedOn ?? config.slack.port,
      host: config.slack.host,
      readiness: () => readiness.report(),
      ...(botId && botUserId ? { botIdentity: { botId, botUserId } } : {}),
      doctor: () => runDoctor({ config, platform: doctorPlatform, store: () => store.inspect() }),
    },
    platform,
    store,
    logger,
    webhook: config.webhook,
    unfurlPatterns: compilePatterns(config.unfurls),
    reactions: config.reactions,
    channelLocale: config.channelLanguage,
    jobs: { pollIntervalMs: config.pollIntervalS * 1000, reminderScanMs: config.reminderIntervalS * 1000 },
    // Off by default: no registry, nothing counted. METRICS_TOKEN (or METRICS=on) serves GET /metrics.
    workspace: teamId,
    metrics: config.metrics && { registry: new Metrics(), route: config.metrics },
  });
  const { slack } = confdesk;
  // Ready: the platform answers and takes our credentials, Slack reaches us, the store is migrated
  // (openStore applied the migrations above, or the start would have stopped) and still answers.
  const storeReady = storeReadiness(store, config, logger);
  const readiness = new Readiness()
    .add('platform', () => platformReady.state())
    .add('slack', () => {
      const refused = confdesk.slackAccess.problem();
      return refused ? { ok: false, problem: refused } : slack.connection();
    })
    .add('store', () => storeReady.state())
    // A backlog is not a fault (nothing is lost, cards stay current): said, never "not ready".
    .add('ticket events', () => {
      const b = confdesk.jobs.running()?.lastBacklog();
      return b ? { ok: true, detail: describeBacklog(b) } : { ok: true };
    });
  if (sim) {
    const accounts = await provideSimAccounts({ slack: slack.app.client, sim, config: config.simAccounts });
    for (const problem of accounts.problems) logger.warn({}, problem);
    logger.info({ created: accounts.created.length }, describeSimAccounts(accounts, config.simAccounts));
  } else if (config.simAccounts.given)
    logger.warn({}, 'SIM_ACCOUNTS: ignored with PLATFORM_URL set (it is for the built-in simulator only)');
  const port = await confdesk.start().catch((error: unknown) => {
    throw listenProblem(error, config) ?? error;
  });
  logger.info(
    { port, mode: config.slack.appToken ? 'socket' : 'http', version },
    config.slack.appToken
      ? `connected to Slack in Socket Mode; health routes on port ${port}`
      : `Slack app listening on port ${port} (POST /slack/events)`,
  );

  return {
    confdesk,
    port,
    platform,
    store,
    sim,
    async stop(o) {
      platformReady.stop();
      storeReady.stop();
      // Before the work in flight is waited for: a job waiting for the platform's budget (minutes at
      // 10 requests a minute) ends now, not at the deadline (requests already sent still finish).
      platform.stopWaiting();
      const left = await confdesk.stop(o);
      await platform.close();
      await store.close();
      await sim?.close();
      return left;
    },
  };
}

/**
 * Slack's `auth.test`, tried until Slack answers. A refusal (a wrong or revoked token, a wrong
 * SLACK_API_URL) stops the start with its sentence. No answer (DNS, network, Slack's 5xx) is waited
 * out: `/healthz` answers 200 meanwhile and `/readyz` 503 with the reason, and the check is tried
 * again after 1 s, 2 s, 4 s… (at most 30 s apart), so a supervisor sees a live process that is not
 * ready instead of a restart loop. `waitedOn`: the port that served meanwhile.
 */
async function slackIdentity(
  config: Config,
  token: string,
  logger: Logger,
): Promise<{ info: SlackIdentity; waitedOn: number | undefined }> {
  const check = () => checkSlack({ token, apiUrl: config.slack.apiUrl });
  let result = await check();
  if (result.ok) return { info: result.info, waitedOn: undefined };
  // A refusal comes back the same each time: stop now, with its sentence.
  if (!result.transient) throw new StartupError(result.problem);
  let problem = result.problem;
  let nextAt = 0;
  const said = () =>
    `slack: ${problem}; confdesk tries again${nextAt > Date.now() ? ` in ${Math.ceil((nextAt - Date.now()) / 1000)} s` : ' now'}`;
  const waiting = await serveWhileWaiting({
    port: config.slack.port,
    host: config.slack.host,
    problem: said,
  }).catch((error: unknown) => {
    throw listenProblem(error, config) ?? error;
  });
  let tries = 1;
  try {
    while (!result.ok) {
      if (!result.transient) throw new StartupError(result.problem);
      problem = result.problem;
      const delay = retryDelayMs(tries);
      nextAt = Date.now() + delay;
      logger.warn(
        { tries, retryInS: Math.round(delay / 100) / 10, port: waiting.port },
        `${said()}; /healthz answers, /readyz is 503 until Slack answers`,
      );
      await new Promise((r) => setTimeout(r, delay));
      tries++;
      result = await check();
    }
    logger.info({ tries }, `Slack answered auth.test at try ${tries}`);
    return { info: result.info, waitedOn: waiting.port };
  } finally {
    await waiting.close();
  }
}

/** The sentence for a port the HTTP server cannot take (in use, an address HOST does not have). */
function listenProblem(error: unknown, config: Config): StartupError | undefined {
  const e = error as { code?: string; port?: number } | undefined;
  const where = `${config.slack.host ?? 'every interface'} port ${e?.port ?? config.slack.port}`;
  if (e?.code === 'EADDRINUSE')
    return new StartupError(
      `PORT: port ${e.port ?? config.slack.port} is already in use: stop the other process or set another PORT`,
      error,
    );
  if (e?.code === 'EADDRNOTAVAIL' || e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN')
    return new StartupError(
      `HOST: cannot listen on ${where} (${e.code}): set HOST to an address of this host (127.0.0.1, 0.0.0.0, ::) or unset it`,
      error,
    );
  if (e?.code === 'EACCES')
    return new StartupError(
      `PORT: not allowed to listen on ${where} (EACCES): ports below 1024 need privileges; set a PORT above 1023`,
      error,
    );
  return undefined;
}
