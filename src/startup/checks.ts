import { LogLevel, WebClient, WebClientEvent, type WebClientOptions } from '@slack/web-api';
import type { CheckResult } from '../observability/readiness.js';
import type { PlatformClient } from '../platform/client.js';
import {
  PlatformHttpError,
  PlatformNetworkError,
  PlatformRateLimitedError,
  PlatformResponseError,
} from '../platform/errors.js';
import { isWebApiErrorCode, slackAnswerOf, slackErrorCode } from '../util/slack-errors.js';

/**
 * The start-up checks: one per outside dependency, each answering `ok` or the one sentence that
 * names the variable at fault and its fix (never a secret, never a stack). `main.ts` runs them at
 * start; the readiness probe re-runs the platform's; the doctor may reuse them all.
 */
export type { CheckResult };

const slackOwnApi = 'https://slack.com/api/';

/** Slack's answers that mean "this token is not (or no longer) valid". */
const refusedTokenErrors = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'no_permission',
]);

/** The system error code under a wrapped error (`fetch failed` → ECONNREFUSED, AggregateError…). */
export function causeCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || error === null || typeof error !== 'object') return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown[]; original?: unknown };
  if (typeof e.code === 'string' && !isWebApiErrorCode(e.code)) return e.code;
  return (
    causeCode(e.original, depth + 1) ??
    causeCode(e.cause, depth + 1) ??
    (Array.isArray(e.errors) ? causeCode(e.errors[0], depth + 1) : undefined)
  );
}

/** The innermost cause's message, when no code names it ("bad port"). */
function innermostMessage(error: unknown): string | undefined {
  let e = error as { message?: unknown; cause?: unknown; original?: unknown } | undefined;
  let message: string | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (typeof e.message === 'string') message = e.message;
    e = (e.original ?? e.cause) as typeof e;
  }
  return message;
}

/** Slack's WebClient logs its retries itself: the check says it once, in its own sentence. */
const quiet = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};

export interface SlackIdentity {
  team: string | undefined;
  teamId: string | undefined;
  /** The bot user's name and id. */
  botUser: string | undefined;
  botUserId: string | undefined;
  botId: string | undefined;
  /** The scopes granted, from the answer's `x-oauth-scopes` header (undefined when Slack sent none). */
  scopes: string[] | undefined;
}

/**
 * `auth.test` with the bot token. A refused token is fatal at start (nothing can work until someone
 * fixes it); an API that does not answer, or answers 5xx or 429, is `transient`: the start serves
 * `/healthz` and tries again (a DNS or network hiccup must not become a restart loop).
 */
export async function checkSlack(options: {
  token: string;
  /** SLACK_API_URL when set (a Slack double, a proxy). */
  apiUrl?: string | undefined;
  timeoutMs?: number;
}): Promise<CheckResult<SlackIdentity> & { refusal?: string; transient?: boolean }> {
  const clientOptions: WebClientOptions = {
    // A start-up check answers in seconds, not after the WebClient's default half-hour of retries.
    retryConfig: { retries: 1, factor: 1, minTimeout: 500, maxTimeout: 500 },
    timeout: options.timeoutMs ?? 10_000,
    logger: quiet,
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
  };
  const client = new WebClient(options.token, clientOptions);
  // A 429 the client waited out and retried ends as a request error: remember that it was one.
  let rateLimitedSec: number | undefined;
  client.on(WebClientEvent.RATE_LIMITED, (seconds: number) => {
    rateLimitedSec = seconds;
  });
  try {
    const answer = await client.auth.test();
    return {
      ok: true,
      info: {
        team: answer.team,
        teamId: answer.team_id,
        botUser: answer.user,
        botUserId: answer.user_id,
        botId: answer.bot_id,
        scopes: answer.response_metadata?.scopes,
      },
    };
  } catch (error) {
    // `refusal`: Slack's own error code when it answered and refused (invalid_auth, token_revoked…).
    const refusal = slackErrorCode(error);
    return {
      ok: false,
      problem: slackProblem(error, options.apiUrl, { rateLimitedSec }),
      ...(refusal ? { refusal } : {}),
      ...(slackTransient(error) ? { transient: true } : {}),
    };
  }
}

/**
 * Whether a failed Web API call may pass if tried again: no answer (DNS, refused or reset
 * connection, timeout), Slack's 5xx or its rate limit. Slack's refusals and other HTTP statuses (a
 * wrong SLACK_API_URL's 404) come back the same each time.
 */
