import type { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import type { PlatformCredentials, ProxySettings } from '../config/config.js';
import type { PlatformOutcome, WorkspaceMetrics } from '../observability/metrics.js';
import { userAgent } from '../observability/version.js';
import { discard } from '../util/streams.js';
import { TokenProvider } from './auth.js';
import { TtlCache } from './cache.js';
import {
  type EndpointName,
  type EndpointSpec,
  type Endpoints,
  endpoints,
  type HttpMethod,
} from './endpoints.js';
import {
  PlatformAddressError,
  PlatformClosedError,
  PlatformHttpError,
  PlatformInputError,
  PlatformNetworkError,
  PlatformRateLimitedError,
  PlatformResponseError,
} from './errors.js';
import { PlatformFindings } from './findings.js';
import { AddressRefusedError, fetchProblem, type PlatformReach } from './host-guard.js';
import type { Priority } from './lane.js';
import { currentLane } from './lane.js';
import { PageMemory, paginate } from './paging.js';
import { platformAgent } from './proxy.js';
import { RateBudget } from './rate-budget.js';
import { retryDecision, timeoutCodes } from './retry-policy.js';
import type { Page } from './schemas.js';

/** A binary answer handed to the caller unbuffered (a 200 MB recording must not sit in memory). */
export interface Download {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
  filename: string | undefined;
}

export interface CallOptions {
  /** interactive (a person waits; default) or background (poller, digests): served after interactive. */
  priority?: Priority;
  signal?: AbortSignal;
  /** Give up with PlatformRateLimitedError rather than wait longer than this for the rate budget. */
  maxWaitMs?: number;
  /** Skip the read cache: a health check must reach the platform. */
  fresh?: boolean;
}

/** Minimal logger shape (pino-compatible). */
export interface ClientLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface PlatformClientOptions {
  baseUrl: string;
  credentials: PlatformCredentials;
  /** Requests per minute allowed by the platform (default 10). */
  rateLimitPerMinute?: number;
  /** The window `rateLimitPerMinute` counts in (default one minute; benchmarks run time faster). */
  rateWindowMs?: number;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Attempts for idempotent requests (GET, PUT, DELETE) on network errors, 5xx and 429. Default 3. */
  maxAttempts?: number;
  /**
   * TTL of cached reads (users/me, groups, users of the enterprise). Default 5 minutes: the bot's
   * own writes invalidate them at once, and a person's card must not spend a tenth of the minute's
   * budget reading the same labels again.
   */
  cacheTtlMs?: number;
  now?: () => number;
  logger?: ClientLogger;
  /** Retry backoff base in ms (tests shorten it). Default 300. */
  backoffBaseMs?: number;
  /** Set: requests go through this proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  proxy?: ProxySettings | undefined;
  /** A people's turn waiting in a background lane throws (tests; see `inPeoplesTurn`). */
  strictTurns?: boolean;
  /**
   * Who vouched for the platform address and which other hosts may be reached (see `PlatformReach`).
   * Default: the operator configured `baseUrl` (PLATFORM_URL), no other host. Distribution mode
   * gives a workspace's address `operatorConfigured: false` and the operator's `PLATFORM_HOSTS`.
   */
  reach?: { allowedHosts?: readonly string[]; operatorConfigured?: boolean };
}

type Input<N extends EndpointName> = z.input<Endpoints[N]['input']>;
type Output<N extends EndpointName> = Endpoints[N]['output'] extends z.ZodType
  ? z.output<Endpoints[N]['output']>
  : Download;
type Args<N extends EndpointName> =
  Record<never, never> extends Input<N>
    ? [input?: Input<N>, options?: CallOptions]
    : [input: Input<N>, options?: CallOptions];

/** One typed method per operation of the endpoint table. */
export type PlatformMethods = { [N in EndpointName]: (...args: Args<N>) => Promise<Output<N>> };

/** Operations whose answer is a list page, which `paginate` can walk. */
export type ListEndpointName = {
  [N in EndpointName]: Output<N> extends Page<unknown> ? N : never;
}[EndpointName];
type Item<N extends ListEndpointName> = Output<N> extends Page<infer T> ? T : never;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const numberHeader = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = header(headers, name);
  const n = v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** The rate-limit headers looked for (lower case, as undici gives them). */
const rateLimitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

/** The most redirects one download follows, each hop checked by the address guard. */
export const maxRedirects = 3;
/**
 * The largest JSON answer read (a page of 100 records is far below): a bigger one is refused before
 * it sits whole in memory.
 */
export const maxJsonBytes = 8 * 1024 * 1024;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * Reads a JSON answer's text, refusing one larger than `maxJsonBytes` (announced or counted) and one
 * that takes longer than `deadlineMs` in all (a body that trickles a byte at a time never trips
 * undici's idle timeout between chunks). Refused bodies are destroyed, their errors consumed.
 */
async function readAnswerText(
  response: Dispatcher.ResponseData,
  deadlineMs: number,
): Promise<{ text: string } | { refused: 'too-large' | 'too-slow' }> {
  const body = response.body;
  // Destroying an undici body makes it emit an error: heard here, whoever stops reading it.
  body.on('error', () => {});
  const announced = numberHeader(response.headers, 'content-length');
  if (announced !== undefined && announced > maxJsonBytes) {
    body.destroy();
    return { refused: 'too-large' };
  }
  let tooSlow = false;
  const timer = setTimeout(() => {
    tooSlow = true;
    body.destroy();
  }, deadlineMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxJsonBytes) {
        body.destroy();
        return { refused: 'too-large' };
      }
      chunks.push(chunk as Buffer);
    }
  } catch {
    // A body cut mid-way reads as nothing (as `text()` failing did).
    return tooSlow ? { refused: 'too-slow' } : { text: '' };
  } finally {
    clearTimeout(timer);
  }
  return tooSlow ? { refused: 'too-slow' } : { text: Buffer.concat(chunks).toString('utf8') };
}

