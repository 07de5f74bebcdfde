/**
 * Typed errors of the platform client. Each has a string `code` and a `userMessage` that is safe to
 * show in Slack: it never contains a token, a password or a raw stack.
 */
export abstract class PlatformError extends Error {
  abstract readonly code: string;
  abstract readonly userMessage: string;
}

/**
 * The request never got a whole answer: connection refused or reset, DNS failure, a timeout, or an
 * answer whose body broke off after its headers (`brokeOff`).
 */
export class PlatformNetworkError extends PlatformError {
  readonly code = 'platform_network';
  /** The answer had begun when the connection broke: `mayBeDone` when the request was not one safe to repeat (a POST). */
  readonly brokeOff: 'retryable' | 'mayBeDone' | undefined;
  constructor(
    readonly operation: string,
    readonly reason: 'timeout' | 'connection',
    readonly causeCode: string | undefined,
    options?: { cause?: unknown; brokeOff?: 'retryable' | 'mayBeDone' },
  ) {
    super(
      `${operation}: ${reason}${causeCode ? ` (${causeCode})` : ''}${options?.brokeOff ? ' mid-answer' : ''}`,
      options,
    );
    this.name = 'PlatformNetworkError';
    this.brokeOff = options?.brokeOff;
  }
  get userMessage(): string {
    // An answer that broke off: the platform was reached, and may have done what a POST asked.
    if (this.brokeOff === 'mayBeDone')
      return 'The connection to the video platform broke off during its answer, so it may have done this already. Please check before trying again.';
    if (this.brokeOff)
      return 'The connection to the video platform broke off during its answer. Please try again in a moment.';
    return this.reason === 'timeout'
      ? 'The video platform took too long to answer. Please try again in a moment.'
      : 'The video platform could not be reached. Please try again in a moment.';
  }
}

/** Labels the spec attaches to statuses (section 7), used in messages. */
const statusLabels: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'Server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** What an error body was: a JSON explanation, a web page (a proxy or a wrong path), text, or nothing. */
export type ErrorBodyKind = 'json' | 'html' | 'text' | 'empty';

const looksLikeHtml = (s: string) =>
  /^\s*(<!doctype html|<html|<head|<body)|<\/(html|body|title|h1|p)>/i.test(s);

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (s: string) =>
  s.replace(/&(#\d+|[a-z]+);/gi, (m, e: string) =>
    e.startsWith('#') ? String.fromCharCode(Number(e.slice(1))) : (entities[e.toLowerCase()] ?? m),
  );
const squash = (s: string) => decode(s).replace(/\s+/g, ' ').trim();

/** The words of a web page: its <title>, else its text without markup, scripts or styles. */
function pageText(html: string): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  if (title && squash(title)) return squash(title).slice(0, 200);
  const text = squash(html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '));
  return text.slice(0, 200) || undefined;
}

/** One field of a JSON error body in words: a string, `{message}`, a list of those, or compact JSON. */
function words(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const parts = v.map(words).filter((x): x is string => !!x);
    return parts.length ? parts.join('; ') : undefined;
  }
  const o = v as Record<string, unknown>;
  const text = words(o.message) ?? words(o.error) ?? words(o.detail);
  if (text) return typeof o.field === 'string' ? `${o.field}: ${text}` : text;
  return JSON.stringify(v);
}

export function errorBodyKind(body: unknown): ErrorBodyKind {
  if (body === undefined || body === null || (typeof body === 'string' && !body.trim())) return 'empty';
  if (typeof body === 'string') return looksLikeHtml(body) ? 'html' : 'text';
  return 'json';
}

/** Reads the platform's explanation from an error body of unknown shape (`error`, `message`, `detail(s)`, HTML, text). */
export function describeErrorBody(body: unknown): string | undefined {
  if (typeof body === 'string') {
    if (looksLikeHtml(body)) return pageText(body);
    return body.trim().slice(0, 300) || undefined;
  }
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const parts = [b.error, b.message, b.detail, b.details, b.errors]
    .map(words)
    .filter((v): v is string => typeof v === 'string' && v.length > 0);
  return parts.length ? [...new Set(parts)].join(' — ').slice(0, 300) : undefined;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Whether a status sends the request elsewhere (API answers are never followed; downloads are, in the client). */
export const isRedirect = (status: number) => redirectStatuses.has(status);

/** Said when an answer looks like it came from a web server rather than the API. */
const checkUrl = 'check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com)';

/** The platform answered with a non-success status. */
export class PlatformHttpError extends PlatformError {
  readonly code = 'platform_http';
  readonly label: string;
  readonly detail: string | undefined;
  readonly bodyKind: ErrorBodyKind;
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
    /** A redirect's (3xx) target host: never its path or query, which may carry a signature. */
    readonly redirectedTo?: string | undefined,
  ) {
    const label = isRedirect(status) ? 'Redirect' : (statusLabels[status] ?? `HTTP ${status}`);
    const detail = describeErrorBody(body);
    const where = isRedirect(status) ? ` to ${redirectedTo ?? 'no readable address'}` : '';
    super(`${operation}: ${status} ${label}${where}${detail ? `: ${detail}` : ''}`);
    this.name = 'PlatformHttpError';
    this.label = label;
    this.detail = detail;
    this.bodyKind = errorBodyKind(body);
  }
  get userMessage(): string {
    const why = this.detail ? ` (${this.detail})` : '';
    const page = this.bodyKind === 'html';
    switch (this.status) {
      case 400:
        return `The video platform refused the request${why}.`;
      case 401:
        return 'confdesk could not sign in to the video platform. An administrator should check its credentials.';
      case 403:
        return `The video platform says you are not allowed to do that${why}.`;
      case 404:
      case 405:
        // The API answers its own 404s in JSON; a web page means the request missed the API.
        if (page)
          return `The video platform answered with a web page${why} instead of the API: an administrator should ${checkUrl}.`;
        return this.bodyKind === 'empty'
          ? `The video platform has no such item: it may have been deleted. If this happens for everything, an administrator should ${checkUrl}.`
          : 'The video platform has no such item: it may have been deleted.';
      default:
        // An API answer that sends confdesk elsewhere: most often PLATFORM_URL on the wrong scheme or host.
        if (isRedirect(this.status))
          return `The video platform redirected this request${this.redirectedTo ? ` to ${this.redirectedTo}` : ' without saying where'} instead of answering it: an administrator should ${checkUrl}.`;
        if (this.status >= 500)
          return 'The video platform had an internal error. Please try again in a moment.';
        if (page)
          return `The video platform answered ${this.status} ${this.label} with a web page${why}: an administrator should ${checkUrl}.`;
        return this.bodyKind === 'empty'
          ? `The video platform answered ${this.status} ${this.label} without saying why. Please try again; if it persists, an administrator should check the confdesk log.`
          : `The video platform answered ${this.status} ${this.label}${why}.`;
    }
  }
}

