import { existsSync } from 'node:fs';
import { type Config, ConfigError, loadConfig, startMode } from './config/config.js';
import { describeLeft, type LeftForNextStart } from './jobs/shutdown.js';
import { installLastResort } from './observability/last-resort.js';
import { createLogger, type Logger, prettyDestination } from './observability/logger.js';
import { startConfdesk } from './start.js';
import { StartupError } from './startup/startup-error.js';

/**
 * The composition root: config → logger → the start path (`start.ts`: checks, store,
 * platform, Slack app, jobs) → graceful shutdown on SIGINT/SIGTERM. Without Slack credentials, or
 * with `--playground` (`npm run playground`), the same start path runs against a local Slack: the
 * playground, loaded only then.
 */
async function main() {
  // A .env beside package.json is read when present (Node's own loader); the environment wins.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(
    config.logLevel,
    config.logFormat === 'pretty' ? prettyDestination() : undefined,
  );
  // What no handler caught: logged and counted; a rejection leaves the bot up, a throw stops it for
  // its supervisor (gracefully once started). The policy and its reasons: observability/last-resort.ts.
  let stopFor: ((reason: string, code: number) => Promise<void>) | undefined;
  installLastResort({
    logger,
    stop: (kind) => (stopFor ? void stopFor(kind, 1) : process.exit(1)),
  });
  const mode = startMode(config, { playground: process.argv.includes('--playground') });
  if (mode.kind === 'refused') {
    // A half configuration never falls back to the playground or the simulator: it names what is missing.
    console.error(
      `confdesk cannot start:\n${mode.problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example for every variable and its meaning.`,
    );
    process.exit(1);
  }
  let running: { stop(o: { deadline: number }): Promise<LeftForNextStart | undefined> };
  try {
    running =
      mode.kind === 'distribution'
        ? await startDistribution(config, logger)
        : mode.kind === 'playground'
          ? await startPlaygroundFrom(config, logger, !mode.asked)
          : await startConfdesk(config, logger);
  } catch (error) {
    if (error instanceof StartupError) return fatal(logger, error.problem, error.details);
    throw error;
  }

  let stopping = false;
  const shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const boundMs = config.shutdownTimeoutS * 1000;
    logger.info({ signal, timeoutS: config.shutdownTimeoutS }, 'shutting down');
    // Work in flight gets SHUTDOWN_TIMEOUT_S; closing the clients and the store a few seconds more.
    setTimeout(() => {
      logger.error({}, 'shutdown: closing took too long; exiting (the next start takes over)');
      process.exit(1);
    }, boundMs + 5_000).unref();
    const left = await running.stop({ deadline: started + boundMs });
    if (left) logger.info(left, describeLeft(left, Math.round((Date.now() - started) / 100) / 10));
    process.exit(code);
  };
  stopFor = shutdown;
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** Distribution mode (SLACK_CLIENT_ID…): loaded only then. */
async function startDistribution(config: Config, logger: Logger) {
  const { startWorkspaces } = await import('./distribution/start.js');
  return startWorkspaces(config, logger);
}

/**
 * Starts the playground: loaded only here, so a production start never loads it nor its
 * development dependencies (esbuild bundles the page).
 */
async function startPlaygroundFrom(
  config: Config,
  logger: Logger,
  noCredentials: boolean,
): Promise<{ stop(): Promise<undefined> }> {
  const { runPlayground } = await import('./playground/start.js');
  const playground = await runPlayground({ env: process.env, port: config.slack.port, logger });
  logger.info({ url: playground.url }, 'playground started');
  // Said plainly, for the person who ran `npm start` (the JSON log lines are for machines).
  console.log(
    noCredentials
      ? `Playground: open ${playground.url} — no Slack credentials are set, so confdesk runs against a local Slack (set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET to connect to Slack, with PLATFORM_URL and its credentials)`
      : `Playground: open ${playground.url} — started with --playground, so confdesk runs against a local Slack (npm start connects to Slack with your credentials)`,
  );
  // It keeps nothing between runs: nothing is left for a next start.
  return { stop: async () => void (await playground.stop()) };
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