/** How long past its TTL background work may still use a cached read (see `TtlCache`). */
const cacheStaleMs = 15 * 60_000;

/** What readiness and the log say when the platform refuses our credentials (no secret in them). */
export const staticTokenExpired =
  'PLATFORM_TOKEN expired: set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal';
const tokenRequestRefused = (status: number) =>
  `The platform refused PLATFORM_USERNAME/PLATFORM_PASSWORD (the token request answered ${status}): check them`;
const freshTokenRefused =
  'The platform refuses even a fresh token for PLATFORM_USERNAME: check PLATFORM_USERNAME/PLATFORM_PASSWORD and that this user may use the API';

/** Turns an input value into its query-string form (spec convention 1). */
function wireValue(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(String).join(',');
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/**
 * The platform client: the request core (auth, rate budget, retries, timeouts, typed errors, cache)
 * and one method per endpoint of the table. Create it with `createPlatformClient`.
 */
export class PlatformCore {
  readonly budget: RateBudget;
  readonly baseUrl: string;
  /** What was learned at run time about the platform's unpublished behaviour (doctor, readiness). */
  readonly findings: PlatformFindings;
  private readonly dispatcher: Dispatcher;
  /** What this client may reach (its address, PLATFORM_HOSTS): checked before a request and when connecting. */
  private readonly reach: PlatformReach;
  /** Behind a proxy the proxy resolves names: they are checked before each request instead. */
  private readonly checkNamesFirst: boolean;
  private readonly bodyDeadlineMs: number;
  private readonly tokens: TokenProvider;
  private readonly cache: TtlCache;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly logger: ClientLogger | undefined;
  /** What the walks of lists learned of each list (see `paginate`). */
  private readonly pages = new PageMemory();
  /** Where each request attempt, its wait for the budget and the platform's 429s are counted. */
  private metrics: Pick<WorkspaceMetrics, 'platformRequest' | 'budgetWait' | 'rateLimited'> | undefined;

  constructor(options: PlatformClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const now = options.now ?? Date.now;
    this.findings = new PlatformFindings(options.logger, now);
    this.budget = new RateBudget({
      perWindow: options.rateLimitPerMinute ?? 10,
      ...(options.rateWindowMs ? { windowMs: options.rateWindowMs } : {}),
      now,
      strictTurns: options.strictTurns ?? false,
    });
    this.reach = {
      baseUrl: this.baseUrl,
      allowedHosts: options.reach?.allowedHosts ?? [],
      operatorConfigured: options.reach?.operatorConfigured ?? true,
    };
    this.checkNamesFirst = options.proxy !== undefined;
    this.bodyDeadlineMs = options.timeouts?.bodyMs ?? 30_000;
    this.dispatcher = platformAgent(options.timeouts, options.proxy, this.reach);
    this.tokens = new TokenProvider(
      options.credentials,
      async (username, password) => {
        const answer = await this.call('createToken', { username, password }).catch((error: unknown) => {
          if (
            error instanceof PlatformHttpError &&
            error.status >= 400 &&
            error.status < 500 &&
            error.status !== 429
          )
            this.findings.authFailed(tokenRequestRefused(error.status));
          throw error;
        });
        return { token: answer.access_token, expiresInS: answer.expires_in ?? 86_400 };
      },
      now,
    );
    // Background work may use a read up to 15 minutes past its TTL while it is read again behind
    // (a card's group label must not wait for the budget); people always get one within the TTL.
    this.cache = new TtlCache(options.cacheTtlMs ?? 5 * 60_000, now, 500, cacheStaleMs);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.backoffBaseMs = options.backoffBaseMs ?? 300;
    this.logger = options.logger;
  }

  /**
   * Counts every request attempt (by lane and outcome), its wait for the budget and the platform's
   * 429s there: the composition root gives its instance's metrics (the client is built before it).
   */
  instrument(metrics: Pick<WorkspaceMetrics, 'platformRequest' | 'budgetWait' | 'rateLimited'>): void {
    this.metrics = metrics;
  }

  /** About how long a request of this priority would wait for the rate budget now, in ms. */
  estimateWaitMs(priority: Priority = 'interactive'): number {
    return this.budget.estimateWaitMs(priority);
  }

  /** Calls one operation of the endpoint table by name. */
  async call<N extends EndpointName>(name: N, ...[input, options]: Args<N>): Promise<Output<N>> {
    const spec: EndpointSpec = endpoints[name];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        field: i.path.length ? i.path.map(String).join('.') : '(input)',
        problem: i.message,
      }));
      const first = issues[0] ?? { field: '(input)', problem: 'invalid' };
      throw new PlatformInputError(name, first.field, first.problem, issues);
    }
    const values = parsed.data as Record<string, unknown>;
    const path = spec.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(values[key])));
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) {
      if (spec.path.includes(`{${key}}`)) continue;
      const v = wireValue(value);
      if (v !== undefined) query.set(spec.wire?.[key] ?? key, v);
    }
    const qs = query.toString();
    const url = `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;

    const send = async () => {
      const answer = await this.send(name, spec.method, spec.output, url, spec.auth !== false, options ?? {});
      (spec.observe as ((o: unknown, f: PlatformFindings) => void) | undefined)?.(answer, this.findings);
      return answer;
    };
    if (spec.cache && !options?.fresh)
      return (await this.cache.getOrLoad(
        `${name} ${url}`,
        spec.cache,
        send,
        options?.priority ?? currentLane(),
      )) as Output<N>;
    const result = await send();
    if (spec.invalidates) this.cache.invalidate(spec.invalidates);
    return result as Output<N>;
  }

  /**
   * Downloads a file by the URL an answer gave (an export's `url`; relative to the platform address
   * when not absolute). The URL passes the address guard as the platform address does (its own
   * host or `PLATFORM_HOSTS`, public addresses only unless the operator named them); the bearer
   * token is sent only to the platform's own origin.
   */
  async downloadUrl(url: string, options: CallOptions = {}): Promise<Download> {
    let target: URL;
    try {
      target = new URL(url, `${this.baseUrl}/`);
    } catch {
      throw new PlatformAddressError('downloadUrl', '(unreadable)', 'not an address');
    }
    return (await this.send('downloadUrl', 'GET', 'stream', target.toString(), true, options)) as Download;
  }

  /** Throws `PlatformAddressError` when the guard refuses `url` (see `fetchProblem`). */
  private async check(name: string, url: string): Promise<void> {
    const target = new URL(url);
    const problem = await fetchProblem(target, this.reach, this.checkNamesFirst);
    if (problem) {
      this.logger?.warn({ op: name, host: target.host, problem }, 'platform address refused');
      throw new PlatformAddressError(name, target.host, problem);
    }
  }

  /**
   * Walks every item of a list operation page by page, fetching a page only when needed; a page
   * shorter than asked ends the walk only when that is knowable (see `paginate` in `paging.ts`).
   */
  paginate<N extends ListEndpointName>(
    name: N,
    input: Input<N>,
    options: CallOptions & { pageSize?: number } = {},
  ): AsyncGenerator<Item<N>> {
    const base = input as Record<string, unknown>;
    const fetchPage = (offset: number, limit: number) =>
      this.call(name, ...([{ ...base, offset, limit }, options] as unknown as Args<N>)) as Promise<
        Page<Item<N>>
      >;
    const start = {
      offset: (base.offset as number | undefined) ?? 0,
      limit: (base.limit as number | undefined) ?? options.pageSize ?? 100,
    };
    return paginate(name, fetchPage, start, this.findings, this.pages);
  }

  /** Closes connections and rejects queued requests. */
  async close(): Promise<void> {
    this.budget.close(new PlatformClosedError('queued request'));
    await this.dispatcher.close();
  }

  private async send(
    name: string,
    method: HttpMethod,
    output: EndpointSpec['output'],
    url: string,
    withAuth: boolean,
    options: CallOptions,
  ): Promise<unknown> {
    const priority = options.priority ?? currentLane();
    const policy = { method, maxAttempts: this.maxAttempts, maxWaitMs: options.maxWaitMs };
    const platformOrigin = new URL(this.baseUrl).origin;
    // The token goes to the platform's own origin only: a redirect or a `url` elsewhere gets none.
    const authFor = (target: string) => withAuth && new URL(target).origin === platformOrigin;
    let target = url;
    await this.check(name, target);
    let token = authFor(target) ? await this.tokens.token() : undefined;
    let renewedAfter401 = false;
    let hops = 0;
    for (let attempt = 1; ; attempt++) {
      const wait = this.budget.estimateWaitMs(priority);
      if (options.maxWaitMs !== undefined && wait > options.maxWaitMs)
        throw new PlatformRateLimitedError(name, wait);
      const asked = performance.now();
      const grantedAt = await this.budget.acquire(priority, options.signal);
      const started = Date.now();
      const sent = performance.now();
      this.metrics?.budgetWait(priority, (sent - asked) / 1000);
      const count = (outcome: PlatformOutcome) =>
        this.metrics?.platformRequest(priority, outcome, (performance.now() - sent) / 1000);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(target, {
          method,
          dispatcher: this.dispatcher,
          headers: {
            accept: 'application/json',
            // Lets the platform's operators tell confdesk's requests (and its release) in their logs.
            'user-agent': userAgent,
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        this.budget.answered(grantedAt);
      } catch (error) {
        this.budget.answered(grantedAt);
        if (options.signal?.aborted) {
          count('aborted');
          throw error;
        }
        const refused = [error, (error as { cause?: unknown }).cause].find(
          (e): e is AddressRefusedError => e instanceof AddressRefusedError,
        );
        if (refused) {
          count('connection');
          this.logger?.warn(
            { op: name, host: new URL(target).host, problem: refused.problem },
            'platform address refused when connecting',
          );
          throw new PlatformAddressError(name, new URL(target).host, refused.problem);
        }
        const code = (error as { code?: string }).code;
        const failure = new PlatformNetworkError(
          name,
          code && timeoutCodes.has(code) ? 'timeout' : 'connection',
          code,
          { cause: error },
        );
        count(failure.reason);
        this.logger?.warn({ op: name, code, attempt }, 'platform request failed');
        const decision = retryDecision({
          ...policy,
          attempt,
          failure: { kind: 'network', code },
          mayRenewToken: false,
        });
        if (decision.kind !== 'backoff') {
          this.findings.noAnswer(
            `platform: ${this.baseUrl} could not be reached (${code ?? failure.reason})`,
          );
          throw failure;
        }
        await sleep(this.backoff(attempt), options.signal);
        continue;
      }
      const { statusCode: status, headers } = response;
      count(status === 429 ? '429' : status < 400 ? 'ok' : status < 500 ? '4xx' : '5xx');
      // A download may be sent elsewhere (a file store): followed by hand, each hop checked again
      // and without the token off the platform's origin. An API answer's redirect is an error.
      if (output === 'stream' && redirectStatuses.has(status)) {
        discard(response.body);
        const location = header(headers, 'location');
        let next: string | undefined;
        try {
          next = location ? new URL(location, target).toString() : undefined;
        } catch {
          next = undefined;
        }
        if (!next)
          throw new PlatformAddressError(name, new URL(target).host, 'a redirect without an address');
        if (++hops > maxRedirects)
          throw new PlatformAddressError(name, new URL(next).host, `more than ${maxRedirects} redirects`);
        await this.check(name, next);
        target = next;
        token = authFor(target) ? await this.tokens.token() : undefined;
        attempt--; // a redirect is not a failed attempt
        continue;
      }
      if (status === 429) this.metrics?.rateLimited('platform');
      // A file store's answer says nothing of the platform's rate limit or of our token.
      if (new URL(target).origin === platformOrigin) {
        this.findings.answered();
        this.learnRateLimit(headers);
      }
      if (token !== undefined) this.learnAuth(status);
      this.logger?.debug({ op: name, method, status, ms: Date.now() - started }, 'platform request');

      if (status >= 200 && status < 300 && output === 'stream') {
        // Its reader may come after a Slack round trip, or never: an error meanwhile (a reset, the
        // body timeout) is heard here and waits on the stream (`errored`) for whoever reads it.
        response.body.on('error', () => {});
        const length = numberHeader(headers, 'content-length');
        const disposition = header(headers, 'content-disposition');
        return {
          body: response.body,
          contentType: header(headers, 'content-type'),
          contentLength: length,
          filename: disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i)?.[1],
        } satisfies Download;
      }
      const read = await readAnswerText(response, this.bodyDeadlineMs);
      if ('refused' in read) {
        if (read.refused === 'too-large')
          throw new PlatformResponseError(
            name,
            '',
            `its answer is larger than ${maxJsonBytes / 1024 / 1024} MB`,
            true,
          );
        const failure = new PlatformNetworkError(name, 'timeout', 'body-deadline');
        this.logger?.warn({ op: name, attempt }, 'platform answer too slow');
        const decision = retryDecision({
          ...policy,
          attempt,
          failure: { kind: 'network', code: 'UND_ERR_BODY_TIMEOUT' },
          mayRenewToken: false,
        });
        if (decision.kind !== 'backoff') throw failure;
        await sleep(this.backoff(attempt), options.signal);
        continue;
      }
      const text = read.text;
      let body: unknown = text;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          // Not JSON: keep the text (an HTML error page, a plain "OK").
        }
      } else body = undefined;

      if (status >= 200 && status < 300) {
        if (output === 'stream') return body;
        const out = output.safeParse(body);
        if (!out.success) {
          const issue = out.error.issues[0];
          throw new PlatformResponseError(
            name,
            issue?.path.map(String).join('.') ?? '',
            issue?.message ?? 'invalid',
            issue?.code === 'custom',
          );
        }
        return out.data;
      }
      const decision = retryDecision({
        ...policy,
        attempt,
        failure: {
          kind: 'status',
          status,
          waitMs:
            (numberHeader(headers, 'x-ratelimit-reset') ?? numberHeader(headers, 'retry-after') ?? 1) *
              1000 || 1000,
        },
        mayRenewToken: token !== undefined && this.tokens.renewable && !renewedAfter401,
      });
      switch (decision.kind) {
        case 'pause':
        case 'rate-limited':
          this.budget.pauseFor(decision.waitMs);
          this.logger?.warn({ op: name, waitMs: decision.waitMs, attempt }, 'platform rate limit hit');
          if (decision.kind === 'rate-limited') throw new PlatformRateLimitedError(name, decision.waitMs);
          continue; // the budget holds it until the reset
        case 'renew-token':
          renewedAfter401 = true;
          attempt--; // the renewal retry does not count against the attempts
          token = await this.tokens.afterUnauthorized(token as string);
          continue;
        case 'backoff':
          this.logger?.warn({ op: name, status, attempt }, 'platform server error, retrying');
          await sleep(this.backoff(attempt), options.signal);
          continue;
        case 'fail':
          if (status === 401 && withAuth && this.tokens.renewable)
            this.findings.authFailed(freshTokenRefused);
          throw new PlatformHttpError(name, status, body);
      }
    }
  }

  /** Feeds the budget, and notes which rate-limit headers the platform sends (for the doctor). */
  private learnRateLimit(headers: Record<string, string | string[] | undefined>): void {
    for (const name of rateLimitHeaders)
      if (header(headers, name) !== undefined) this.findings.rateLimitHeaderSeen(name);
    this.budget.observe(
      numberHeader(headers, 'x-ratelimit-remaining'),
      numberHeader(headers, 'x-ratelimit-reset'),
    );
  }

  /**
   * A 401 that no renewal can cure (a static token: it lasts 24 h) makes readiness fail and names
   * the fix; any accepted request clears it. (A 401 cured by a renewal never gets here: see `send`.)
   */
  private learnAuth(status: number): void {
    if (status >= 200 && status < 300) this.findings.authSucceeded();
    else if (status === 401 && !this.tokens.renewable) this.findings.authFailed(staticTokenExpired);
  }

  private backoff(attempt: number): number {
    const base = this.backoffBaseMs * 2 ** (attempt - 1);
    return Math.min(10_000, base / 2 + Math.random() * base);
  }
}

export type PlatformClient = PlatformCore & PlatformMethods;

/** Creates the platform client: the core plus one method per endpoint, derived from the endpoint table. */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const core = new PlatformCore(options);
  const methods = Object.fromEntries(
    (Object.keys(endpoints) as EndpointName[]).map((name) => [
      name,
      (...args: unknown[]) => core.call(name, ...(args as Args<typeof name>)),
    ]),
  );
  return Object.assign(core, methods) as unknown as PlatformClient;
}
