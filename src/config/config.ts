import { existsSync } from 'node:fs';
import { z } from 'zod';

/** Reads a positive integer from an environment string, with a default when the variable is unset. */
const intFromEnv = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: 'expected a whole number' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalUrl = optionalString.pipe(
  z
    .url({ protocol: /^https?$/, message: 'expected an http(s) URL such as https://cloud.apizee.com' })
    .optional(),
);

/**
 * A link pattern for unfurls: a regular expression with the object's id as its first capture group
 * (or one named `id`). Checked here so that a pattern that does not compile, or captures nothing, is
 * told at start with the other problems.
 */
const linkPattern = optionalString.pipe(
  z
    .string()
    .max(500)
    .refine((v) => {
      try {
        return new RegExp(`${v}|`).exec('')?.length !== 1;
      } catch {
        return false;
      }
    }, 'expected a regular expression with the id as a capture group, such as ^https://desk\\.example\\.com/tickets/(\\d+)')
    .optional(),
);

/** An emoji's name as Slack writes it in a reaction (`eyes`), from `eyes` or `:eyes:`, with a default. */
const emojiFromEnv = (fallback: string) =>
  optionalString
    .transform((v) => v?.replace(/^:/, '').replace(/:$/, '').toLowerCase())
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9_+'-]{1,100}$/, "expected an emoji's name, such as ticket or :eyes:")
        .optional(),
    )
    .transform((v) => v ?? fallback);

/** PLATFORM_URL's value that asks for the built-in simulator by name (never what an unset one means). */
export const simulatorByName = 'simulator';

/** A 32-byte key: 64 hex digits, or base64 (`openssl rand -base64 32`). */
const encryptionKey = z
  .string()
  .regex(
    /^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/,
    'expected 32 random bytes as 64 hex digits or base64: openssl rand -base64 32',
  )
  .optional();

/**
 * The one schema for the whole environment. Every variable the bot reads is here, with its default;
 * `.env.example` documents each of them.
 */
