import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { SimFaults } from './faults.js';
import { hostileJson, hostileReply, hostileStream, type SimHostility, streamsJson } from './hostile.js';
import type { SimEnterprise, SimUser } from './model.js';
import { emptyObjectsAsArrays } from './present.js';
import type { SimQuirks } from './quirks.js';
import type { Reply } from './reply.js';
import { Params, SimHttpError } from './rules.js';
import type { SimState } from './state.js';
import type { WebhookConfig } from './webhooks.js';

/*
 * The simulator's HTTP side, apart from what any route answers: the router (an `/api/v3` table and
 * a `/_sim` admin table), bearer tokens, the per-user rate window, injected faults, the wire-level
 * quirks (ignored create parameters, `[]` for empty objects) and the request log. The routes
 * themselves are registered by `routes/*.ts`.
 */

/** A request's query for the log: a user's or a token request's password replaced (not a conference PIN). */
function withoutPasswords(path: string, query: Record<string, string>): Record<string, string> {
  if (!('password' in query) || path.startsWith('/api/v3/conferences')) return query;
  return { ...query, password: '[redacted]' };
}

/** One answered `/api/v3` request, as `GET /_sim/requests` and `Simulator.requests` list it. */
export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  userId: number | undefined;
  /** The client's User-Agent header, as a platform's access log keeps it (absent when none was sent). */
  userAgent: string | undefined;
  at: number;
}

/** The simulator's settings, one object the admin routes and `Simulator` change at runtime (all but the window). */
export interface SimSettings {
  /** Requests per minute per user; 0 for none. */
  rateLimit: number;
  rateWindowMs: number;
  /** Lifetime of tokens from `POST /api/v3/token`, in seconds. */
  tokenTtl: number;
  webhook: WebhookConfig | undefined;
}

export type { Reply };

/** One request as a route sees it: parameters (query and body merged), path values and the caller. */
export interface Ctx {
  q: Params;
  p: Record<string, string>;
  user: SimUser;
  ent: SimEnterprise;
  isStaticAdmin: boolean;
  token: string;
}
export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
  public?: boolean;
}

/** Requests the log keeps by default (the playground shows the last ones). */
const defaultLogSize = 2_000;

export interface SimHttpDeps {
  state: SimState;
  now: () => number;
  quirks: SimQuirks;
  faults: SimFaults;
  /** What a hostile platform answers instead (`hostile.ts`): off unless set. */
  hostility: SimHostility;
  settings: SimSettings;
  adminToken: string;
  /** The user behind the static admin token and public routes. */
  adminUser: SimUser;
  /** Requests the log keeps, the newest (default 2,000). */
  logSize?: number | undefined;
}

