/**
 * What confdesk has learned at run time about the platform it talks to: the answers to the guesses
 * the endpoint table marks `inferred` (platform-facts.md, "Not published"). The client, the poller
 * and the services record here; the readiness probe, the log and `npm run doctor` read it. One per
 * platform client (`platform.findings`).
 *
 * Each finding is logged once, when it is first recorded or when its value changes, with the reason,
 * so an operator sees a fallback the day it starts, not only in the doctor.
 */

/** A minimal logger (pino-compatible). */
export interface FindingsLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** The status of one guess: confirmed by an answer, refused (an error), ignored (accepted but not applied). */
export type GuessStatus = 'confirmed' | 'refused' | 'ignored' | 'unknown';

export interface Guess {
  status: GuessStatus;
  /** What was observed, in a sentence an operator can act on. */
  detail: string;
  at: number;
}

export interface AuthFailure {
  /** The sentence that names the fix (no secret in it). */
  message: string;
  at: number;
}

export interface FindingsSnapshot {
  guesses: Record<string, Guess>;
  /** Where `/users/me` carried the enterprise id (`enterprise_id`, `enterpriseId`, `enterprise.id`). */
  enterpriseIdField: string | undefined;
  /** The largest page the platform returned when asked for more, if it ever returned fewer. */
  pageCap: number | undefined;
  /** Rate-limit headers the platform has sent (lower-case names). */
  rateLimitHeaders: string[];
  /** Join-link fields seen on records, per kind (ticket agent/guest, conference). */
  joinLinkFields: Record<string, string>;
  /** Fields the platform did not keep after a create or update, per operation. */
  droppedFields: Record<string, string[]>;
  /** Set while the platform refuses our credentials (401 to a static token, failed token request). */
  authFailure: AuthFailure | undefined;
  /** When the last accepted webhook delivery arrived. */
  lastWebhookAt: number | undefined;
  /** Set while the platform gives no answer at all (the last request's retries ran out). */
  unreachable: AuthFailure | undefined;
}

export class PlatformFindings {
  private readonly guesses = new Map<string, Guess>();
  private enterpriseIdField: string | undefined;
  private pageCap: number | undefined;
  private readonly rateLimitHeaders = new Set<string>();
  private readonly joinLinkFields = new Map<string, string>();
  private readonly droppedFields = new Map<string, Set<string>>();
  private authFailure: AuthFailure | undefined;
  private lastWebhookAt: number | undefined;
  private unreachableSince: AuthFailure | undefined;

  constructor(
    private readonly logger?: FindingsLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the status of a guess (`ticketList.orderby`, `ticketCreate.groupId`…); logs a change once. */
  guess(name: string, status: GuessStatus, detail: string): void {
    const before = this.guesses.get(name);
    this.guesses.set(name, { status, detail, at: this.now() });
    if (before?.status === status) return;
    const log = status === 'confirmed' ? this.logger?.info : this.logger?.warn;
    log?.call(this.logger, { guess: name, status }, `platform: ${name} ${status}: ${detail}`);
  }

  statusOf(name: string): GuessStatus {
    return this.guesses.get(name)?.status ?? 'unknown';
  }

  enterpriseIdFoundIn(field: string): void {
    if (this.enterpriseIdField === field) return;
    this.enterpriseIdField = field;
    if (field !== 'enterprise_id')
      this.logger?.info({ field }, `platform: /users/me carries the enterprise id in ${field}`);
  }

  /** The platform returned `got` items when asked for `asked`, and there were more: it caps pages. */
  pageCapped(asked: number, got: number): void {
    if (got <= 0 || got >= asked || (this.pageCap !== undefined && this.pageCap <= got)) return;
    this.pageCap = got;
    this.logger?.warn(
      { asked, got },
      `platform: pages hold at most ${got} items; asking for ${got} from now on`,
    );
  }

  get learnedPageCap(): number | undefined {
    return this.pageCap;
  }

  rateLimitHeaderSeen(name: string): void {
    this.rateLimitHeaders.add(name.toLowerCase());
  }

  joinLinkField(kind: string, field: string): void {
    if (this.joinLinkFields.get(kind) === field) return;
    this.joinLinkFields.set(kind, field);
    this.logger?.info({ kind, field }, `platform: ${kind} join links are read from ${field}`);
  }

  /** The platform did not keep these fields of what was sent (`operation` as in the endpoint table). */
  dropped(operation: string, fields: string[]): void {
    if (!fields.length) return;
    const set = this.droppedFields.get(operation) ?? new Set<string>();
    const fresh = fields.filter((f) => !set.has(f));
    for (const f of fields) set.add(f);
    this.droppedFields.set(operation, set);
    if (fresh.length)
      this.logger?.warn(
        { operation, fields: fresh },
        `platform: ${operation} did not keep ${fresh.join(', ')}; check the parameter names in src/platform/endpoints.ts`,
      );
  }

  authFailed(message: string): void {
    const first = !this.authFailure;
    this.authFailure = { message, at: this.now() };
    if (first) this.logger?.warn({}, message);
  }

  authSucceeded(): void {
    if (this.authFailure) this.logger?.info({}, 'platform: credentials accepted again');
    this.authFailure = undefined;
  }

  get auth(): AuthFailure | undefined {
    return this.authFailure;
  }

  /** A request got no answer at all, after its retries (readiness turns 503 until an answer comes). */
  noAnswer(message: string): void {
    this.unreachableSince ??= { message, at: this.now() };
  }

  /** The platform answered (any status): it is reachable. */
  answered(): void {
    this.unreachableSince = undefined;
  }

  get unreachable(): AuthFailure | undefined {
    return this.unreachableSince;
  }

  webhookReceived(): void {
    this.lastWebhookAt = this.now();
  }

  snapshot(): FindingsSnapshot {
    return {
      guesses: Object.fromEntries(this.guesses),
      enterpriseIdField: this.enterpriseIdField,
      pageCap: this.pageCap,
      rateLimitHeaders: [...this.rateLimitHeaders].sort(),
      joinLinkFields: Object.fromEntries(this.joinLinkFields),
      droppedFields: Object.fromEntries([...this.droppedFields].map(([k, v]) => [k, [...v]])),
      authFailure: this.authFailure,
      lastWebhookAt: this.lastWebhookAt,
      unreachable: this.unreachableSince,
    };
  }
}