export const envSchema = z.object({
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** `json` (default: one JSON object a line, for a log collector) or `pretty` (for a terminal). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  PLATFORM_URL: optionalString.pipe(
    z
      .union([
        z.literal(simulatorByName),
        z.url({
          protocol: /^https?$/,
          message: `expected an http(s) URL such as https://cloud.apizee.com, or ${simulatorByName} for the built-in simulator with demo data`,
        }),
      ])
      .optional(),
  ),
  PLATFORM_TOKEN: optionalString,
  PLATFORM_USERNAME: optionalString,
  PLATFORM_PASSWORD: optionalString,
  PLATFORM_RATE_LIMIT: intFromEnv(10, 1, 100_000),
  PLATFORM_CONNECT_TIMEOUT_MS: intFromEnv(5_000, 100),
  PLATFORM_HEADERS_TIMEOUT_MS: intFromEnv(15_000, 100),
  PLATFORM_BODY_TIMEOUT_MS: intFromEnv(30_000, 100),
  SLACK_BOT_TOKEN: optionalString.pipe(
    z.string().startsWith('xoxb-', 'expected a bot token starting with xoxb-').optional(),
  ),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_APP_TOKEN: optionalString.pipe(
    z.string().startsWith('xapp-', 'expected an app-level token starting with xapp-').optional(),
  ),
  SLACK_API_URL: optionalUrl,
  // Distribution mode (any workspace installs with "Add to Slack"): the app's OAuth credentials, a
  // secret for the install flow's state, the key sealing each workspace's secrets, the public URL.
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_STATE_SECRET: optionalString,
  CONFDESK_ENCRYPTION_KEY: optionalString.pipe(encryptionKey),
  CONFDESK_ENCRYPTION_KEY_PREVIOUS: optionalString.pipe(encryptionKey),
  PUBLIC_URL: optionalUrl,
  // Distribution mode: the platform hosts a workspace's settings may name (`cloud.example.com`,
  // `*.example.com`), comma separated. Unset: any https host whose addresses are public.
  PLATFORM_HOSTS: optionalString,
  // Distribution mode: the only workspaces that may install (Slack team ids, comma separated), for a
  // vendor who enables confdesk per customer. Unset: any workspace.
  SLACK_ALLOWED_TEAMS: optionalString,
  // A company's proxy for every outgoing request (Slack, the platform, response URLs, uploads); the
  // lower-case spellings are read too (curl's convention). NO_PROXY: hosts that go direct.
  HTTPS_PROXY: optionalUrl,
  https_proxy: optionalUrl,
  HTTP_PROXY: optionalUrl,
  http_proxy: optionalUrl,
  NO_PROXY: optionalString,
  no_proxy: optionalString,
  PORT: intFromEnv(3000, 0, 65_535),
  /** The address the HTTP server listens on; unset, every interface (as Node's default). */
  HOST: optionalString.pipe(
    z
      .string()
      .regex(
        /^([0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*|[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)$/,
        'expected an address to listen on, such as 127.0.0.1, 0.0.0.0, :: or localhost',
      )
      .optional(),
  ),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL (leave it unset for the embedded store)')
      .optional(),
  ),
  DATA_DIR: optionalString.transform((v) => v ?? './data'),
  DATABASE_SCHEMA: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'expected a schema name: lower-case letters, digits and _')
      .optional(),
  ),
  DATABASE_POOL_SIZE: intFromEnv(10, 1, 1_000),
  POLL_INTERVAL: intFromEnv(30, 5, 3_600),
  REMINDER_INTERVAL: intFromEnv(60, 0, 3_600),
  SHUTDOWN_TIMEOUT_S: intFromEnv(10, 1, 600),
  WORKSPACE_LEASE_S: intFromEnv(30, 3, 600),
  PLATFORM_WEBHOOK_SECRET: optionalString,
  PLATFORM_WEBHOOK_HEADER: optionalString.transform((v) => v ?? 'X-Webhook-Secret'),
  /** `on`: `GET /metrics` for anyone who reaches PORT; unset or `off`: no /metrics (unless METRICS_TOKEN). */
  METRICS: optionalString.pipe(z.enum(['on', 'off'], 'expected on or off').optional()),
  /** Set: `GET /metrics` answers only `Authorization: Bearer <this>` (the recommended way). */
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'expected at least 16 characters (e.g. from openssl rand -hex 32)').optional(),
  ),
  // Link unfurls: which pasted links are a ticket's, a conference's or a media's page (none by default:
  // the platform publishes no web addresses for them); the id is the pattern's capture group.
  UNFURL_TICKET_PATTERN: linkPattern,
  UNFURL_CONFERENCE_PATTERN: linkPattern,
  UNFURL_MEDIA_PATTERN: linkPattern,
  // The emoji of the channels' reactions (`/ticket follow reactions`): Slack's names, colons optional.
  REACTION_CREATE_TICKET: emojiFromEnv('ticket'),
  REACTION_TAKE: emojiFromEnv('eyes'),
  REACTION_DONE: emojiFromEnv('white_check_mark'),
  // The language of what channels see (cards, threads, unfurls) in single-workspace mode: en or fr.
  // Not `LANGUAGE`: gettext's variable of that name (`en_US:en`) is set on many machines.
  CHANNEL_LANGUAGE: optionalString.pipe(
    z.enum(['en', 'fr'], 'expected en (English, the default) or fr (French)').optional(),
  ),
  SIM_ACCOUNTS: optionalString.pipe(
    z
      .string()
      .regex(
        /^(off|[^\s=,]+@[^\s=,]+=[\w.-]+)(\s*,\s*(off|[^\s=,]+@[^\s=,]+=[\w.-]+))*$/i,
        'expected off, or e-mail=demo-account pairs separated by commas (alice@example.com=admin)',
      )
      .optional(),
  ),
});

/**
 * Rules across variables, checked on the raw values so that they are reported together with the
 * problems of single variables (a zod refinement would be skipped once any field fails).
 */
