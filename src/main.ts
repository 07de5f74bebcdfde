import { existsSync } from 'node:fs';
import { createConfdesk } from './confdesk.js';
import { ConfigError, loadConfig, missingSlackSettings } from './config/config.js';
import { runDoctor } from './doctor/doctor.js';
import { createLogger, type Logger } from './observability/logger.js';
import { createPlatformClient } from './platform/client.js';
import type { Simulator } from './sim/server.js';
import { checkPlatform, checkSlack, storeProblem } from './startup/checks.js';
import { PlatformReadiness, Readiness } from './startup/readiness.js';
import { describeSimAccounts, provideSimAccounts } from './startup/sim-accounts.js';
import { openStore, type Store } from './store/store.js';

/**
 * The composition root: config → logger → start-up checks (Slack's auth.test, the store: fatal with
 * one sentence naming the fix) → platform (the built-in simulator when no PLATFORM_URL is set) and
 * its check (not fatal: /readyz says why, re-checked every minute) → Slack app → simulator accounts
 * for the workspace's people → background jobs (poller, delivery) → graceful shutdown on SIGINT/SIGTERM.
 */
async function main() {
  // A .env beside package.json is read when present (Node's own loader); the environment wins.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
      process.exit(1);
    }
    throw error;
  }
  const missing = missingSlackSettings(config);
  if (missing.length) {
    console.error(
      `confdesk needs its Slack credentials to start. Missing:\n${missing.map((m) => `  - ${m}`).join('\n')}\n` +
        'Put them in .env (see .env.example); the README explains the three values to copy.',
    );
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const botToken = config.slack.botToken as string;

  // Slack and the store are the bot's own: if either is wrong, nothing can work, so stop and say why.
  const slackCheck = await checkSlack({ token: botToken, apiUrl: config.slack.apiUrl });
  if (!slackCheck.ok) return fatal(logger, slackCheck.problem);
  const { team, teamId, botId, botUserId } = slackCheck.info;
  logger.info({ team, teamId, botUserId }, 'Slack accepted the bot token (auth.test)');

  let store: Store;
  try {
    store = await openStore({
      databaseUrl: config.store.databaseUrl,
      dataDir: config.store.dataDir,
      ...(config.store.schema ? { schema: config.store.schema } : {}),
    });
  } catch (error) {
    return fatal(logger, storeProblem(error, config.store), error);
  }
  logger.info(
    { backend: store.backend, ...(store.backend === 'sqlite' ? { dataDir: config.store.dataDir } : {}) },
    store.backend === 'sqlite' ? 'store: embedded SQLite file' : 'store: PostgreSQL',
  );

  let sim: Simulator | undefined;
  let baseUrl = config.platform.url;
  let credentials = config.platform.credentials;
  if (!baseUrl || !credentials) {
    // Loaded only when used: a production start with PLATFORM_URL never loads the simulator.
    const { createSimulator } = await import('./sim/server.js');
    sim = await createSimulator({ rateLimit: config.platform.rateLimitPerMinute, activityEveryMs: 60_000 });
    baseUrl = sim.url;
    credentials = { kind: 'token', token: sim.adminToken };
    logger.info(
      { url: sim.url },
      'PLATFORM_URL is not set: started the built-in platform simulator with demo data (npm run sim runs it alone)',
    );
  }

  const platform = createPlatformClient({
    baseUrl,
    credentials,
    rateLimitPerMinute: config.platform.rateLimitPerMinute,
    timeouts: config.platform.timeouts,
    logger: logger.child({ component: 'platform' }),
  });
  // The platform is a remote service that may come back: a failed check is logged, /readyz answers
  // 503 with the reason, and the check is repeated once a minute until it passes.
  const checkOptions = { url: config.platform.url, credentials: credentials.kind };
  const platformCheck = await checkPlatform(platform, checkOptions);
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
      port: config.slack.port,
      readiness: () => readiness.report(),
      ...(botId && botUserId ? { botIdentity: { botId, botUserId } } : {}),
      doctor: () => runDoctor({ config, platform: doctorPlatform, store: () => store.inspect() }),
    },
    platform,
    store,
    logger,
    webhook: config.webhook,
    jobs: { pollIntervalMs: config.pollIntervalS * 1000 },
  });
  const { slack } = confdesk;
  // Ready: the platform answers and takes our credentials, Slack reaches us, the store is migrated
  // (openStore applied the migrations above, or the bot would have stopped).
  const readiness = new Readiness()
    .add('platform', () => platformReady.state())
    .add('slack', () => slack.connection())
    .add('store', () => ({ ok: true }));
  if (sim) {
    const accounts = await provideSimAccounts({ slack: slack.app.client, sim, config: config.simAccounts });
    for (const problem of accounts.problems) logger.warn({}, problem);
    logger.info({ created: accounts.created.length }, describeSimAccounts(accounts, config.simAccounts));
  } else if (config.simAccounts.given)
    logger.warn({}, 'SIM_ACCOUNTS: ignored with PLATFORM_URL set (it is for the built-in simulator only)');
  const port = await confdesk.start();
  logger.info(
    { port, mode: config.slack.appToken ? 'socket' : 'http' },
    config.slack.appToken
      ? `connected to Slack in Socket Mode; health routes on port ${port}`
      : `Slack app listening on port ${port} (POST /slack/events)`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    platformReady.stop();
    await confdesk.stop();
    await platform.close();
    await store.close();
    await sim?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Stops the start with the sentence that names the fix. The stack, useless to an operator, is
 * logged only at debug level (LOG_LEVEL=debug).
 */
function fatal(logger: Logger, problem: string, error?: unknown): never {
  if (error) logger.debug({ err: error }, 'start-up failure, details');
  logger.fatal({}, `confdesk cannot start: ${problem}`);
  // The same sentence in plain text, as the configuration's problems are: a person reads this one.
  console.error(`confdesk cannot start: ${problem}`);
  process.exit(1);
}

main().catch((error: Error & { code?: string; port?: number }) => {
  const sentence =
    error.code === 'EADDRINUSE'
      ? `PORT: port ${error.port ?? ''} is already in use: stop the other process or set another PORT`
      : `confdesk stopped: ${error.message}`;
  console.error(sentence);
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '')) console.error(error.stack);
  process.exit(1);
});
