import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, simulatorByName } from '../config/config.js';
import { SlackDouble } from '../dev/slack-double.js';
import { readManifest } from '../doctor/manifest.js';
import { describeBacklog } from '../domain/ticket-feed.js';
import type { Logger } from '../observability/logger.js';
import { type RunningConfdesk, startConfdesk } from '../start.js';
import { bundlePage, type DevTools, loadDevTools } from './bundle.js';
import { addDemoPeople } from './people.js';
import { PlatformSide } from './platform-side.js';
import { ChangeFeed, type PageServer, startPageServer } from './server.js';
import { SlackSide } from './slack-side.js';

/** The running playground: the page's URL, its local Slack, the bot, and how to stop them all. */
export interface Playground {
  url: string;
  slack: SlackDouble;
  bot: RunningConfdesk;
  stop(): Promise<void>;
}

/** The local Slack: the double as a real loopback server, with the demo people and channels. */
export async function preparePlayground(): Promise<SlackDouble> {
  const slack = await new SlackDouble().start();
  addDemoPeople(slack);
  // The simulator's links (its join links, the patterns below) are on loopback: unfurl domains here.
  slack.unfurlDomains = [...slack.unfurlDomains, '127.0.0.1', 'localhost'];
  return slack;
}

/**
 * The playground's configuration: the environment's, with Slack's side pointed at the double (a
 * random signing secret, HTTP mode on a free loopback port), the built-in simulator unless
 * PLATFORM_URL names a platform, people mapped by their e-mails only (SIM_ACCOUNTS off), a webhook
 * secret so the simulator's webhooks reach the bot, and a fresh embedded store: the double and the
 * simulator live in memory, so a kept store would point at cards that are gone. With the built-in
 * simulator, its rate limit is lifted to 600 a minute (unless PLATFORM_RATE_LIMIT says otherwise) so
 * that clicking around never waits on the budget.
 */
function playgroundEnv(env: Record<string, string | undefined>, slack: SlackDouble, dataDir: string) {
  // The playground is where the simulator runs without being named: its demo data is the point.
  const platformUrl = env.PLATFORM_URL?.trim() || simulatorByName;
  return {
    ...env,
    SLACK_BOT_TOKEN: 'xoxb-playground',
    SLACK_SIGNING_SECRET: randomBytes(16).toString('hex'),
    SLACK_APP_TOKEN: '',
    SLACK_API_URL: slack.apiUrl,
    PLATFORM_URL: platformUrl,
    PORT: '0',
    // The bot's own port takes the page's signed requests only: loopback, whatever HOST says.
    HOST: '127.0.0.1',
    SIM_ACCOUNTS: 'off',
    PLATFORM_WEBHOOK_SECRET: env.PLATFORM_WEBHOOK_SECRET || randomBytes(16).toString('hex'),
    PLATFORM_RATE_LIMIT: env.PLATFORM_RATE_LIMIT || (platformUrl === simulatorByName ? '600' : undefined),
    DATABASE_URL: '',
    DATABASE_SCHEMA: '',
    DATA_DIR: dataDir,
    // Link previews of the simulator's (made-up) pages, unless the environment names its own.
    ...(platformUrl === simulatorByName
      ? {
          UNFURL_TICKET_PATTERN: env.UNFURL_TICKET_PATTERN || playgroundPatterns.ticket,
          UNFURL_CONFERENCE_PATTERN: env.UNFURL_CONFERENCE_PATTERN || playgroundPatterns.conference,
          UNFURL_MEDIA_PATTERN: env.UNFURL_MEDIA_PATTERN || playgroundPatterns.media,
        }
      : {}),
  };
}

/**
 * The playground's link patterns: the simulator publishes no pages, so these made-up addresses on
 * loopback stand for them (`http://127.0.0.1:<any port>/desk/tickets/<id>`…); a join link of the
 * simulator unfurls without one.
 */
export const playgroundPatterns = {
  ticket: '^https?://(?:127\\.0\\.0\\.1|localhost)(?::\\d+)?/desk/tickets/(\\d+)',
  conference: '^https?://(?:127\\.0\\.0\\.1|localhost)(?::\\d+)?/desk/conferences/(\\d+)',
  media: '^https?://(?:127\\.0\\.0\\.1|localhost)(?::\\d+)?/desk/media/(\\d+)',
};

/**
 * The page side, once the bot runs: webhooks from the simulator to the bot (on by default, so a
 * platform-side change reaches the thread at once), the page bundled in memory, and its server.
 */
export async function startPlayground(o: {
  slack: SlackDouble;
  bot: RunningConfdesk;
  signingSecret: string;
  webhook: { secret: string; header: string } | undefined;
  port: number;
  tools: DevTools;
  logger: Logger;
}): Promise<PageServer> {
  const botUrl = `http://127.0.0.1:${o.bot.port}`;
  const sim = o.bot.sim;
  const platform = sim
    ? new PlatformSide({
        simUrl: sim.url,
        adminToken: sim.adminToken,
        webhook: o.webhook && { url: `${botUrl}/webhooks/platform`, ...o.webhook },
        backlog: () => {
          const b = o.bot.confdesk.jobs.running()?.lastBacklog();
          return b && describeBacklog(b);
        },
      })
    : undefined;
  await platform?.webhooks(true);
  const manifest = readManifest();
  const bundle = await bundlePage(o.tools.esbuild);
  if (!bundle.ok)
    o.logger.error({ problem: bundle.problem }, 'playground: the page could not be built (/ says why)');
  const feed = new ChangeFeed();
  o.slack.onChange(() => feed.bump());
  const side = new SlackSide({
    slack: o.slack,
    botUrl,
    signingSecret: o.signingSecret,
    onNotice: () => feed.bump(),
  });
  return startPageServer({
    port: o.port,
    slack: o.slack,
    side,
    platform,
    shortcuts: manifest.shortcuts,
    commands: manifest.commands,
    bundle,
    feed,
    logger: o.logger.child({ component: 'playground' }),
  });
}

/**
 * What `npm start` does without Slack credentials (and `npm run playground` always): the local Slack,
 * then the bot through the same start path as with Slack itself (`startConfdesk`), then the page on
 * `port` (127.0.0.1 only). Throws a StartupError naming the fix when it cannot.
 */
export async function runPlayground(o: {
  env: Record<string, string | undefined>;
  port: number;
  logger: Logger;
}): Promise<Playground> {
  const tools = await loadDevTools();
  const slack = await preparePlayground();
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-playground-'));
  const cleanUp = async () => {
    await slack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const config = loadConfig(playgroundEnv(o.env, slack, dataDir));
  let bot: RunningConfdesk;
  try {
    bot = await startConfdesk(config, o.logger);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  let page: PageServer;
  try {
    page = await startPlayground({
      slack,
      bot,
      signingSecret: config.slack.signingSecret as string,
      webhook: config.webhook,
      port: o.port,
      tools,
      logger: o.logger,
    });
  } catch (error) {
    await bot.stop();
    await cleanUp();
    throw error;
  }
  return {
    url: page.url,
    slack,
    bot,
    async stop() {
      await page.close();
      await bot.stop();
      await cleanUp();
    },
  };
}