function crossProblems(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const problems: string[] = [];
  const hasToken = set('PLATFORM_TOKEN');
  const hasUser = set('PLATFORM_USERNAME');
  const hasPassword = set('PLATFORM_PASSWORD');
  if (hasToken && (hasUser || hasPassword)) {
    problems.push(
      'PLATFORM_TOKEN: set either PLATFORM_TOKEN or PLATFORM_USERNAME/PLATFORM_PASSWORD, not both',
    );
  }
  if (hasUser !== hasPassword) {
    problems.push(
      `${hasUser ? 'PLATFORM_PASSWORD' : 'PLATFORM_USERNAME'}: PLATFORM_USERNAME and PLATFORM_PASSWORD go together`,
    );
  }
  if (set('PLATFORM_URL') && env.PLATFORM_URL?.trim() !== simulatorByName && !hasToken && !hasUser) {
    problems.push(
      'PLATFORM_URL: a platform URL needs credentials: PLATFORM_TOKEN, or PLATFORM_USERNAME and PLATFORM_PASSWORD',
    );
  }
  const oauth = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  if (oauth.some(set)) {
    for (const name of oauth.filter((n) => !set(n)))
      problems.push(
        `${name}: distribution mode needs ${oauth.join(', ')} together (Basic Information → App Credentials; the state secret is any long random string)`,
      );
    if (!set('CONFDESK_ENCRYPTION_KEY'))
      problems.push(
        "CONFDESK_ENCRYPTION_KEY: distribution mode keeps each workspace's tokens and platform credentials encrypted: set a key (openssl rand -base64 32)",
      );
    if (!set('PUBLIC_URL'))
      problems.push(
        "PUBLIC_URL: distribution mode needs the bot's public https address (the OAuth redirect and each workspace's webhook URL start with it)",
      );
    if (set('SLACK_APP_TOKEN'))
      problems.push(
        "SLACK_APP_TOKEN: distribution mode runs in HTTP mode (Slack sends each workspace's requests to PUBLIC_URL/slack/events): unset SLACK_APP_TOKEN",
      );
    if (set('SLACK_BOT_TOKEN'))
      problems.push(
        "SLACK_BOT_TOKEN: in distribution mode each workspace's bot token comes from its installation: unset SLACK_BOT_TOKEN",
      );
    if (!set('SLACK_SIGNING_SECRET'))
      problems.push(
        "SLACK_SIGNING_SECRET: distribution mode verifies every request from Slack with the app's Signing Secret: set it (Basic Information → App Credentials → Signing Secret)",
      );
  }
  const allowed = (env.SLACK_ALLOWED_TEAMS ?? '').split(',').map((t) => t.trim());
  for (const team of allowed.filter((t) => t && !/^[A-Z0-9]{2,32}$/.test(t)))
    problems.push(
      `SLACK_ALLOWED_TEAMS: ${JSON.stringify(team.slice(0, 40))} is not a Slack team id (T followed by capitals and digits, as in the workspace's URL /client/T…)`,
    );
  if (set('SLACK_ALLOWED_TEAMS') && !oauth.some(set))
    problems.push(
      'SLACK_ALLOWED_TEAMS: only distribution mode installs workspaces: unset it, or set SLACK_CLIENT_ID…',
    );
  if (env.METRICS?.trim() === 'off' && set('METRICS_TOKEN'))
    problems.push('METRICS: off, but METRICS_TOKEN is set: unset METRICS_TOKEN, or METRICS');
  return problems;
}

/** How the bot authenticates to the platform. */
export type PlatformCredentials =
  | { kind: 'token'; token: string }
  | { kind: 'password'; username: string; password: string };

/** The validated configuration the composition root hands to every part. */
/** The proxy settings of the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`). */
export interface ProxySettings {
  httpsProxy?: string | undefined;
  httpProxy?: string | undefined;
  noProxy?: string | undefined;
}