export function slackTransient(error: unknown): boolean {
  const answer = slackAnswerOf(error);
  if (answer?.kind === 'no_answer' || answer?.kind === 'rate_limited') return true;
  if (answer?.kind === 'http') return (answer.status ?? 0) >= 500 || answer.status === 429;
  return false;
}

/**
 * The sentence for a failed `auth.test`. `rateLimitedSec`: Slack answered 429 (Retry-After) on the
 * way, which the WebClient reports as a request error once its retries are spent.
 */
export function slackProblem(
  error: unknown,
  apiUrl: string | undefined,
  o: { rateLimitedSec?: number | undefined } = {},
): string {
  const answer = slackAnswerOf(error);
  const where = apiUrl ?? slackOwnApi;
  const limitedSec =
    answer?.kind === 'rate_limited'
      ? answer.retryAfterMs / 1000
      : answer?.kind === 'no_answer' || answer === undefined
        ? o.rateLimitedSec
        : undefined;
  if (limitedSec !== undefined)
    return apiUrl
      ? `SLACK_API_URL: ${where}auth.test answered HTTP 429 (rate limited, retry after ${limitedSec} s)`
      : `Slack's Web API answered HTTP 429 to auth.test (rate limited, retry after ${limitedSec} s)`;
  if (answer?.kind === 'refusal') {
    const code = answer.code ?? 'unknown_error';
    if (refusedTokenErrors.has(code))
      return `SLACK_BOT_TOKEN: Slack refused the bot token (${code}): copy the Bot User OAuth Token (xoxb-…) again from your Slack app's OAuth & Permissions page, and reinstall the app to the workspace if it was revoked or uninstalled`;
    return `SLACK_BOT_TOKEN: Slack's auth.test answered ${code}: check the token and the app's installation at https://api.slack.com/apps`;
  }
  if (answer?.kind === 'http')
    return apiUrl
      ? slackTransient(error)
        ? `SLACK_API_URL: ${where}auth.test answered HTTP ${answer.status}: Slack, or what SLACK_API_URL points at, may be having trouble`
        : `SLACK_API_URL: ${where}auth.test answered HTTP ${answer.status}: fix the URL (it ends in /api/) or unset SLACK_API_URL to use Slack's own API`
      : `Slack's Web API answered HTTP ${answer.status} to auth.test: Slack may be having trouble (https://slack-status.com)`;
  const code = causeCode(error) ?? innermostMessage(error) ?? 'no answer';
  return apiUrl
    ? `SLACK_API_URL: Slack's Web API at ${where} could not be reached (${code}): fix the URL or unset SLACK_API_URL to use ${slackOwnApi}`
    : `Slack's Web API (${slackOwnApi}) could not be reached (${code}): check this host's network, DNS and proxy (HTTPS_PROXY)`;
}

export interface PlatformIdentity {
  username: string | undefined;
  enterpriseId: number | string | undefined;
}

/**
 * `GET /users/me`, past the client's cache (a check must reach the platform). Never fatal: the
 * platform is a remote service that may come back, so the bot starts, stays not ready, and retries.
 * A refused credential is also recorded in `platform.findings` (read by `/readyz` and the doctor).
 */
export async function checkPlatform(
  platform: PlatformClient,
  options: {
    /** PLATFORM_URL as configured; undefined for the built-in simulator. */
    url: string | undefined;
    credentials: 'token' | 'password';
    priority?: 'interactive' | 'background';
    /**
     * Set (a start): the check is not held longer than this for the rate budget; the profile read
     * before the restart (cached, within its TTL) answers instead, if there is one.
     */
    maxWaitMs?: number;
    /** What the sentences name: the environment's variables, or a settings form's fields. */
    names?: SettingNames;
  },
): Promise<CheckResult<PlatformIdentity>> {
  try {
    const priority = options.priority ?? 'interactive';
    const me = await platform
      .getMe({}, { fresh: true, priority, ...(options.maxWaitMs ? { maxWaitMs: options.maxWaitMs } : {}) })
      .catch((error: unknown) => {
        // A start inside a window the previous process spent: its profile read, kept with the
        // store within its TTL, stands for the check (the re-checks confirm it once the window turns).
        if (options.maxWaitMs && error instanceof PlatformRateLimitedError)
          return platform.getMe({}, { priority, maxWaitMs: 0 });
        throw error;
      });
    platform.findings.authSucceeded();
    const record = me as { username?: string; enterprise_id?: number | string };
    return { ok: true, info: { username: record.username, enterpriseId: record.enterprise_id } };
  } catch (error) {
    const problem = platformProblem(error, options);
    if (error instanceof PlatformHttpError && error.status === 401) platform.findings.authFailed(problem);
    return { ok: false, problem };
  }
}

