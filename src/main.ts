import { ConfigError, loadConfig } from './config/config.js';
import { createLogger } from './observability/logger.js';
import { createPlatformClient } from './platform/client.js';
import { PlatformError } from './platform/errors.js';
import { createSimulator, type Simulator } from './sim/server.js';

/**
 * The composition root: config → logger → platform (the built-in simulator when no PLATFORM_URL is
 * set) → platform client → graceful shutdown. The Slack app and the jobs plug in here.
 */
async function main() {
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

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await platform.close();
    await sim?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Keeps the process alive until a signal (the Slack receiver will hold it open once it exists).
  setInterval(() => {}, 1 << 30);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
