import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, missingSlackSettings } from './config/config.js';
import { runDoctor } from './doctor/doctor.js';
import { startJobs } from './jobs/start-jobs.js';
import { webhookHandler } from './jobs/webhook-receiver.js';
import { createLogger } from './observability/logger.js';
import { createPlatformClient } from './platform/client.js';
import { PlatformError } from './platform/errors.js';
import { createSimulator, type Simulator } from './sim/server.js';
import { createSlackApp } from './slack/app.js';
import { openStore } from './store/store.js';

/**
 * The composition root: config → logger → platform (the built-in simulator when no PLATFORM_URL is
 * set) → platform client → store → Slack app → background jobs (poller, delivery) → graceful
 * shutdown on SIGINT/SIGTERM.
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

  let sim: Simulator | undefined;
  let baseUrl = config.platform.url;
  let credentials = config.platform.credentials;
  if (!baseUrl || !credentials) {
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
  try {
    const me = await platform.getMe();
    logger.info(
      { user: me.username, enterpriseId: me.enterprise_id, platform: baseUrl },
      'connected to the video platform',
    );
  } catch (error) {
    const message = error instanceof PlatformError ? error.userMessage : (error as Error).message;
    logger.error({ platform: baseUrl, err: error }, `cannot reach the video platform: ${message}`);
  }

  const store = await openStore({
    databaseUrl: config.store.databaseUrl,
    dataDir: config.store.dataDir,
    ...(config.store.schema ? { schema: config.store.schema } : {}),
  });
  logger.info(
    { backend: store.backend, ...(store.backend === 'sqlite' ? { dataDir: config.store.dataDir } : {}) },
    store.backend === 'sqlite' ? 'store: embedded SQLite file' : 'store: PostgreSQL',
  );

  // Webhooks ask the poller (started below) to look at one ticket at once.
  let jobs: ReturnType<typeof startJobs> | undefined;
  const webhook = config.webhook;
  const routes = webhook
    ? [
        {
          path: '/webhooks/platform',
          method: ['POST'],
          handler: webhookHandler({
            ...webhook,
            logger: logger.child({ component: 'webhooks' }),
            onTicket: async (id) => jobs?.onWebhook(id),
            store,
            findings: platform.findings,
          }),
        },
      ]
    : [];

  const doctorPlatform = {
    baseUrl,
    credentials,
    simulator: sim !== undefined,
    findings: platform.findings,
    budget: platform.budget,
  };
  const slack = createSlackApp({
    botToken: config.slack.botToken as string,
    signingSecret: config.slack.signingSecret as string,
    appToken: config.slack.appToken,
    apiUrl: config.slack.apiUrl,
    port: config.slack.port,
    logger,
    platform,
    store,
    routes,
    doctor: () => runDoctor({ config, platform: doctorPlatform, store: () => store.inspect() }),
  });
  const port = await slack.start();
  jobs = startJobs({
    platform,
    store,
    tickets: slack.tickets,
    access: slack.access,
    logger,
    slack: { token: config.slack.botToken as string, apiUrl: config.slack.apiUrl },
    pollIntervalMs: config.pollIntervalS * 1000,
  });
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
    await slack.stop();
    await jobs?.stop();
    await platform.close();
    await store.close();
    await sim?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