/** How a failed check names where the platform's address and credentials are set. */
export interface SettingNames {
  url: string;
  token: string;
  login: string;
  /** What to do about a token that expires. */
  renew: string;
}

const envNames: SettingNames = {
  url: 'PLATFORM_URL',
  token: 'PLATFORM_TOKEN',
  login: 'PLATFORM_USERNAME/PLATFORM_PASSWORD',
  renew: 'set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal',
};

/** The sentence for a failed platform check. */
export function platformProblem(
  error: unknown,
  options: { url: string | undefined; credentials: 'token' | 'password'; names?: SettingNames },
): string {
  const n = options.names ?? envNames;
  const url = options.url ?? 'the built-in simulator';
  const urlVar = options.url ? n.url : 'platform';
  if (error instanceof PlatformNetworkError)
    return `${urlVar}: the platform at ${url} could not be reached (${error.causeCode ?? error.reason}): check the URL and this host's network; confdesk retries every minute and /readyz answers 503 until then`;
  if (error instanceof PlatformHttpError) {
    if (error.status === 401)
      return options.credentials === 'password' || error.operation === 'createToken'
        ? `${n.login}: the platform refused this login (401): check the account name and password`
        : `${n.token}: the platform refused the token (401; static tokens expire after 24 h): set a fresh one, or ${n.renew}`;
    if (error.status === 404 || isHtml(error.body))
      return `${n.url}: ${url}/api/v3/users/me answered ${error.status}${isHtml(error.body) ? ' with a web page' : ''}, not the platform's API: set the base URL without /api/v3 (for example https://cloud.apizee.com)`;
    if (error.status === 403)
      return `${n.token}: the platform answered 403 to /users/me${error.detail ? ` (${error.detail})` : ''}: use the credentials of an account of the enterprise, ideally an admin`;
    return `${urlVar}: the platform answered ${error.status} ${error.label} to /users/me: it may be having trouble; confdesk retries every minute`;
  }
  if (error instanceof PlatformResponseError)
    return `${n.url}: ${url}/api/v3/users/me did not answer with a user (${error.field || 'body'}: ${error.problem}): check that the URL is the platform's base URL`;
  if (error instanceof PlatformRateLimitedError)
    return `${urlVar}: the platform's rate limit is spent for now; confdesk retries in a minute`;
  return `${urlVar}: /users/me failed (${(error as Error).message}); confdesk retries every minute`;
}

const isHtml = (body: unknown) => typeof body === 'string' && /^\s*</.test(body);

/**
 * The sentence for a store that does not open (PostgreSQL or the embedded SQLite file). Fatal:
 * every card and subscription lives there. The URL is never repeated (it may hold a password).
 */
export function storeProblem(
  error: unknown,
  options: { databaseUrl: string | undefined; dataDir: string },
): string {
  const code = causeCode(error);
  const message = (error as Error | undefined)?.message ?? String(error);
  if (!options.databaseUrl) {
    return `DATA_DIR: the embedded store in "${options.dataDir}" cannot be opened (${code ?? message}): make the directory writable, or set DATA_DIR to one that is`;
  }
  let host = 'the host';
  let database = '';
  let user = '';
  try {
    const u = new URL(options.databaseUrl);
    host = `${u.hostname}:${u.port || 5432}`;
    database = decodeURIComponent(u.pathname.slice(1));
    user = decodeURIComponent(u.username);
  } catch {
    // A URL the driver read but URL does not: keep the generic words.
  }
  switch (code) {
    case '3D000':
      return `DATABASE_URL: database "${database}" does not exist: create it (createdb ${database}) or fix the URL`;
    case 'ECONNREFUSED':
      return `DATABASE_URL: PostgreSQL at ${host} refused the connection: start PostgreSQL, or fix the host and port in the URL`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DATABASE_URL: the host of ${host} is unknown (${code}): fix the host name in the URL`;
    case 'ETIMEDOUT':
      return `DATABASE_URL: PostgreSQL at ${host} did not answer (ETIMEDOUT): check the host, port and firewall`;
    case '28P01':
    case '28000':
      return `DATABASE_URL: PostgreSQL refused the user "${user}" (${code}): fix the user and password in the URL`;
    case '42501':
      return `DATABASE_URL: the user "${user}" may not create confdesk's tables (42501): grant it CREATE on the database (or DATABASE_SCHEMA), or use another user`;
    default:
      return `DATABASE_URL: the store cannot be opened (${code ? `${code}: ` : ''}${message.replace(/postgres(ql)?:\/\/\S+/g, '<url>')}): check the URL and the server`;
  }
}
