import { type Dispatcher, request } from 'undici';
import type { ProxySettings } from '../config/config.js';
import { userAgent } from '../observability/version.js';
import { type EndpointName, endpoints } from '../platform/endpoints.js';
import type { PlatformReach } from '../platform/host-guard.js';
import { platformAgent } from '../platform/proxy.js';
import type { RateBudget } from '../platform/rate-budget.js';

/*
 * The doctor's own look at the platform: a handful of single requests whose raw answers (status,
 * headers, body) it reads, where the client would parse, retry and hide them. Paths and wire names
 * come from the endpoint table, like the client's. Only GETs, and the sign-in POST (which writes
 * nothing); each request is counted and the count is capped.
 */

/** The most platform requests one doctor run may spend (the platform allows about 10 a minute). */
export const maxPlatformRequests = 8;

export type ProbeAnswer =
  | { ok: true; status: number; headers: Record<string, string>; body: unknown; ms: number }
  | { ok: false; status: number; headers: Record<string, string>; body: unknown; ms: number }
  /** No answer: the connection failed or timed out (`code`: ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT…). */
  | { ok: false; status: 0; code: string; headers: Record<string, string>; body: undefined; ms: number };

export interface ProbeOptions {
  baseUrl: string;
  /** The platform client's rate budget: the doctor's requests count against it like the bot's. */
  budget?: RateBudget;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /** Set: the probe goes through the proxy, as the bot's requests do. */
  proxy?: ProxySettings | undefined;
  /**
   * Distribution mode: a workspace's admin typed the address, so the probe's connections pass the
   * address guard as the workspace's client does (the doctor shows what answered: it must not read
   * this host's network for anyone).
   */
  reach?: Omit<PlatformReach, 'baseUrl'> | undefined;
}

export class PlatformProbe {
  /** Every request sent, in order (what the report counts). */
  readonly sent: { method: string; path: string }[] = [];
  /** Rate-limit headers seen on any answer (lower-case names). */
  readonly rateLimitHeaders = new Set<string>();
  private readonly dispatcher: Dispatcher;
  private readonly baseUrl: string;

  constructor(private readonly o: ProbeOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.dispatcher = platformAgent(
      o.timeouts,
      o.proxy,
      o.reach ? { ...o.reach, baseUrl: this.baseUrl } : undefined,
    );
  }

  /** How many requests are left in this run. */
  get left(): number {
    return maxPlatformRequests - this.sent.length;
  }

  /** One operation of the endpoint table, once, without retry. Only reads (and the sign-in). */
  async send(name: EndpointName, input: Record<string, unknown>, token?: string): Promise<ProbeAnswer> {
    const spec = endpoints[name];
    if (spec.method !== 'GET' && name !== 'createToken')
      throw new Error(`the doctor only reads: ${name} is a ${spec.method}`);
    if (this.left <= 0) throw new Error(`the doctor spends at most ${maxPlatformRequests} platform requests`);
    const url = this.urlOf(name, input);
    this.sent.push({ method: spec.method, path: new URL(url).pathname });
    await this.o.budget?.acquire('interactive');
    const started = Date.now();
    try {
      const response = await request(url, {
        method: spec.method,
        dispatcher: this.dispatcher,
        headers: {
          accept: 'application/json',
          'user-agent': userAgent,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      const headers = flatHeaders(response.headers);
      for (const h of Object.keys(headers))
        if (/^x-ratelimit-|^retry-after$/.test(h)) this.rateLimitHeaders.add(h);
      this.o.budget?.observe(num(headers['x-ratelimit-remaining']), num(headers['x-ratelimit-reset']));
      const text = await response.body.text().catch(() => '');
      const body = parseBody(text);
      const ms = Date.now() - started;
      const status = response.statusCode;
      return { ok: status >= 200 && status < 300, status, headers, body, ms };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).name;
      return { ok: false, status: 0, code, headers: {}, body: undefined, ms: Date.now() - started };
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** The URL the client would call: `{name}` path segments filled, the rest in the query under wire names. */
  private urlOf(name: EndpointName, input: Record<string, unknown>): string {
    const spec = endpoints[name];
    const values = spec.input.parse(input) as Record<string, unknown>;
    const wire = (spec as { wire?: Record<string, string> }).wire ?? {};
    const path = spec.path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(String(values[key])));
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) {
      if (spec.path.includes(`{${key}}`) || value === undefined || value === null) continue;
      query.set(wire[key] ?? key, Array.isArray(value) ? value.map(String).join(',') : String(value));
    }
    const qs = query.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }
}

const num = (v: string | undefined) => {
  const n = v === undefined ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The platform's own words in an error answer (JSON `error`/`message`/`detail(s)`, or a short text). */
export function platformWords(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text ? text.slice(0, 160) : undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const o = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error', 'detail', 'details', 'title']) {
    const v = o[key];
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 160);
    if (v && typeof v === 'object') return JSON.stringify(v).slice(0, 160);
  }
  return undefined;
}

/** The items of a list answer, whatever envelope (`data`, `items`, or a bare array). */
export function itemsOf(body: unknown): Record<string, unknown>[] | undefined {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null
      ? ((body as Record<string, unknown>).data ?? (body as Record<string, unknown>).items)
      : undefined;
  return Array.isArray(list)
    ? list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    : undefined;
}

/** Why an answer is not the one hoped for, as the operator reads it. */
export function answerText(a: ProbeAnswer): string {
  if (a.status === 0) return `no answer (${'code' in a ? a.code : 'network'})`;
  const words = platformWords(a.body);
  const html = typeof a.body === 'string' && /<html|<!doctype/i.test(a.body) ? ', an HTML page' : '';
  return `${a.status}${html}${words ? `: “${words}”` : ''}`;
}