/** Builds the router and request handling; `listen` starts the server once the routes are registered. */
export function createSimHttp({
  state,
  now,
  quirks,
  faults,
  hostility,
  settings,
  adminToken,
  adminUser,
  logSize = defaultLogSize,
}: SimHttpDeps) {
  const tokens = new Map<string, { userId: number; expiresAt: number }>();
  const windows = new Map<number, { start: number; count: number }>();
  const requests: RequestLogEntry[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  const issueToken = (user: SimUser, ttl = settings.tokenTtl) => {
    const token = `sim-${randomBytes(16).toString('hex')}`;
    tokens.set(token, { userId: user.id, expiresAt: now() + ttl * 1000 });
    return token;
  };

  const routes: Route[] = [];
  const adminRoutes: Route[] = [];
  const route = (method: string, path: string, handler: Handler, isPublic = false, table = routes) => {
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/\{(\w+)\}/g, (_, k: string) => {
        keys.push(k);
        return '([^/]+)';
      })}$`,
    );
    table.push({ method, pattern, keys, handler, public: isPublic });
  };
  /** An admin route (`/_sim/…`, static admin token only), for tests, demos and the poller's playground. */
  const admin = (method: string, path: string, handler: Handler) =>
    route(method, path, handler, false, adminRoutes);

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const readBody = async (req: IncomingMessage): Promise<URLSearchParams> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > 1_000_000) throw new SimHttpError(413, 'Request body too large');
      chunks.push(c as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8').trim();
    if (!text) return new URLSearchParams();
    // Legacy clients send bodies; the spec sends everything in the query string. Accept both.
    if (text.startsWith('{')) {
      try {
        const json = JSON.parse(text) as Record<string, unknown>;
        return new URLSearchParams(
          Object.entries(json).map(
            ([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)] as [string, string],
          ),
        );
      } catch {
        throw new SimHttpError(400, 'Malformed JSON body');
      }
    }
    return new URLSearchParams(text);
  };

  const authenticate = (req: IncomingMessage, isApi: boolean) => {
    const h = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    if (!m) throw new SimHttpError(401, 'Unauthorized: missing bearer token');
    const token = m[1] as string;
    if (token === adminToken) {
      if (isApi && quirks.expiredStaticToken) throw new SimHttpError(401, 'Unauthorized: token expired');
      return { user: adminUser, isStaticAdmin: true, token };
    }
    const t = tokens.get(token);
    if (!t) throw new SimHttpError(401, 'Unauthorized: invalid token');
    if (t.expiresAt <= now()) throw new SimHttpError(401, 'Unauthorized: token expired');
    const user = state.users.get(t.userId);
    if (!user || user.deleted) throw new SimHttpError(401, 'Unauthorized: user removed');
    return { user, isStaticAdmin: false, token };
  };

  /** Fixed one-minute window per user, like the real service; answers the X-RateLimit headers. */
  const rateCheck = (userId: number): Record<string, string> => {
    const { rateLimit, rateWindowMs } = settings;
    if (rateLimit <= 0) return {};
    const t = now();
    let w = windows.get(userId);
    if (!w || t - w.start >= rateWindowMs) {
      w = { start: t, count: 0 };
      windows.set(userId, w);
    }
    const reset = String(Math.max(1, Math.ceil((w.start + rateWindowMs - t) / 1000)));
    if (w.count >= rateLimit) {
      throw new SimHttpError(
        429,
        `Rate limit exceeded: ${rateLimit} requests per minute`,
        undefined,
        rateHeaders(rateLimit, 0, reset),
      );
    }
    w.count++;
    return rateHeaders(rateLimit, rateLimit - w.count, reset);
  };
  /** The rate-limit headers of an answer; with the `onlyResetHeader` quirk, as documented: Reset alone. */
  const rateHeaders = (limit: number | undefined, remaining: number, reset: string) =>
    quirks.onlyResetHeader
      ? { 'x-ratelimit-reset': reset }
      : {
          ...(limit === undefined ? {} : { 'x-ratelimit-limit': String(limit) }),
          'x-ratelimit-remaining': String(remaining),
          'x-ratelimit-reset': reset,
        };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const method = req.method ?? 'GET';
    const isApi = url.pathname.startsWith('/api/v3/');
    let status = 500;
    let userId: number | undefined;
    let extraHeaders: Record<string, string> = {};
    try {
      if (url.pathname === '/_sim/health') {
        status = 200;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      }
      const bodyParams = await readBody(req);
      for (const [k, v] of url.searchParams) bodyParams.set(k, v);
      if (method === 'POST' && /^\/api\/v3\/(tickets|conferences)$/.test(url.pathname))
        for (const name of quirks.ignoredCreateParams) bodyParams.delete(name);
      const table = url.pathname.startsWith('/_sim/') ? adminRoutes : routes;
      const candidates = table.filter((r) => r.pattern.test(url.pathname));
      const match = candidates.find((r) => r.method === method);
      if (!match) {
        throw candidates.length
          ? new SimHttpError(405, `Method ${method} not allowed`)
          : new SimHttpError(404, 'Resource Not Found');
      }
      if (isApi) {
        if (faults.latencyMs > 0) await sleep(faults.latencyMs);
        if (faults.hangRate > 0 && Math.random() < faults.hangRate) {
          hanging.add(res);
          res.on('close', () => hanging.delete(res));
          return;
        }
        if (faults.rateLimitStorm) {
          throw new SimHttpError(
            429,
            'Rate limit exceeded',
            undefined,
            rateHeaders(undefined, 0, String(faults.stormResetSeconds)),
          );
        }
        if (faults.failNext > 0 && (!faults.failNextMethod || faults.failNextMethod === method)) {
          faults.failNext--;
          throw new SimHttpError(faults.failNextStatus, 'Injected failure');
        }
        if (faults.errorRate > 0 && Math.random() < faults.errorRate) {
          throw new SimHttpError(faults.errorStatus, 'Injected failure');
        }
      }
      let ctx: Ctx;
      const values = Object.fromEntries(
        match.keys.map((k, i) => [k, match.pattern.exec(url.pathname)?.[i + 1] ?? '']),
      );
      if (match.public) {
        ctx = {
          q: new Params(bodyParams),
          p: values,
          user: adminUser,
          ent: state.enterprises.get(1) as SimEnterprise,
          isStaticAdmin: false,
          token: '',
        };
      } else {
        const auth = authenticate(req, isApi);
        if (table === adminRoutes && !auth.isStaticAdmin)
          throw new SimHttpError(403, 'Admin routes need the admin token');
        userId = auth.user.id;
        if (isApi) extraHeaders = rateCheck(auth.user.id);
        const ent = state.enterprises.get(auth.user.enterpriseId);
        if (!ent) throw new SimHttpError(500, 'user without enterprise');
        ctx = {
          q: new Params(bodyParams),
          p: values,
          user: auth.user,
          ent,
          isStaticAdmin: auth.isStaticAdmin,
          token: auth.token,
        };
      }
      const routed = await match.handler(ctx);
      const reply = isApi ? hostileReply(hostility, method, url.pathname, routed) : routed;
      status = reply.status ?? 200;
      const headers = { ...extraHeaders, ...reply.headers };
      const pipe = (stream: Readable, head: Record<string, string>) => {
        res.writeHead(status, head);
        stream.on('error', () => res.destroy());
        res.on('close', () => stream.destroy());
        stream.pipe(res);
      };
      if (reply.stream) {
        const sent = isApi
          ? hostileStream(hostility, headers, reply.stream)
          : { headers, stream: reply.stream };
        pipe(sent.stream, sent.headers);
      } else if (reply.body === undefined) {
        res.writeHead(status, headers).end();
      } else {
        const text = JSON.stringify(
          isApi && quirks.emptyObjectsAsArrays ? emptyObjectsAsArrays(reply.body) : reply.body,
        );
        const head = { 'content-type': 'application/json', ...headers };
        if (isApi && streamsJson(hostility)) pipe(hostileJson(hostility, text), head);
        else res.writeHead(status, head).end(text);
      }
    } catch (error) {
      const e =
        error instanceof SimHttpError
          ? error
          : new SimHttpError(500, `Internal error: ${(error as Error).message}`);
      status = e.status;
      if (!res.headersSent) {
        res.writeHead(e.status, { 'content-type': 'application/json', ...extraHeaders, ...e.headers });
        res.end(JSON.stringify(e.body));
      } else res.destroy();
    } finally {
      if (isApi) {
        requests.push({
          method,
          path: url.pathname,
          // The log (shown by the playground) never holds a user's password.
          query: withoutPasswords(url.pathname, Object.fromEntries(url.searchParams)),
          status,
          userId,
          userAgent: req.headers['user-agent'],
          at: now(),
        });
        if (requests.length > logSize) requests.splice(0, requests.length - logSize);
      }
    }
  };

  /** Starts listening; resolves to the server's URL. */
  const listen = async (port: number, host: string): Promise<string> => {
    const s: Server = createServer((req, res) => {
      handle(req, res).catch(() => res.destroy());
    });
    server = s;
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => resolve());
    });
    const address = s.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}`;
  };

  const close = async () => {
    for (const res of hanging) res.destroy();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };

  return { route, admin, tokens, issueToken, requests, listen, close };
}
