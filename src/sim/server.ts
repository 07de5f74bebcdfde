import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { contentStream, zipStream } from './content.js';
import type { SimEnterprise, SimTicket, SimUser } from './model.js';
import {
  emptyObjectsAsArrays,
  envelope,
  iso,
  presentConference,
  presentMedia,
  presentTicket,
  presentUser,
} from './present.js';
import { bad, Params, SimHttpError } from './rules.js';
import { type SimChange, SimState } from './state.js';

/** Faults the simulator can inject into `/api/v3` routes, at start and at runtime (`PUT /_sim/faults`). */
export interface SimFaults {
  /** Added before every answer. */
  latencyMs: number;
  /** Share of requests answered with `errorStatus` (0..1). */
  errorRate: number;
  errorStatus: number;
  /** Every request answered 429 with `X-RateLimit-Reset: stormResetSeconds`. */
  rateLimitStorm: boolean;
  stormResetSeconds: number;
  /** Share of requests that never get an answer (0..1): the client's timeouts must fire. */
  hangRate: number;
  /** The next N requests fail with `failNextStatus` (deterministic retries in tests). */
  failNext: number;
  failNextStatus: number;
  /** Limits `failNext` to requests of this HTTP method ('' for any). */
  failNextMethod: string;
}

export const noFaults: SimFaults = {
  latencyMs: 0,
  errorRate: 0,
  errorStatus: 503,
  rateLimitStorm: false,
  stormResetSeconds: 5,
  hangRate: 0,
  failNext: 0,
  failNextStatus: 503,
  failNextMethod: '',
};

export interface WebhookConfig {
  url: string;
  /** Custom header carrying the shared secret (the platform signs nothing). */
  header: string;
  secret: string;
}

/**
 * Answers like the least convenient real service (platform-facts.md, "Not published"): every switch
 * is a shape or a behaviour the real platform may well have and our client must survive.
 */
export interface SimQuirks {
  /** Empty objects written as `[]` (a PHP backend): event `data`, webhook `props`, `requestor`, `agent`, report sections. */
  emptyObjectsAsArrays: boolean;
  /** `/users/me` carries `enterpriseId` (camel case) instead of `enterprise_id`. */
  camelEnterpriseId: boolean;
  /** `orderby`/`order` on the ticket list are accepted and silently ignored (the default sort, start_time). */
  ignoreOrderBy: boolean;
  /** Pages hold at most this many items whatever `limit` asks (0: no cap). */
  pageCap: number;
  /** Only `X-RateLimit-Reset` is sent, never `X-RateLimit-Remaining`/`-Limit`. */
  onlyResetHeader: boolean;
  /** Join links under names we did not guess first (`links: {agent, guest}` on tickets, `joinLink` on conferences). */
  unknownJoinLinkNames: boolean;
  /** The static admin token is refused (401), as a 24-hour token is the day after. */
  expiredStaticToken: boolean;
  /**
   * Parameters of `POST /tickets` and `POST /conferences` accepted and silently not kept (a wire name
   * we guessed wrong looks like this): the record comes back without them.
   */
  ignoredCreateParams: string[];
}

/** Every quirk on: what `--quirks` and `quirks: true` select. */
export const allQuirks: SimQuirks = {
  emptyObjectsAsArrays: true,
  camelEnterpriseId: true,
  ignoreOrderBy: true,
  pageCap: 20,
  onlyResetHeader: true,
  unknownJoinLinkNames: true,
  expiredStaticToken: false,
  ignoredCreateParams: [],
};
export const noQuirks: SimQuirks = {
  emptyObjectsAsArrays: false,
  camelEnterpriseId: false,
  ignoreOrderBy: false,
  pageCap: 0,
  onlyResetHeader: false,
  unknownJoinLinkNames: false,
  expiredStaticToken: false,
  ignoredCreateParams: [],
};

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Static admin bearer token (never expires). Random when not given. */
  adminToken?: string;
  /** Requests per minute per user; 0 for none. Default 10, as the real service. */
  rateLimit?: number;
  /** Length of the rate limit's fixed window (default one minute; benchmarks run time faster). */
  rateWindowMs?: number;
  /** Lifetime of tokens from `POST /api/v3/token`. Default 86 400 s. */
  tokenTtlSeconds?: number;
  seed?: boolean;
  faults?: Partial<SimFaults>;
  /** `true`: every quirk of `allQuirks` (the static token still works); or a selection. */
  quirks?: boolean | Partial<SimQuirks>;
  webhook?: WebhookConfig;
  /** A random happening on a live ticket every N ms (0: off). */
  activityEveryMs?: number;
  now?: () => number;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  userId: number | undefined;
  at: number;
}

export interface Simulator {
  url: string;
  adminToken: string;
  state: SimState;
  faults: SimFaults;
  /** The quirks in force (mutable through `setQuirks`). */
  quirks: SimQuirks;
  setQuirks(q: Partial<SimQuirks>): void;
  /** Every `/api/v3` request answered, oldest first (bounded). */
  requests: RequestLogEntry[];
  webhookDeliveries: { body: unknown; status?: number; error?: string }[];
  setFaults(f: Partial<SimFaults>): void;
  setRateLimit(perMinute: number): void;
  setWebhook(w: WebhookConfig | undefined): void;
  /** Issues a token for a seeded or created user, as `POST /api/v3/token` would. */
  tokenFor(username: string, ttlSeconds?: number): string;
  /** Makes every issued token (not the admin token) expire now. */
  expireTokens(): void;
  close(): Promise<void>;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string>; stream?: Readable };
