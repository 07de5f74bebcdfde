import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { PlatformCredentials, ProxySettings } from '../config/config.js';
import type { PlatformOutcome, WorkspaceMetrics } from '../observability/metrics.js';
import { type Download, readAnswer } from './answer.js';
import { type Attempted, type AttemptRequest, attempt, type ClientLogger } from './attempt.js';
import { TokenProvider } from './auth.js';
import { type KeptEntry, TtlCache } from './cache.js';
import {
  type EndpointName,
  type EndpointSpec,
  type Endpoints,
  endpoints,
  type HttpMethod,
} from './endpoints.js';
import {
  isRedirect,
  PlatformAddressError,
  PlatformClosedError,
  PlatformGrantDeadlineError,
  PlatformHttpError,
  type PlatformNetworkError,
  PlatformRateLimitedError,
  type PlatformResponseError,
} from './errors.js';
import { PlatformFindings } from './findings.js';
import { grantDeadline } from './grant-deadline.js';
import { header, numberHeader } from './headers.js';
import { fetchProblem, type PlatformReach } from './host-guard.js';
import type { Priority } from './lane.js';
import { currentLane } from './lane.js';
import { PageMemory, paginate } from './paging.js';
import { platformAgent } from './proxy.js';
import { type GrantMemory, RateBudget, recallDeadlineMs } from './rate-budget.js';
import { followRedirect, redirectHost } from './redirect.js';
import { requestUrl } from './request-url.js';
import type { RequestFailure } from './retry-policy.js';
import { type RetryContext, retryStep } from './retry-step.js';
import type { Page } from './schemas.js';

export type { Download } from './answer.js';
export { maxJsonBytes } from './answer.js';
export type { ClientLogger } from './attempt.js';
export { maxRedirects } from './redirect.js';

export interface CallOptions {
  /** interactive (a person waits; default) or background (poller, digests): served after interactive. */
  priority?: Priority;
  signal?: AbortSignal;
  /** Give up with PlatformRateLimitedError rather than wait longer than this for the rate budget. */
  maxWaitMs?: number;
  /** Skip the read cache: a health check must reach the platform. */
  fresh?: boolean;
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
  /** What the client keeps across a restart (the store): see `PlatformMemory`. */
  memory?: PlatformMemory;
  /**
   * Who vouched for the platform address and which other hosts may be reached (see `PlatformReach`).
   * Default: the operator configured `baseUrl` (PLATFORM_URL), no other host. Distribution mode
   * gives a workspace's address `operatorConfigured: false` and the operator's `PLATFORM_HOSTS`.
   */
  reach?: { allowedHosts?: readonly string[]; operatorConfigured?: boolean };
}

/**
 * What a platform client keeps outside the process (the store), so that the next process starts
 * where this one stopped: the rate budget's grants (the platform counts them in its window whoever
 * sent them) and the cached reads (a person's first request after a restart costs no more requests
 * than before it). Entries come back with their own expiry; a memory that fails costs the speed, never
 * a request's answer.
 */
export interface PlatformMemory {
  grants: GrantMemory;
  reads: { recall(): Promise<unknown[]>; keep(entries: readonly unknown[]): Promise<void> };
}

const isKeptEntry = (e: unknown): e is KeptEntry =>
  typeof e === 'object' &&
  e !== null &&
  typeof (e as KeptEntry).key === 'string' &&
  typeof (e as KeptEntry).tag === 'string' &&
  typeof (e as KeptEntry).expiresAt === 'number' &&
  'value' in e;

/** Cached reads are kept at most this often (a write of a few kB to a few hundred). */
const keepReadsEveryMs = 5_000;

/** What the client counts: its attempts, their waits for the budget, 429s and answers not understood. */
type ClientMetrics = Pick<
  WorkspaceMetrics,
  'platformRequest' | 'budgetWait' | 'rateLimited' | 'platformNotUnderstood'
>;

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

/** The rate-limit headers looked for (lower case, as undici gives them). */
const rateLimitHeaders = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];

/** The warning logged when an answer's body did not arrive whole (its cause is in the error). */
const cutShort = { 'too-slow': 'platform answer too slow', broken: 'platform answer broke off' } as const;

