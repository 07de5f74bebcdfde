/*
 * The simulator's own reading of request parameters, written from platform-api.md independently of
 * the client's zod schemas: it is the client's test peer, so a mistake shared by both would hide.
 */

/** A 4xx answer with a JSON body that names the parameter (legacy shape plus `error`). */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameter?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  get body() {
    return {
      code: this.status,
      error: this.message,
      message: this.message,
      ...(this.parameter ? { details: `Parameter ${this.parameter}` } : {}),
    };
  }
}

export const bad = (parameter: string, message: string) =>
  new SimHttpError(400, `Parameter ${parameter}: ${message}`, parameter);

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;
const PHONE = /^\+[1-9][0-9]{6,14}$/;
const UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
/** Epoch ms of matched `Y M D [h m s]` groups, or undefined when they name no real instant (Feb 30, 25:00…). */
function exactUtc(m: RegExpExecArray | null): number | undefined {
  if (!m) return undefined;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0] = m.slice(1).map((x) => Number(x ?? 0));
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const t = new Date(ms);
  const same =
    t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h;
  return same && mi < 60 && se < 60 ? ms : undefined;
}
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Mailboxes the platform refuses as ticket recipients ("no generic or shared mailbox"). */
const GENERIC_MAILBOXES = [
  'info',
  'contact',
  'support',
  'admin',
  'noreply',
  'no-reply',
  'sales',
  'office',
  'hello',
];

export class Params {
  constructor(private readonly values: URLSearchParams) {}

  has(name: string): boolean {
    return this.values.has(name) && this.values.get(name) !== '';
  }

  raw(name: string): string | undefined {
    const v = this.values.get(name);
    return v === null || v === '' ? undefined : v;
  }

  required(name: string): string {
    const v = this.raw(name);
    if (v === undefined) throw bad(name, 'is required');
    return v;
  }

  text(name: string, opts: { min?: number; max?: number } = {}): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (opts.min !== undefined && v.length < opts.min)
      throw bad(name, `must be at least ${opts.min} characters`);
    if (opts.max !== undefined && v.length > opts.max)
      throw bad(name, `must be at most ${opts.max} characters`);
    return v;
  }

  int(name: string, opts: { min?: number; max?: number } = {}): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) throw bad(name, 'must be an integer');
    const n = Number(v);
    if (opts.min !== undefined && n < opts.min) throw bad(name, `must be at least ${opts.min}`);
    if (opts.max !== undefined && n > opts.max) throw bad(name, `must be at most ${opts.max}`);
    return n;
  }

  number(name: string, min: number, max: number): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw bad(name, `must be a number from ${min} to ${max}`);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (['1', 'true', 'TRUE', 'True'].includes(v)) return true;
    if (['0', 'false', 'FALSE', 'False'].includes(v)) return false;
    throw bad(name, 'must be true or false');
  }

  /** `YYYY-MM-DDThh:mm:ssZ`, a real instant. Returns epoch ms. */
  utc(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const ms = exactUtc(UTC.exec(v));
    if (ms === undefined) throw bad(name, 'must be a UTC date-time YYYY-MM-DDThh:mm:ssZ');
    return ms;
  }

  /** `YYYY-MM-DD`. */
  date(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (exactUtc(/^(\d{4})-(\d{2})-(\d{2})$/.exec(v)) === undefined)
      throw bad(name, 'must be a date YYYY-MM-DD');
    return v;
  }

  /** Report bounds: a date, a date with time, or Unix seconds. Returns epoch ms. */
  reportTime(name: string): number {
    const v = this.required(name);
    if (/^\d{9,11}$/.test(v)) return Number(v) * 1000;
    const ms = exactUtc(/^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})Z?)?$/.exec(v));
    if (ms === undefined) throw bad(name, 'must be YYYY-MM-DD, YYYY-MM-DD hh:mm:ss or Unix seconds');
    return ms;
  }

  list(name: string): string[] {
    const v = this.raw(name);
    return v === undefined
      ? []
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  }

  emails(name: string, opts: { forbidGeneric?: boolean } = {}): string[] {
    const list = this.list(name);
    for (const e of list) {
      if (!EMAIL.test(e)) throw bad(name, `"${e}" is not an e-mail address`);
      if (opts.forbidGeneric && GENERIC_MAILBOXES.includes(e.slice(0, e.indexOf('@')).toLowerCase())) {
        throw bad(name, `"${e}" is a generic or shared mailbox`);
      }
    }
    return list;
  }

  phones(name: string): string[] {
    const list = this.list(name);
    for (const p of list) if (!PHONE.test(p)) throw bad(name, `"${p}" is not an international phone number`);
    return list;
  }

  /** Conference participants: e-mails or international mobile numbers. */
  participants(name: string, required: boolean): string[] | undefined {
    if (!this.has(name)) {
      if (required) throw bad(name, 'is required');
      return undefined;
    }
    const list = this.list(name);
    if (!list.length) throw bad(name, 'must list at least one participant');
    for (const p of list) {
      if (!EMAIL.test(p) && !PHONE.test(p)) throw bad(name, `"${p}" is neither an e-mail nor a phone number`);
    }
    return list;
  }

  country(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!/^[A-Z]{2}$/.test(v) || !regionNames.of(v)) throw bad(name, 'must be an ISO 3166-1 alpha-2 code');
    return v;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) throw bad(name, `must be one of ${allowed.join(', ')}`);
    return v as T;
  }

  serviceKey(name: string): string | undefined {
    const v = this.raw(name);
    if (v !== undefined && !/^[a-z0-9]{32}$/.test(v)) throw bad(name, 'must be a 32-character service key');
    return v;
  }

  paging(defaultLimit: number): { offset: number; limit: number } {
    return {
      offset: this.int('offset', { min: 0 }) ?? 0,
      limit: this.int('limit', { min: 1, max: 1000 }) ?? defaultLimit,
    };
  }

  order(): 'asc' | 'desc' {
    return this.oneOf('order', ['asc', 'desc'] as const) ?? 'desc';
  }
}