export interface Config {
  logLevel: z.output<typeof envSchema>['LOG_LEVEL'];
  logFormat: z.output<typeof envSchema>['LOG_FORMAT'];
  platform: {
    /** Base URL of the platform; undefined with `simulator` (or unset: the playground only). */
    url: string | undefined;
    /** PLATFORM_URL=simulator: the built-in simulator with demo data, asked for by name. */
    simulator: boolean;
    credentials: PlatformCredentials | undefined;
    rateLimitPerMinute: number;
    timeouts: { connectMs: number; headersMs: number; bodyMs: number };
    /** PLATFORM_HOSTS: other hosts the platform's answers may send the bot to (its files' host). */
    hosts: string[];
  };
  slack: {
    botToken: string | undefined;
    signingSecret: string | undefined;
    /** Set: Socket Mode. Unset: HTTP mode on `port`. */
    appToken: string | undefined;
    /** Web API base URL (a Slack double in tests); undefined means Slack's own. */
    apiUrl: string | undefined;
    port: number;
    /** HOST: the address the HTTP server listens on; undefined, every interface. */
    host: string | undefined;
  };
  store: {
    /** A postgres:// URL selects PostgreSQL (several replicas); unset, the embedded store in `dataDir`. */
    databaseUrl: string | undefined;
    dataDir: string;
    /** PostgreSQL schema for confdesk's tables (created if missing); unset, the connection's default. */
    schema: string | undefined;
    /** PostgreSQL: connections of the process's one pool, shared by every workspace's store. */
    poolSize: number;
  };
  /** Seconds between change scans of the platform (the rate budget may stretch them). */
  pollIntervalS: number;
  /** Seconds between the conference reminders' reads of the conference list; 0: no reminders. */
  reminderIntervalS: number;
  /** Seconds a shutdown lets work in flight finish before releasing the rest for the next start. */
  shutdownTimeoutS: number;
  /**
   * Distribution mode on PostgreSQL: seconds a replica's share of a workspace (running its jobs) lasts
   * unless renewed; a replica that dies hands its workspaces over within about this long.
   */
  workspaceLeaseS: number;
  /** Set: `POST /webhooks/platform` accepts deliveries carrying this secret in `header`. */
  webhook: { secret: string; header: string } | undefined;
  /** Built-in simulator only: accounts for the Slack workspace's people, and e-mails mapped to demo accounts. */
  simAccounts: { auto: boolean; map: Record<string, string>; given: boolean };
  /** REACTION_*: the emoji (Slack's names) that create, take and finish tickets where reactions are on. */
  reactions: { create: string; take: string; done: string };
  /**
   * CHANNEL_LANGUAGE: the language of channel messages, card threads and unfurls in single-workspace
   * mode (`en` by default). What one person sees follows their own Slack language instead.
   */
  channelLanguage: 'en' | 'fr';
  /** Set: every outgoing request goes through this proxy (but NO_PROXY's hosts). */
  proxy: ProxySettings | undefined;
  /** Set: `GET /metrics` is served; with a token, only to `Authorization: Bearer <token>`. */
  metrics: { token: string | undefined } | undefined;
  /** Set (SLACK_CLIENT_ID…): distribution mode, any workspace installs with "Add to Slack". */
  distribution: Distribution | undefined;
  /** UNFURL_*_PATTERN: the link patterns of unfurls, each with the id as a capture group (unset: none). */
  unfurls: { ticket?: string | undefined; conference?: string | undefined; media?: string | undefined };
}

/** Distribution mode's settings: the app's OAuth credentials, the sealing keys, the public URL. */
export interface Distribution {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** The key that seals, then the previous one (still opens, during a rotation). */
  keys: string[];
  /** The bot's public https address, without a trailing slash. */
  publicUrl: string;
  /** PLATFORM_HOSTS: the hosts a workspace's platform address may name; empty: any public https host. */
  platformHosts: string[];
  /** SLACK_ALLOWED_TEAMS: the only workspaces that may install; undefined: any. */
  allowedTeams: string[] | undefined;
}