/** How long past its TTL background work may still use a cached read (see `TtlCache`). */
const cacheStaleMs = 15 * 60_000;

/** What readiness and the log say when the platform refuses our credentials (no secret in them). */
export const staticTokenExpired =
  'PLATFORM_TOKEN expired: set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal';
const tokenRequestRefused = (status: number) =>
  `The platform refused PLATFORM_USERNAME/PLATFORM_PASSWORD (the token request answered ${status}): check them`;
const freshTokenRefused =
  'The platform refuses even a fresh token for PLATFORM_USERNAME: check PLATFORM_USERNAME/PLATFORM_PASSWORD and that this user may use the API';

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
  /** The platform's origin: only it gets the token, and only its answers tell of the rate limit. */
  private readonly origin: string;
  private readonly tokens: TokenProvider;
  private readonly cache: TtlCache;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly logger: ClientLogger | undefined;
  /** What the walks of lists learned of each list (see `paginate`). */
  private readonly pages = new PageMemory();
  /** Where each request attempt, its wait for the budget and the platform's 429s are counted. */
  private metrics: ClientMetrics | undefined;
  /** Until the memory answered (at most `recallDeadlineMs`), calls wait: see `PlatformMemory`. */
  private recalled: Promise<void> | undefined;
  private readonly memory: PlatformMemory | undefined;
  private keepReadsTimer: NodeJS.Timeout | undefined;
  /** Set by `stopWaiting`: no request waits for the budget any more. */
  private stopping = false;

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
    this.origin = new URL(this.baseUrl).origin;
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
    this.memory = options.memory;
    if (this.memory) this.recalled = this.recall(this.memory);
  }

  /** Starts from what `memory` kept (grants, cached reads), waiting for it `recallDeadlineMs` at most. */
  private async recall(memory: PlatformMemory): Promise<void> {
    const reads = memory.reads
      .recall()
      .then((entries) => this.cache.restore(entries.filter(isKeptEntry)))
      .catch((error: unknown) =>
        this.logger?.info({ err: error }, 'platform memory: cached reads not recalled'),
      );
    const grants = this.budget.remember(memory.grants);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, recallDeadlineMs);
      timer.unref?.();
    });
    await Promise.race([Promise.all([reads, grants]), deadline]);
    clearTimeout(timer);
    this.recalled = undefined;
    this.cache.onChange = () => {
      if (this.keepReadsTimer) return;
      this.keepReadsTimer = setTimeout(() => this.keepReads(), keepReadsEveryMs);
      this.keepReadsTimer.unref?.();
    };
  }

  /** Keeps the cached reads in the memory now (a failure costs the next start a few reads). */
  private keepReads(): Promise<void> {
    clearTimeout(this.keepReadsTimer);
    this.keepReadsTimer = undefined;
    if (!this.memory) return Promise.resolve();
    return this.memory.reads
      .keep(this.cache.kept())
      .catch((error: unknown) => this.logger?.info({ err: error }, 'platform memory: cached reads not kept'));
  }

  /**
   * Counts every request attempt (by lane and outcome), its wait for the budget, the platform's 429s
   * there and its answers not understood: the composition root gives its instance's metrics (the
   * client is built before it).
   */
  instrument(metrics: ClientMetrics): void {
    this.metrics = metrics;
  }

  /** About how long a request of this priority would wait for the rate budget now, in ms. */
  estimateWaitMs(priority: Priority = 'interactive'): number {
    return this.budget.estimateWaitMs(priority);
  }

  /**
   * What a cached read answered last (within its TTL or a little past it), without a request; undefined
   * when it was not read lately. For what a person's answer may show without waiting (a card's labels).
   */
  peek<N extends EndpointName>(name: N, input: Input<N>): Output<N> | undefined {
    const spec: EndpointSpec = endpoints[name];
    if (!spec.cache) return undefined;
    return this.cache.peek(`${name} ${requestUrl(this.baseUrl, name, spec, input)}`) as Output<N> | undefined;
  }

  /** Calls one operation of the endpoint table by name. */
  async call<N extends EndpointName>(name: N, ...[input, options]: Args<N>): Promise<Output<N>> {
    if (this.recalled) await this.recalled;
    const spec: EndpointSpec = endpoints[name];
    const url = requestUrl(this.baseUrl, name, spec, input);
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
    // A fresh read (a health check) is the newest there is: the next cached read takes it.
    if (spec.cache) this.cache.set(`${name} ${url}`, spec.cache, result);
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

  /**
   * The bot is stopping: every request waiting for the rate budget is rejected now, and no new one
   * is queued (both with PlatformClosedError), so a job waiting for the budget ends at once instead
   * of holding the stop until its deadline. Requests already sent finish.
   */
  stopWaiting(): void {
    this.stopping = true;
    void this.budget.close(new PlatformClosedError('queued request'));
  }

  /** Closes connections and rejects queued requests. */
  async close(): Promise<void> {
    this.stopping = true;
    const reads = this.keepReadsTimer ? this.keepReads() : Promise.resolve();
    // Closed again (`stopWaiting` may have closed it): resolves once its grants are kept.
    await Promise.all([this.budget.close(new PlatformClosedError('queued request')), reads]);
    await this.dispatcher.close();
  }

  /**
   * Sends one operation's request until it has an answer to give: each attempt waits for the budget
   * (`spend`); no answer, a 429, a 5xx or a 401 go through the retry step (the retry policy's
   * decision carried out); a download's redirect is followed, hop by hop; the answer is read as the
   * operation expects (`readAnswer`).
   */
  private async send(
    name: string,
    method: HttpMethod,
    output: EndpointSpec['output'],
    url: string,
    withAuth: boolean,
    options: CallOptions,
  ): Promise<unknown> {
    let target = url;
    await this.check(name, target);
    let token = await this.tokenFor(target, withAuth);
    let renewed = false;
    let hops = 0;
    for (let attempt = 1; ; attempt++) {
      const retry = (failure: RequestFailure, failed: () => Error, mayRenewToken = false) =>
        retryStep(this.retryContext(options), name, { method, attempt, mayRenewToken }, failure, failed);
      const sent = await this.spend({ name, method, target, token, attempt }, options);
      if (sent.kind === 'failed') {
        await retry({ kind: 'network', code: sent.code }, () => this.unreached(sent.failure));
        continue;
      }
      const { response } = sent;
      // A download may be sent elsewhere (a file store): followed by hand, each hop checked again
      // and without the token off the platform's origin. An API answer's redirect is an error.
      if (output === 'stream' && isRedirect(response.statusCode)) {
        target = await followRedirect(name, response, target, ++hops, (next) => this.check(name, next));
        token = await this.tokenFor(target, withAuth);
        attempt--; // a redirect is not a failed attempt
        continue;
      }
      this.learn(name, method, target, token, sent);
      const answer = await readAnswer(name, method, response, output, this.bodyDeadlineMs);
      switch (answer.kind) {
        case 'download':
          return answer.download;
        case 'data':
          return answer.data;
        case 'unusable':
          throw this.unusable(answer.error);
        case 'too-slow':
        case 'broken':
          this.logger?.warn({ op: name, code: answer.error.causeCode, attempt }, cutShort[answer.kind]);
          await retry(answer.failure, () => answer.error);
          continue;
        case 'status': {
          const mayRenew = token !== undefined && this.tokens.renewable && !renewed;
          const refused = () => this.refused(answer, withAuth, redirectHost(response, target));
          if ((await retry(answer, refused, mayRenew)) === 'renew-token') {
            renewed = true;
            attempt--; // the renewal retry does not count against the attempts
            token = await this.tokens.afterUnauthorized(token as string);
          }
        }
      }
    }
  }

  /** The token goes to the platform's own origin only: a redirect or a `url` elsewhere gets none. */
  private async tokenFor(target: string, withAuth: boolean): Promise<string | undefined> {
    return withAuth && new URL(target).origin === this.origin ? await this.tokens.token() : undefined;
  }

  /**
   * The platform's refusal (a non-2xx answer no retry cures; an API answer's redirect, with the
   * host it points to), noting when even a fresh token was refused.
   */
  private refused(
    answer: { name: string; status: number; body: unknown },
    withAuth: boolean,
    redirectedTo: string | undefined,
  ): PlatformHttpError {
    if (answer.status === 401 && withAuth && this.tokens.renewable)
      this.findings.authFailed(freshTokenRefused);
    return new PlatformHttpError(answer.name, answer.status, answer.body, redirectedTo);
  }

  /**
   * One attempt, in its turn: refused at once when the caller may not wait that long for the rate
   * budget, else sent once the budget grants it (the wait and the attempt counted in the metrics).
   */
  private async spend(request: Omit<AttemptRequest, 'signal'>, options: CallOptions): Promise<Attempted> {
    const priority = options.priority ?? currentLane();
    if (this.stopping) throw new PlatformClosedError(request.name);
    const wait = this.budget.estimateWaitMs(priority);
    if (options.maxWaitMs !== undefined && wait > options.maxWaitMs)
      throw new PlatformRateLimitedError(request.name, wait);
    // Work with a deadline for its grants (a workflow step): not sent when it cannot be granted in time.
    const deadline = grantDeadline();
    if (deadline && wait > deadline.remainingMs())
      throw new PlatformGrantDeadlineError(request.name, deadline.ms);
    const signals = [options.signal, deadline?.signal].filter((s): s is AbortSignal => s !== undefined);
    const asked = performance.now();
    const grantedAt = await this.budget
      .acquire(priority, signals.length > 1 ? AbortSignal.any(signals) : signals[0])
      .catch((error: unknown) => {
        throw error instanceof PlatformGrantDeadlineError
          ? new PlatformGrantDeadlineError(request.name, error.deadlineMs)
          : error;
      });
    if (request.method !== 'GET') deadline?.wrote();
    const sent = performance.now();
    this.metrics?.budgetWait(priority, (sent - asked) / 1000);
    const count = (outcome: PlatformOutcome) =>
      this.metrics?.platformRequest(priority, outcome, (performance.now() - sent) / 1000);
    try {
      return await attempt(this.dispatcher, { ...request, signal: options.signal }, count, this.logger);
    } finally {
      this.budget.answered(grantedAt);
    }
  }

  /** What retrying needs of this client, for one call. */
  private retryContext(options: CallOptions): RetryContext {
    return {
      budget: this.budget,
      logger: this.logger,
      backoffBaseMs: this.backoffBaseMs,
      maxAttempts: this.maxAttempts,
      maxWaitMs: options.maxWaitMs,
      signal: options.signal,
    };
  }

  /**
   * An answer the caller cannot use. One not of the shape expected tells its person "the team has
   * been told": that is made true here, by a warning line (the field, never the body) and a metric.
   */
  private unusable(error: PlatformResponseError): PlatformResponseError {
    const { operation: op, field, problem } = error;
    this.logger?.warn(
      { op, field, problem },
      error.explained ? 'platform answer unusable' : 'platform answer not understood',
    );
    if (!error.explained) this.metrics?.platformNotUnderstood(op);
    return error;
  }

  /** The platform did not answer, for the last time: readiness and the doctor say so. */
  private unreached(failure: PlatformNetworkError): PlatformNetworkError {
    this.findings.noAnswer(
      `platform: ${this.baseUrl} could not be reached (${failure.causeCode ?? failure.reason})`,
    );
    return failure;
  }

  /**
   * What an answer tells beyond itself: a 429 is counted; the platform's own answers (not a file
   * store's) feed the rate budget and say whether our token is accepted.
   */
  private learn(
    name: string,
    method: HttpMethod,
    target: string,
    token: string | undefined,
    { response, ms }: Extract<Attempted, { kind: 'answer' }>,
  ): void {
    const { statusCode: status, headers } = response;
    if (status === 429) this.metrics?.rateLimited('platform');
    if (new URL(target).origin === this.origin) {
      this.findings.answered();
      this.learnRateLimit(headers);
    }
    if (token !== undefined) this.learnAuth(status);
    this.logger?.debug({ op: name, method, status, ms }, 'platform request');
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