interface Ctx {
  q: Params;
  p: Record<string, string>;
  user: SimUser;
  ent: SimEnterprise;
  isStaticAdmin: boolean;
  token: string;
}
type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
  public?: boolean;
}

const TICKET_STATES = [
  'new',
  'open',
  'invited',
  'inprogress',
  'done',
  'closed',
  'rejected',
  'declined',
  'expired',
  'cancelled',
] as const;
const MAX_LOG = 2_000;

/** Starts the platform simulator: a real HTTP server implementing every route of platform-api.md. */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? Date.now;
  const adminToken = options.adminToken ?? `sim-admin-${randomBytes(12).toString('hex')}`;
  let rateLimit = options.rateLimit ?? 10;
  const rateWindowMs = options.rateWindowMs ?? 60_000;
  let tokenTtl = options.tokenTtlSeconds ?? 86_400;
  let webhook = options.webhook;
  const faults: SimFaults = { ...noFaults, ...options.faults };
  const quirks: SimQuirks =
    options.quirks === true
      ? { ...allQuirks }
      : { ...noQuirks, ...(typeof options.quirks === 'object' ? options.quirks : {}) };
  const tokens = new Map<string, { userId: number; expiresAt: number }>();
  const windows = new Map<number, { start: number; count: number }>();
  const requests: RequestLogEntry[] = [];
  const webhookDeliveries: Simulator['webhookDeliveries'] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let publicUrl = '';

  const sendWebhook = (change: SimChange) => {
    const target = webhook;
    if (!target) return;
    const sent = { ...change, time: Math.floor(now() / 1000) };
    const body = quirks.emptyObjectsAsArrays ? emptyObjectsAsArrays(sent) : sent;
    setImmediate(() => {
      request(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Cloud Apizee',
          [target.header]: target.secret,
        },
        body: JSON.stringify(body),
        headersTimeout: 5_000,
        bodyTimeout: 5_000,
      })
        .then(async (r) => {
          await r.body.dump();
          webhookDeliveries.push({ body, status: r.statusCode });
        })
        .catch((e: Error) => webhookDeliveries.push({ body, error: e.message }));
    });
  };
  const state = new SimState(now, sendWebhook, () => publicUrl);
  const seeded = options.seed === false ? undefined : state.seed();
  if (!seeded) {
    state.enterprises.set(1, {
      id: 1,
      name: 'Empty Enterprise',
      features: { conference: true },
      quotas: { users: 10, disk_mb: 1024, sms: 100, sessions: 100 },
    });
  }
  const adminUser =
    seeded?.admin ??
    state.addUser({
      enterpriseId: 1,
      username: 'admin',
      password: randomBytes(8).toString('hex'),
      email: 'admin@example.com',
      cellPhone: undefined,
      firstName: 'Admin',
      lastName: '',
      role: 'admin',
    });

  const issueToken = (user: SimUser, ttl = tokenTtl) => {
    const token = `sim-${randomBytes(16).toString('hex')}`;
    tokens.set(token, { userId: user.id, expiresAt: now() + ttl * 1000 });
    return token;
  };

  // ---------- routes ----------
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
  const requireAdmin = (ctx: Ctx, what: string) => {
    if (ctx.user.role !== 'admin') throw new SimHttpError(403, `Forbidden: ${what} requires the admin role`);
  };
  const sameEnterprise = (ctx: Ctx, key = 'enterpriseId') => {
    const id = Number(ctx.p[key]);
    if (!state.enterprises.has(id)) throw new SimHttpError(404, 'Resource Not Found: enterprise');
    if (id !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: not your enterprise');
  };
  const findTicket = (ctx: Ctx, trashed = false): SimTicket => {
    const t = state.tickets.get(Number(ctx.p.ticketId));
    if (!t || (t.deleted && !trashed)) throw new SimHttpError(404, 'Resource Not Found: ticket');
    if (t.enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: ticket of another enterprise');
    return t;
  };
  const userRef = (ctx: Ctx, name: string): SimUser | undefined => {
    const ref = ctx.q.raw(name);
    if (ref === undefined) return undefined;
    const u = state.findUser(ctx.ent.id, ref);
    if (!u) throw bad(name, `no user "${ref}" in this enterprise`);
    return u;
  };
  const groupRef = (ctx: Ctx, name: string) => {
    const id = ctx.q.int(name, { min: 1 });
    if (id === undefined) return undefined;
    const g = state.groups.get(id);
    if (!g || g.enterpriseId !== ctx.ent.id) throw bad(name, `no group ${id} in this enterprise`);
    return g;
  };
  /** `user`/`moderator` filter: a user id, or `all` (admin only); default the caller. */
  const userScope = (ctx: Ctx, name: string): number | 'all' => {
    const v = ctx.q.raw(name);
    if (v === 'all') {
      requireAdmin(ctx, `${name}=all`);
      return 'all';
    }
    if (v === undefined) return ctx.user.id;
    if (!/^\d+$/.test(v)) throw bad(name, 'must be a user id or all');
    return Number(v);
  };
  /** The page size served: what was asked, at most the quirk's cap. */
  const capped = (limit: number) => (quirks.pageCap > 0 ? Math.min(limit, quirks.pageCap) : limit);
  /** A bare-array list page: `offset`/`limit` when given (everything otherwise), within the cap; no total. */
  const barePage = <T>(ctx: Ctx, all: T[], defaultLimit = Number.POSITIVE_INFINITY): T[] => {
    const offset = ctx.q.int('offset', { min: 0 }) ?? 0;
    const limit = capped(ctx.q.int('limit', { min: 1, max: 1000 }) ?? defaultLimit);
    return all.slice(offset, offset + limit);
  };
  const sortBy = <T>(items: T[], key: (t: T) => string | number, order: 'asc' | 'desc') =>
    items.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return order === 'asc' ? c : -c;
    });

  // Authentication
  route(
    'POST',
    '/api/v3/token',
    ({ q }) => {
      const grant = q.raw('grant_type') ?? 'password';
      if (grant !== 'password') throw bad('grant_type', 'only password is supported by the simulator');
      const username = q.required('username');
      const password = q.required('password');
      const user = [...state.users.values()].find(
        (u) => !u.deleted && (u.username === username || u.email === username),
      );
      if (!user || user.password !== password) throw new SimHttpError(401, 'Invalid credentials');
      return {
        body: {
          access_token: issueToken(user),
          created_at: iso(now()),
          expires_in: tokenTtl,
          token_type: 'Bearer',
        },
      };
    },
    true,
  );
  route('POST', '/api/v3/token/revoke', (ctx) => {
    if (!ctx.isStaticAdmin) tokens.delete(ctx.token);
    return { body: { revoked: true } };
  });

  // Conferences
  const conferenceParams = (ctx: Ctx, creating: boolean) => {
    const { q } = ctx;
    const moderator = userRef(ctx, 'moderator');
    const scope = q.list('scope');
    for (const s of scope) if (s !== 'sso') throw bad('scope', 'available scopes: sso');
    const password = q.text('password', { max: 255 });
    if (password !== undefined && !/^[0-9*#]+$/.test(password))
      throw bad('password', 'allowed characters: 0-9 * #');
    return {
      participants: q.participants('participants', creating),
      name: q.text('name', { min: 2, max: 255 }),
      message: q.text('message', { max: 300 }),
      password,
      moderation: q.bool('moderation'),
      entryMode: q.raw('entryMode'),
      startTime: q.utc('startTime'),
      open: q.bool('open'),
      duration: q.int('duration', { min: 1 }),
      reminder: q.int('reminder', { min: 1, max: 60 }),
      templateId: q.int('templateId', { min: 1 }),
      language: q.raw('language'),
      invite: q.bool('invite'),
      moderatorId: moderator?.id,
      scope: scope.length ? scope : undefined,
      serviceKey: creating ? q.serviceKey('service_key') : undefined,
    };
  };
  const needConferenceFeature = (ctx: Ctx) => {
    if (!ctx.ent.features.conference) {
      throw new SimHttpError(403, 'Forbidden: the conference feature is not enabled for this account');
    }
  };
  const findConference = (ctx: Ctx) => {
    const key = decodeURIComponent(ctx.p.conferenceId ?? '');
    const c = /^\d+$/.test(key)
      ? state.conferences.get(Number(key))
      : [...state.conferences.values()].find((x) => x.roomName === key);
    if (!c) throw new SimHttpError(404, 'Resource Not Found: conference');
    if (c.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(403, 'Forbidden: conference of another enterprise');
    return c;
  };
  route('POST', '/api/v3/conferences', (ctx) => {
    needConferenceFeature(ctx);
    const p = conferenceParams(ctx, true);
    const conf = state.createConference(ctx.user, {
      ...Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)),
      participants: p.participants ?? [],
      invite: p.invite ?? true,
    });
    return { body: presentConference(conf, state, [], quirks) };
  });
  route('PUT', '/api/v3/conferences/{conferenceId}', (ctx) => {
    const conf = findConference(ctx);
    if (ctx.q.has('service_key')) throw bad('service_key', 'cannot be changed');
    const p = conferenceParams(ctx, false);
    for (const [k, v] of Object.entries(p))
      if (v !== undefined) (conf as unknown as Record<string, unknown>)[k] = v;
    conf.modified = now();
    return { body: presentConference(conf, state, [], quirks) };
  });
  route('DELETE', '/api/v3/conferences/{conferenceId}', (ctx) => {
    const conf = findConference(ctx);
    state.conferences.delete(conf.id);
    return { body: { id: conf.id, deleted: true } };
  });
  route('GET', '/api/v3/conferences', (ctx) => {
    needConferenceFeature(ctx);
    const { q } = ctx;
    const { offset, limit } = q.paging(100);
    const status = q.oneOf('status', ['planned', 'ongoing', 'ended'] as const);
    const since = q.utc('since');
    const until = q.utc('until');
    const search = q.raw('search')?.toLowerCase();
    const orderby = q.oneOf('orderby', ['date', 'name', 'created'] as const) ?? 'date';
    const order = q.order();
    const moderator = userScope(ctx, 'moderator');
    const participant = q.int('user', { min: 1 });
    const participantUser = participant === undefined ? undefined : state.users.get(participant);
    const serviceKey = q.serviceKey('service_key');
    const scopes = q.list('scopes');
    for (const s of scopes)
      if (!['participant', 'media'].includes(s)) throw bad('scopes', 'available: participant, media');
    let list = [...state.conferences.values()]
      .filter((c) => c.enterpriseId === ctx.ent.id)
      .map((c) => ({ c, wire: presentConference(c, state, scopes, quirks) }))
      .filter(({ c, wire }) => {
        if (
          moderator !== 'all' &&
          participant === undefined &&
          c.moderatorId !== moderator &&
          c.createdBy !== moderator
        )
          return false;
        if (participant !== undefined) {
          const email = participantUser?.email;
          if (c.moderatorId !== participant && !(email && c.participants.includes(email))) return false;
        }
        if (status && wire.status !== status) return false;
        if (since !== undefined && c.startTime < since) return false;
        if (until !== undefined && c.startTime > until) return false;
        if (search && !`${c.name} ${c.roomName}`.toLowerCase().includes(search)) return false;
        if (serviceKey && c.serviceKey !== serviceKey) return false;
        return true;
      });
    list = sortBy(
      list,
      ({ c }) => (orderby === 'name' ? c.name : orderby === 'created' ? c.created : c.startTime),
      order,
    );
    return {
      body: envelope(
        list.map((x) => x.wire),
        offset,
        capped(limit),
      ),
    };
  });
  route('GET', '/api/v3/conferences/{conferenceId}', (ctx) => {
    for (const s of ctx.q.list('scope')) if (s !== 'sso') throw bad('scope', 'available scopes: sso');
    return { body: presentConference(findConference(ctx), state, [], quirks) };
  });

  // Media
  const mediaList = (
    ctx: Ctx,
    base: (m: ReturnType<typeof presentMedia>) => boolean,
    conversation: boolean,
  ) => {
    const { q } = ctx;
    const { offset, limit } = q.paging(10);
    const status = q.raw('status') ?? 'completed';
    const since = q.utc('since');
    const until = q.utc('until');
    const search = q.raw('search')?.toLowerCase();
    const orderby = q.oneOf('orderby', ['date', 'title', 'size'] as const) ?? 'date';
    const order = q.order();
    const type = q.raw('media_type');
    const tag = q.raw('tag');
    const user = userScope(ctx, 'user');
    const group = groupRef(ctx, 'user_group');
    const sourceType = q.raw('source_type');
    const conversationId = conversation ? q.raw('conversation_id') : undefined;
    let list = [...state.medias.values()]
      .filter((m) => m.enterpriseId === ctx.ent.id)
      .map((m) => presentMedia(m, state))
      .filter(base)
      .filter((m) => {
        if (m.status !== status) return false;
        // The default (the caller's media) is widened to the enterprise when a ticket/conference is named.
        if (user !== 'all' && q.has('user') && m.user_id !== user) return false;
        if (group && !state.users.get(m.user_id)?.groups.includes(group.id)) return false;
        if (since !== undefined && Date.parse(m.created ?? '') < since) return false;
        if (until !== undefined && Date.parse(m.created ?? '') > until) return false;
        if (search && !`${m.title} ${m.description} ${m.filename}`.toLowerCase().includes(search))
          return false;
        if (type && m.type !== type) return false;
        if (tag && !m.tags.includes(tag)) return false;
        if (sourceType !== undefined && String(m.source_type) !== sourceType) return false;
        if (conversationId !== undefined && m.conversation_id !== conversationId) return false;
        return true;
      });
    list = sortBy(
      list,
      (m) => (orderby === 'title' ? m.title : orderby === 'size' ? m.size : (m.created ?? '')),
      order,
    );
    return { body: envelope(list, offset, capped(limit)) };
  };
  const findMedia = (ctx: Ctx) => {
    const m = state.medias.get(Number(ctx.p.mediaId));
    if (!m) throw new SimHttpError(404, 'Resource Not Found: media');
    if (m.enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: media of another enterprise');
    return m;
  };
  route('GET', '/api/v3/medias', (ctx) => mediaList(ctx, () => true, true));
  route('GET', '/api/v3/conferences/{conferenceId}/medias', (ctx) => {
    if (!/^\d+$/.test(ctx.p.conferenceId ?? '')) throw bad('conferenceId', 'must be an integer');
    const conf = findConference(ctx);
    if (ctx.q.has('source_type') && !/^\d+$/.test(ctx.q.raw('source_type') ?? ''))
      throw bad('source_type', 'must be an integer here');
    return mediaList(ctx, (m) => m.conference_id === conf.id, false);
  });
  route('GET', '/api/v3/medias/{mediaId}', (ctx) => ({ body: presentMedia(findMedia(ctx), state) }));
  route('GET', '/api/v3/medias/{mediaId}/download', (ctx) => {
    const m = findMedia(ctx);
    return {
      headers: {
        'content-type': m.format,
        'content-length': String(state.mediaSize(m)),
        'content-disposition': `attachment; filename="${m.filename}"`,
      },
      stream: contentStream(m.content),
    };
  });
  route('PUT', '/api/v3/medias/{mediaId}', (ctx) => {
    const m = findMedia(ctx);
    const { q } = ctx;
    m.title = q.text('title', { max: 255 }) ?? m.title;
    m.description = q.raw('description') ?? m.description;
    m.lat = q.number('lat', -90, 90) ?? m.lat;
    m.lng = q.number('lng', -180, 180) ?? m.lng;
    sendWebhook({ event: 'update', object: 'media', objectId: m.id, props: { title: m.title } });
    return { body: presentMedia(m, state) };
  });
  route('DELETE', '/api/v3/medias/{mediaId}', (ctx) => {
    const m = findMedia(ctx);
    state.medias.delete(m.id);
    sendWebhook({ event: 'delete', object: 'media', objectId: m.id, props: {} });
    return { body: { id: m.id, deleted: true } };
  });

  // Enterprises, users, groups
  route('GET', '/api/v3/enterprises/{enterpriseId}/users', (ctx) => {
    sameEnterprise(ctx);
    return { body: barePage(ctx, state.liveUsers(ctx.ent.id).map(presentUser)) };
  });
  route('POST', '/api/v3/users', (ctx) => {
    requireAdmin(ctx, 'creating a user');
    const { q } = ctx;
    const username = q.required('username');
    const password = q.required('password');
    const email = q.emails('email')[0];
    const cellPhone = q.phones('cell_phone')[0];
    if (!email && !cellPhone) throw bad('email', 'email or cell_phone is required');
    const enterpriseId = q.int('enterpriseId', { min: 1 }) ?? ctx.ent.id;
    if (enterpriseId !== ctx.ent.id) throw new SimHttpError(403, 'Forbidden: not your enterprise');
    if ([...state.users.values()].some((u) => !u.deleted && u.username === username)) {
      throw new SimHttpError(409, `Parameter username: "${username}" is taken`, 'username');
    }
    const user = state.addUser({
      enterpriseId,
      username,
      password,
      email,
      cellPhone,
      firstName: q.raw('firstName') ?? '',
      lastName: q.raw('lastName') ?? '',
      role: 'agent',
    });
    return { body: { id: user.id } };
  });
  route('PUT', '/api/v3/users', (ctx) => {
    const { q } = ctx;
    const id = q.int('Userid', { min: 1 });
    if (id === undefined) throw bad('Userid', 'is required');
    const user = state.users.get(id);
    if (!user || user.deleted || user.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(404, 'Resource Not Found: user');
    if (user.id !== ctx.user.id) requireAdmin(ctx, 'updating another user');
    user.firstName = q.raw('firstName') ?? user.firstName;
    user.lastName = q.raw('lastName') ?? user.lastName;
    for (const k of ['avatar', 'phoneNumber', 'jobTitle']) {
      const v = q.raw(k);
      if (v !== undefined) user.extra[k] = v;
    }
    for (const k of ['audioOnly', 'clickToChat', 'maxOngoingChat']) {
      const v = q.int(k, { min: 0 });
      if (v !== undefined) user.extra[k] = v;
    }
    return { body: { id: user.id } };
  });
  route('DELETE', '/api/v3/users', (ctx) => {
    requireAdmin(ctx, 'deleting a user');
    const id = ctx.q.int('userId', { min: 1 });
    if (id === undefined) throw bad('userId', 'is required');
    const user = state.users.get(id);
    if (!user || user.deleted || user.enterpriseId !== ctx.ent.id)
      throw new SimHttpError(404, 'Resource Not Found: user');
    if (user.id === ctx.user.id) throw bad('userId', 'you cannot delete yourself');
    user.deleted = true;
    return { body: { id: user.id, deleted: true } };
  });
  route('GET', '/api/v3/users/me', (ctx) => {
    const { enterprise_id, ...user } = presentUser(ctx.user);
    const enterprise = { name: ctx.ent.name, quotas: ctx.ent.quotas, features: ctx.ent.features };
    // The camel-case quirk: the id only as `enterpriseId`, nowhere else.
    return {
      body: quirks.camelEnterpriseId
        ? { ...user, enterpriseId: enterprise_id, enterprise }
        : { ...user, enterprise_id, enterprise: { id: ctx.ent.id, ...enterprise } },
    };
  });
  route('GET', '/api/v3/users/id', (ctx) => {
    const email = ctx.q.emails('email')[0];
    if (!email) throw bad('email', 'is required');
    const user = state.liveUsers(ctx.ent.id).find((u) => u.email?.toLowerCase() === email.toLowerCase());
    if (!user) throw new SimHttpError(404, 'Resource Not Found: no user with this e-mail');
    return { body: { id: user.id } };
  });
  route(
    'POST',
    '/api/v3/users/password/reset',
    ({ q }) => {
      const login = q.required('login');
      // Answers OK whether or not the login exists, so it cannot be used to probe accounts.
      state.passwordResets.push({ login, time: now() });
      return { body: 'OK' };
    },
    true,
  );
  route('GET', '/api/v3/enterprises/{enterpriseId}/groups', (ctx) => {
    sameEnterprise(ctx);
    const groups = [...state.groups.values()].filter((g) => g.enterpriseId === ctx.ent.id);
    return {
      body: barePage(
        ctx,
        groups.map((g) => ({
          id: g.id,
          name: g.name,
          member_count: state.liveUsers(ctx.ent.id).filter((u) => u.groups.includes(g.id)).length,
        })),
      ),
    };
  });
  route('GET', '/api/v3/enterprises/{enterpriseId}/groups/{groupId}/members', (ctx) => {
    sameEnterprise(ctx);
    const g = state.groups.get(Number(ctx.p.groupId));
    if (!g || g.enterpriseId !== ctx.ent.id) throw new SimHttpError(404, 'Resource Not Found: group');
    return {
      body: barePage(
        ctx,
        state
          .liveUsers(ctx.ent.id)
          .filter((u) => u.groups.includes(g.id))
          .map(presentUser),
      ),
    };
  });

  // Tickets
  route('POST', '/api/v3/tickets', (ctx) => {
    const { q } = ctx;
    const emails = q.emails('email', { forbidGeneric: true });
    const phones = q.phones('phone');
    if (!emails.length && !phones.length) throw bad('email', 'email or phone is required');
    const agent = userRef(ctx, 'agent');
    const group = groupRef(ctx, 'groupId');
    const ticket = state.createTicket(ctx.user, {
      emails,
      phones,
      name: q.raw('name'),
      language: q.raw('language'),
      type: q.raw('type'),
      subject: q.raw('subject'),
      reference: q.raw('reference'),
      description: q.raw('description'),
      groupId: group?.id,
      agentId: agent?.id,
      invite: q.bool('invite') ?? false,
      agentTemplateId: q.int('agentTemplateId', { min: 1 }),
      requestorTemplateId: q.int('requestorTemplateId', { min: 1 }),
      inviteOrganizer: q.bool('inviteOrganizer'),
      startTime: q.utc('startTime'),
      duration: q.int('duration', { min: 1 }),
      reminder: q.int('reminder', { min: 1, max: 60 }),
      firstName: q.raw('firstName'),
      company: q.raw('company'),
      gender: q.raw('gender'),
      country: q.country('country'),
      serviceKey: q.serviceKey('service_key'),
      scopes: q.list('scope'),
      initialState: q.oneOf('state', TICKET_STATES),
    });
    return { body: presentTicket(ticket, state, quirks) };
  });
  route('GET', '/api/v3/tickets/{ticketId}', (ctx) => ({
    body: presentTicket(findTicket(ctx), state, quirks),
  }));
  route('PUT', '/api/v3/tickets/{ticketId}', (ctx) => {
    const t = findTicket(ctx);
    const { q } = ctx;
    const nextState = q.oneOf('state', TICKET_STATES);
    const agent = userRef(ctx, 'agent');
    const group = groupRef(ctx, 'groupId');
    if (t.state === 'closed' && (nextState ?? 'closed') !== 'closed') {
      throw new SimHttpError(
        400,
        'Parameter state: the ticket is closed; no further action is possible',
        'state',
      );
    }
    for (const k of ['reference', 'description', 'subject'] as const) {
      const v = q.raw(k);
      if (v !== undefined) t[k] = v;
    }
    if (group) t.groupId = group.id;
    if (agent) state.assignAgent(t, agent.id, 'agent');
    if (nextState) state.setTicketState(t, nextState, 'agent');
    state.changed(t, 'update');
    return { status: 204 };
  });
  route('DELETE', '/api/v3/tickets/{ticketId}', (ctx) => {
    const t = findTicket(ctx);
    t.deleted = now();
    state.changed(t, 'delete');
    return { body: { id: t.id, deleted: true } };
  });
  route('GET', '/api/v3/tickets', (ctx) => {
    const { q } = ctx;
    const { offset, limit } = q.paging(10);
    const since = q.utc('since');
    const until = q.utc('until');
    const startedAfter = q.utc('startTime');
    const endedBefore = q.utc('endTime');
    const search = q.raw('search')?.toLowerCase();
    const askedOrderby =
      q.oneOf('orderby', ['start_time', 'created', 'modified', 'reference', 'state'] as const) ??
      'start_time';
    const askedOrder = q.order();
    // Quirk: the order is validated, then not applied (the default sort stands).
    const orderby = quirks.ignoreOrderBy ? 'start_time' : askedOrderby;
    const order = quirks.ignoreOrderBy ? 'desc' : askedOrder;
    const user = userScope(ctx, 'user');
    const group = groupRef(ctx, 'groupId');
    const reference = q.raw('reference');
    const type = q.raw('type');
    const requestorId = q.int('requestorId', { min: 1 });
    const serviceKey = q.serviceKey('service_key');
    let list = [...state.tickets.values()].filter((t) => {
      if (t.deleted || t.enterpriseId !== ctx.ent.id) return false;
      if (user !== 'all' && t.agentId !== user && t.createdBy !== user) return false;
      if (since !== undefined && t.created < since) return false;
      if (until !== undefined && t.created > until) return false;
      if (startedAfter !== undefined && (t.startTime === undefined || t.startTime < startedAfter))
        return false;
      if (endedBefore !== undefined && (t.endTime === undefined || t.endTime > endedBefore)) return false;
      if (
        search &&
        !`${t.subject} ${t.reference} ${t.description} ${t.requestor.name}`.toLowerCase().includes(search)
      )
        return false;
      if (group && t.groupId !== group.id) return false;
      if (reference !== undefined && t.reference !== reference) return false;
      if (type !== undefined && t.type !== type) return false;
      if (requestorId !== undefined && t.id !== requestorId) return false;
      if (serviceKey && t.serviceKey !== serviceKey) return false;
      return true;
    });
    list = sortBy(
      list,
      (t) =>
        orderby === 'start_time'
          ? (t.startTime ?? t.created)
          : orderby === 'reference' || orderby === 'state'
            ? (t[orderby] ?? '')
            : t[orderby],
      order,
    );
    return {
      body: envelope(
        list.map((t) => presentTicket(t, state, quirks)),
        offset,
        capped(limit),
      ),
    };
  });
  route('GET', '/api/v3/tickets/{ticketId}/medias', (ctx) => {
    const t = findTicket(ctx);
    return mediaList(ctx, (m) => m.ticket_id === t.id, false);
  });
  route('GET', '/api/v3/tickets/{ticketId}/medias/download', (ctx) => {
    const t = findTicket(ctx);
    const filename = ctx.q.required('filename');
    if (/[./\\]/.test(filename)) throw bad('filename', 'give a file name without extension');
    const medias = [...state.medias.values()].filter((m) => m.ticketId === t.id);
    if (!medias.length) throw new SimHttpError(404, 'Resource Not Found: the ticket has no media');
    return {
      headers: {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${filename}.zip"`,
      },
      stream: zipStream(medias.map((m) => ({ name: m.filename, content: m.content }))),
    };
  });
  route('GET', '/api/v3/tickets/{ticketId}/events', (ctx) => {
    const t = findTicket(ctx);
    const events = [...t.events].sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
    return {
      body: barePage(ctx, events, 1000).map((e) => ({
        id: e.id,
        eventName: e.eventName,
        timestamp: iso(e.timestamp),
        source: e.source,
        data: e.data,
      })),
    };
  });
  route('POST', '/api/v3/tickets/{ticketId}/export', (ctx) => {
    const t = findTicket(ctx);
    const format = ctx.q.oneOf('format', ['json', 'csv'] as const) ?? 'json';
    const timeline = ctx.q.bool('timeline') ?? false;
    const wire = presentTicket(t, state, quirks);
    const medias = [...state.medias.values()]
      .filter((m) => m.ticketId === t.id)
      .map((m) => presentMedia(m, state));
    const events = timeline ? t.events.map((e) => ({ ...e, timestamp: iso(e.timestamp) })) : undefined;
    const body =
      format === 'json'
        ? JSON.stringify({ ticket: wire, medias, ...(events ? { events } : {}) }, null, 2)
        : [
            'field,value',
            ...Object.entries(wire)
              .filter(([, v]) => typeof v !== 'object' || v === null)
              .map(([k, v]) => `${k},"${String(v ?? '').replace(/"/g, '""')}"`),
            ...(events ?? []).map((e) => `event,"${e.timestamp} ${e.eventName}"`),
          ].join('\n');
    const id = `exp-${randomBytes(6).toString('hex')}`;
    state.exports.set(id, {
      id,
      enterpriseId: t.enterpriseId,
      ticketId: t.id,
      format,
      body: Buffer.from(body),
    });
    return { body: { id, status: 'completed', format, url: `${publicUrl}/api/v3/exports/${id}` } };
  });
  route('GET', '/api/v3/exports/{exportId}', (ctx) => {
    const e = state.exports.get(ctx.p.exportId ?? '');
    if (!e || e.enterpriseId !== ctx.ent.id) throw new SimHttpError(404, 'Resource Not Found: export');
    return {
      headers: {
        'content-type': e.format === 'json' ? 'application/json' : 'text/csv',
        'content-length': String(e.body.length),
        'content-disposition': `attachment; filename="ticket-${e.ticketId}.${e.format}"`,
      },
      stream: contentStream({ kind: 'bytes', data: e.body }),
    };
  });

  // Reports and statistics
  route('GET', '/api/v3/enterprises/{enterpriseId}/tickets/report', (ctx) => {
    sameEnterprise(ctx);
    const { q } = ctx;
    const start = q.reportTime('startTime');
    let end = q.reportTime('endTime');
    // A bare date as the end bound includes that whole day.
    if (/^\d{4}-\d{2}-\d{2}$/.test(q.raw('endTime') ?? '')) end += 86_400_000 - 1;
    if (end < start) throw bad('endTime', 'must not be before startTime');
    const userId = q.int('userId', { min: 1 });
    const group = groupRef(ctx, 'groupId');
    const withTrashed = q.bool('withTrashed') ?? false;
    const tickets = [...state.tickets.values()].filter(
      (t) =>
        t.enterpriseId === ctx.ent.id &&
        t.created >= start &&
        t.created <= end &&
        (withTrashed || !t.deleted) &&
        (userId === undefined || t.agentId === userId) &&
        (!group || t.groupId === group.id),
    );
    const count = <K>(key: (t: SimTicket) => K) => {
      const m = new Map<K, number>();
      for (const t of tickets) m.set(key(t), (m.get(key(t)) ?? 0) + 1);
      return m;
    };
    const sessions = state.sessions.filter(
      (s) => s.ticketId !== undefined && tickets.some((t) => t.id === s.ticketId),
    );
    return {
      body: {
        enterprise_id: ctx.ent.id,
        start: iso(start),
        end: iso(end),
        total: tickets.length,
        by_state: Object.fromEntries(count((t) => t.state)),
        by_agent: [...count((t) => t.agentId)].map(([id, n]) => ({
          agent_id: id ?? null,
          username: id === undefined ? null : (state.users.get(id)?.username ?? null),
          count: n,
        })),
        by_group: [...count((t) => t.groupId)].map(([id, n]) => ({
          group_id: id ?? null,
          name: id === undefined ? null : (state.groups.get(id)?.name ?? null),
          count: n,
        })),
        session_count: sessions.length,
        session_duration: sessions.reduce(
          (sum, s) => sum + Math.round(((s.end ?? now()) - s.start) / 1000),
          0,
        ),
      },
    };
  });
  route('GET', '/api/v3/enterprises/{enterpriseId}/statistics', (ctx) => {
    sameEnterprise(ctx);
    const date = ctx.q.date('date') ?? new Date(now()).toISOString().slice(0, 10);
    ctx.q.oneOf('output', ['json'] as const);
    return { body: state.statistics(ctx.ent.id, date) };
  });

  // ---------- admin routes (/_sim), for tests, demos and the poller's playground ----------
  const admin = (method: string, path: string, handler: Handler) =>
    route(method, path, handler, false, adminRoutes);
  const simTicket = (ctx: Ctx) => {
    const t = state.tickets.get(Number(ctx.p.ticketId));
    if (!t) throw new SimHttpError(404, 'no such ticket');
    return t;
  };
  admin('GET', '/_sim/faults', () => ({ body: faults }));
  admin('PUT', '/_sim/faults', (ctx) => {
    const patch: Partial<SimFaults> = {};
    for (const k of Object.keys(noFaults) as (keyof SimFaults)[]) {
      const v = ctx.q.raw(k);
      if (v === undefined) continue;
      (patch as Record<string, unknown>)[k] =
        typeof noFaults[k] === 'string' ? v : v === 'true' ? true : v === 'false' ? false : Number(v);
    }
    Object.assign(faults, patch);
    return { body: faults };
  });
  admin('PUT', '/_sim/config', (ctx) => {
    rateLimit = ctx.q.int('rateLimit', { min: 0 }) ?? rateLimit;
    tokenTtl = ctx.q.int('tokenTtlSeconds', { min: 1 }) ?? tokenTtl;
    const feature = ctx.q.bool('conferenceFeature');
    if (feature !== undefined) ctx.ent.features.conference = feature;
    return { body: { rateLimit, tokenTtlSeconds: tokenTtl, features: ctx.ent.features } };
  });
  admin('PUT', '/_sim/webhook', (ctx) => {
    webhook = {
      url: ctx.q.required('url'),
      header: ctx.q.raw('header') ?? 'X-Webhook-Secret',
      secret: ctx.q.required('secret'),
    };
    return { body: { url: webhook.url, header: webhook.header } };
  });
  admin('DELETE', '/_sim/webhook', () => {
    webhook = undefined;
    return { status: 204 };
  });
  admin('GET', '/_sim/webhooks', () => ({ body: webhookDeliveries }));
  admin('POST', '/_sim/tokens', (ctx) => {
    const username = ctx.q.required('username');
    const user = [...state.users.values()].find((u) => u.username === username && !u.deleted);
    if (!user) throw bad('username', 'unknown user');
    return { body: { access_token: issueToken(user, ctx.q.int('ttl', { min: 1 })), expires_in: tokenTtl } };
  });
  admin('POST', '/_sim/tokens/expire', () => {
    for (const t of tokens.values()) t.expiresAt = 0;
    return { body: { expired: tokens.size } };
  });
  admin('GET', '/_sim/requests', () => ({ body: requests }));
  admin('DELETE', '/_sim/requests', () => {
    requests.length = 0;
    return { status: 204 };
  });
  admin('POST', '/_sim/tickets/{ticketId}/guest-join', (ctx) => {
    state.guestJoins(simTicket(ctx));
    return { body: presentTicket(simTicket(ctx), state, quirks) };
  });
  admin('POST', '/_sim/tickets/{ticketId}/session-end', (ctx) => {
    state.sessionEnds(simTicket(ctx));
    return { body: presentTicket(simTicket(ctx), state, quirks) };
  });
  admin('POST', '/_sim/tickets/{ticketId}/picture', (ctx) => ({
    body: presentMedia(state.takePicture(simTicket(ctx)), state),
  }));
  admin('POST', '/_sim/tickets/{ticketId}/events', (ctx) => {
    const source = ctx.q.oneOf('source', ['agent', 'guest', 'system'] as const) ?? 'system';
    const e = state.addEvent(simTicket(ctx), ctx.q.required('name'), source);
    return { body: { ...e, timestamp: iso(e.timestamp) } };
  });
  admin('POST', '/_sim/activity', (ctx) => {
    const n = ctx.q.int('count', { min: 1, max: 1000 }) ?? 1;
    return { body: Array.from({ length: n }, () => state.randomActivity()).filter(Boolean) };
  });
  admin('POST', '/_sim/medias', (ctx) => {
    const size = ctx.q.int('size', { min: 1 }) ?? 1024;
    const m = state.addMedia({
      enterpriseId: 1,
      userId: adminUser.id,
      type: ctx.q.oneOf('type', ['snapshot', 'capture', 'recording', 'document'] as const) ?? 'recording',
      title: ctx.q.raw('title') ?? `Synthetic media (${size} bytes)`,
      format: ctx.q.raw('format') ?? 'video/mp4',
      ticketId: ctx.q.int('ticketId'),
      conferenceId: ctx.q.int('conferenceId'),
      content: { kind: 'generated', size, seed: state.nextId('event') },
    });
    return { body: presentMedia(m, state) };
  });

  // ---------- HTTP ----------
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
      const reply = await match.handler(ctx);
      status = reply.status ?? 200;
      const headers = { ...extraHeaders, ...reply.headers };
      if (reply.stream) {
        res.writeHead(status, headers);
        reply.stream.on('error', () => res.destroy());
        res.on('close', () => reply.stream?.destroy());
        reply.stream.pipe(res);
      } else if (reply.body === undefined) {
        res.writeHead(status, headers).end();
      } else {
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(
            JSON.stringify(
              isApi && quirks.emptyObjectsAsArrays ? emptyObjectsAsArrays(reply.body) : reply.body,
            ),
          );
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
          query: Object.fromEntries(url.searchParams),
          status,
          userId,
          at: now(),
        });
        if (requests.length > MAX_LOG) requests.splice(0, requests.length - MAX_LOG);
      }
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  publicUrl = `http://${host}:${address.port}`;

  const activity =
    options.activityEveryMs && options.activityEveryMs > 0
      ? setInterval(() => state.randomActivity(), options.activityEveryMs)
      : undefined;
  activity?.unref();

  return {
    url: publicUrl,
    adminToken,
    state,
    faults,
    quirks,
    setQuirks: (q) => Object.assign(quirks, q),
    requests,
    webhookDeliveries,
    setFaults: (f) => Object.assign(faults, f),
    setRateLimit: (n) => {
      rateLimit = n;
    },
    setWebhook: (w) => {
      webhook = w;
    },
    tokenFor: (username, ttl) => {
      const user = [...state.users.values()].find((u) => u.username === username && !u.deleted);
      if (!user) throw new Error(`no user ${username}`);
      return issueToken(user, ttl);
    },
    expireTokens: () => {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    close: async () => {
      clearInterval(activity);
      for (const res of hanging) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
