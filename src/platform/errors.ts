/**
 * Typed errors of the platform client. Each has a string `code` and a `userMessage` that is safe to
 * show in Slack: it never contains a token, a password or a raw stack.
 */
export abstract class PlatformError extends Error {
  abstract readonly code: string;
  abstract readonly userMessage: string;
}

/** The request never got an answer: connection refused or reset, DNS failure, or a timeout. */
export class PlatformNetworkError extends PlatformError {
  readonly code = 'platform_network';
  constructor(
    readonly operation: string,
    readonly reason: 'timeout' | 'connection',
    readonly causeCode: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${reason}${causeCode ? ` (${causeCode})` : ''}`, options);
    this.name = 'PlatformNetworkError';
  }
  get userMessage(): string {
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

/** Reads the platform's explanation from an error body of unknown shape (`error`, `message`, `detail(s)`). */
export function describeErrorBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const parts = [b.error, b.message, b.detail, b.details]
    .map((v) => (typeof v === 'string' ? v : v === undefined ? undefined : JSON.stringify(v)))
    .filter((v): v is string => typeof v === 'string' && v.length > 0);
  return parts.length ? [...new Set(parts)].join(' — ').slice(0, 300) : undefined;
}

/** The platform answered with a non-success status. */
export class PlatformHttpError extends PlatformError {
  readonly code = 'platform_http';
  readonly label: string;
  readonly detail: string | undefined;
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    const label = statusLabels[status] ?? `HTTP ${status}`;
    const detail = describeErrorBody(body);
    super(`${operation}: ${status} ${label}${detail ? `: ${detail}` : ''}`);
    this.name = 'PlatformHttpError';
    this.label = label;
    this.detail = detail;
  }
  get userMessage(): string {
    const why = this.detail ? ` (${this.detail})` : '';
    switch (this.status) {
      case 400:
        return `The video platform refused the request${why}.`;
      case 401:
        return 'confdesk could not sign in to the video platform. An administrator should check its credentials.';
      case 403:
        return `The video platform says you are not allowed to do that${why}.`;
      case 404:
        return 'The video platform has no such item: it may have been deleted.';
      default:
        return this.status >= 500
          ? 'The video platform had an internal error. Please try again in a moment.'
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
  ) {
    super(`${operation}: unexpected response at ${field || '(root)'}: ${problem}`);
    this.name = 'PlatformResponseError';
  }
  get userMessage(): string {
    return 'The video platform sent an answer confdesk did not understand. The team has been told.';
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