/** The platform's rate limit was hit and the retries ran out (or waiting was not allowed). */
export class PlatformRateLimitedError extends PlatformError {
  readonly code = 'platform_rate_limited';
  constructor(
    readonly operation: string,
    readonly retryAfterMs: number,
  ) {
    super(`${operation}: rate limited, retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = 'PlatformRateLimitedError';
  }
  get userMessage(): string {
    return `The video platform is busy (rate limit). Please try again in about ${Math.max(1, Math.ceil(this.retryAfterMs / 1000))} s.`;
  }
}

/** An input did not satisfy the spec's rules; nothing was sent. `field` names the offending parameter. */
export class PlatformInputError extends PlatformError {
  readonly code = 'platform_input';
  constructor(
    readonly operation: string,
    readonly field: string,
    readonly problem: string,
    readonly issues: { field: string; problem: string }[] = [{ field, problem }],
  ) {
    super(`${operation}: ${issues.map((i) => `${i.field}: ${i.problem}`).join('; ')}`);
    this.name = 'PlatformInputError';
  }
  get userMessage(): string {
    return this.issues.map((i) => `${i.field}: ${i.problem}`).join('\n');
  }
}

/** The platform answered 2xx with a body that does not have the expected shape. */
export class PlatformResponseError extends PlatformError {
  readonly code = 'platform_response';
  constructor(
    readonly operation: string,
    readonly field: string,
    readonly problem: string,
    /** The problem is a sentence written for people (it names the fix), not a schema detail. */
    readonly explained = false,
  ) {
    super(`${operation}: unexpected response at ${field || '(root)'}: ${problem}`);
    this.name = 'PlatformResponseError';
  }
  get userMessage(): string {
    return this.explained
      ? `The video platform sent an answer confdesk cannot use: ${this.problem}.`
      : 'The video platform sent an answer confdesk did not understand. The team has been told.';
  }
}

/** The client was closed (the bot is stopping) before this request could be sent. */
export class PlatformClosedError extends PlatformError {
  readonly code = 'platform_closed';
  constructor(readonly operation: string) {
    super(`${operation}: the platform client is closed`);
    this.name = 'PlatformClosedError';
  }
  get userMessage(): string {
    return 'confdesk is restarting, so this request was not sent to the video platform. Please try again in a minute.';
  }
}

/**
 * The level for a failure logged and retried later: info when the stop ended it (the client closed:
 * its request was not sent, nothing failed), warn otherwise.
 */
export const retryLevel = (error: unknown): 'info' | 'warn' =>
  error instanceof PlatformClosedError ? 'info' : 'warn';

/**
 * The platform pointed confdesk to an address it does not reach (an export's `url` or a redirect
 * to another host or inside this network, too many redirects), or its own address now resolves
 * inside this network. Nothing was sent there; never retried.
 */
export class PlatformAddressError extends PlatformError {
  readonly code = 'platform_address';
  constructor(
    readonly operation: string,
    readonly host: string,
    readonly problem: string,
  ) {
    super(`${operation}: refused to fetch from ${host}: ${problem}`);
    this.name = 'PlatformAddressError';
  }
  get userMessage(): string {
    return `The video platform pointed confdesk to an address it does not fetch from (${this.host}: ${this.problem}), so nothing was fetched. An administrator should check the platform (and PLATFORM_HOSTS).`;
  }
}

/**
 * A request of work with a deadline for the budget's grant (a workflow step: `withGrantDeadline`)
 * was not granted in time: it was never sent.
 */
export class PlatformGrantDeadlineError extends PlatformError {
  readonly code = 'platform_grant_deadline';
  constructor(
    readonly operation: string,
    readonly deadlineMs: number,
  ) {
    super(`${operation}: not granted by the rate budget within ${Math.round(deadlineMs / 1000)} s`);
    this.name = 'PlatformGrantDeadlineError';
  }
  get userMessage(): string {
    return `The video platform is busy: confdesk’s request did not get its turn within ${Math.max(1, Math.round(this.deadlineMs / 1000))} s (the platform allows about 10 requests a minute), so it was not sent and nothing was changed. Run it again in a minute.`;
  }
}