/** Thrown by `loadConfig` with every problem of the environment at once. */
export class ConfigError extends Error {
  readonly code = 'config_invalid';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment and returns the configuration, or throws a ConfigError naming each problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const cross = crossProblems(env);
  if (!parsed.success || cross.length) {
    const fieldProblems = (parsed.error?.issues ?? []).map((issue) => {
      const name = issue.path.join('.') || 'environment';
      const given = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
      const isSecret = /TOKEN|PASSWORD|SECRET|KEY|DATABASE_URL/.test(name);
      const shown = given === undefined || isSecret ? '' : ` (got "${given}")`;
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError([...fieldProblems, ...cross]);
  }
  const e = parsed.data;
  const platformHosts = (e.PLATFORM_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let credentials: PlatformCredentials | undefined;
  if (e.PLATFORM_TOKEN) credentials = { kind: 'token', token: e.PLATFORM_TOKEN };
  else if (e.PLATFORM_USERNAME && e.PLATFORM_PASSWORD)
    credentials = { kind: 'password', username: e.PLATFORM_USERNAME, password: e.PLATFORM_PASSWORD };
  return {
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    platform: {
      url: e.PLATFORM_URL === simulatorByName ? undefined : e.PLATFORM_URL?.replace(/\/+$/, ''),
      simulator: e.PLATFORM_URL === simulatorByName,
      credentials,
      rateLimitPerMinute: e.PLATFORM_RATE_LIMIT,
      hosts: platformHosts,
      timeouts: {
        connectMs: e.PLATFORM_CONNECT_TIMEOUT_MS,
        headersMs: e.PLATFORM_HEADERS_TIMEOUT_MS,
        bodyMs: e.PLATFORM_BODY_TIMEOUT_MS,
      },
    },
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL === undefined ? undefined : `${e.SLACK_API_URL.replace(/\/+$/, '')}/`,
      port: e.PORT,
      host: e.HOST,
    },
    store: {
      databaseUrl: e.DATABASE_URL,
      dataDir: e.DATA_DIR,
      schema: e.DATABASE_SCHEMA,
      poolSize: e.DATABASE_POOL_SIZE,
    },
    pollIntervalS: e.POLL_INTERVAL,
    reminderIntervalS: e.REMINDER_INTERVAL,
    shutdownTimeoutS: e.SHUTDOWN_TIMEOUT_S,
    workspaceLeaseS: e.WORKSPACE_LEASE_S,
    webhook: e.PLATFORM_WEBHOOK_SECRET
      ? { secret: e.PLATFORM_WEBHOOK_SECRET, header: e.PLATFORM_WEBHOOK_HEADER }
      : undefined,
    simAccounts: simAccounts(e.SIM_ACCOUNTS),
    unfurls: {
      ticket: e.UNFURL_TICKET_PATTERN,
      conference: e.UNFURL_CONFERENCE_PATTERN,
      media: e.UNFURL_MEDIA_PATTERN,
    },
    reactions: { create: e.REACTION_CREATE_TICKET, take: e.REACTION_TAKE, done: e.REACTION_DONE },
    channelLanguage: e.CHANNEL_LANGUAGE ?? 'en',
    proxy: proxyOf(e),
    metrics: e.METRICS_TOKEN
      ? { token: e.METRICS_TOKEN }
      : e.METRICS === 'on'
        ? { token: undefined }
        : undefined,
    distribution:
      e.SLACK_CLIENT_ID &&
      e.SLACK_CLIENT_SECRET &&
      e.SLACK_STATE_SECRET &&
      e.CONFDESK_ENCRYPTION_KEY &&
      e.PUBLIC_URL
        ? {
            clientId: e.SLACK_CLIENT_ID,
            clientSecret: e.SLACK_CLIENT_SECRET,
            stateSecret: e.SLACK_STATE_SECRET,
            keys: [e.CONFDESK_ENCRYPTION_KEY, e.CONFDESK_ENCRYPTION_KEY_PREVIOUS].filter(
              (k): k is string => !!k,
            ),
            publicUrl: e.PUBLIC_URL.replace(/\/+$/, ''),
            platformHosts,
            allowedTeams: e.SLACK_ALLOWED_TEAMS
              ? e.SLACK_ALLOWED_TEAMS.split(',')
                  .map((t) => t.trim())
                  .filter(Boolean)
              : undefined,
          }
        : undefined,
  };
}

/** HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case; upper case wins), or undefined without a proxy. */
function proxyOf(e: z.output<typeof envSchema>): ProxySettings | undefined {
  const httpsProxy = e.HTTPS_PROXY ?? e.https_proxy;
  const httpProxy = e.HTTP_PROXY ?? e.http_proxy;
  if (!httpsProxy && !httpProxy) return undefined;
  return { httpsProxy, httpProxy, noProxy: e.NO_PROXY ?? e.no_proxy };
}

/** SIM_ACCOUNTS: `off` and/or `e-mail=demo-account` pairs, comma separated. */
function simAccounts(value: string | undefined): Config['simAccounts'] {
  const entries = (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const map: Record<string, string> = {};
  for (const entry of entries) {
    const [email, username] = entry.split('=');
    if (email && username) map[email.toLowerCase()] = username;
  }
  return { auto: !entries.some((x) => x.toLowerCase() === 'off'), map, given: entries.length > 0 };
}

/** What the Slack side still needs before the bot can connect, each with where to find it. */
export function missingSlackSettings(config: Config): string[] {
  const where = 'in your Slack app (create it from manifest.yml at https://api.slack.com/apps)';
  const missing: string[] = [];
  if (!config.slack.botToken && !config.distribution) {
    missing.push(
      `SLACK_BOT_TOKEN: not set: the Bot User OAuth Token (xoxb-…), ${where} under OAuth & Permissions`,
    );
  }
  if (!config.slack.signingSecret) {
    missing.push(
      `SLACK_SIGNING_SECRET: not set: the Signing Secret (every request from Slack is verified with it), ${where} under Basic Information → App Credentials`,
    );
  }
  return missing;
}

/** Whether any of Slack's own credentials is set: `npm start` then connects to Slack, never to the playground. */
export function slackCredentialsGiven(config: Config): boolean {
  return Boolean(config.slack.botToken || config.slack.signingSecret || config.slack.appToken);
}

/**
 * A start against Slack without a platform: the built-in simulator would serve demo data to the
 * workspace (every member a demo account, its admins platform admins), so it runs only when named.
 */
export const platformMissing = `PLATFORM_URL: not set: set your video platform's base URL (https://cloud.apizee.com) and its credentials (PLATFORM_USERNAME/PLATFORM_PASSWORD), or PLATFORM_URL=${simulatorByName} to run the built-in simulator with demo data (every Slack member then gets a demo account)`;

/** What a start against one Slack workspace still needs: each missing variable, named with where to find it. */
export function slackStartProblems(config: Config): string[] {
  const problems = missingSlackSettings(config);
  if (!config.platform.url && !config.platform.simulator) problems.push(platformMissing);
  return problems;
}

/**
 * What `npm start` runs: distribution mode; the playground (asked for with `--playground`, or no
 * Slack credential set at all); Slack with one workspace; or nothing, with the variables a half
 * configuration misses (never the playground in its place: it would hide them).
 */
export type StartMode =
  | { kind: 'distribution' }
  | { kind: 'playground'; asked: boolean }
  | { kind: 'slack' }
  | { kind: 'refused'; problems: string[] };

export function startMode(config: Config, o: { playground: boolean }): StartMode {
  if (config.distribution) return { kind: 'distribution' };
  if (o.playground) return { kind: 'playground', asked: true };
  if (!slackCredentialsGiven(config)) return { kind: 'playground', asked: false };
  const problems = slackStartProblems(config);
  return problems.length ? { kind: 'refused', problems } : { kind: 'slack' };
}

/**
 * The configuration a maintenance command runs with: the bot's own (`.env` in the working directory,
 * then the environment, as `npm start`). An invalid one is said on stderr, every problem at once, and
 * answers undefined (the command then exits 1).
 */
export function loadToolConfig(): Config | undefined {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${error.message}\nSee .env.example for every variable and its meaning.`);
    return undefined;
  }
}

/** Runs a maintenance command's `main` with its arguments: its answer is the exit code, a throw is said and exits 1. */
export function runTool(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
