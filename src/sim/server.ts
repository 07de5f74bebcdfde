import { randomBytes } from 'node:crypto';
import { seedCrowd } from './crowd.js';
import { noFaults, type SimFaults } from './faults.js';
import { noHostility, type SimHostility } from './hostile.js';
import { createSimHttp, type RequestLogEntry, type SimSettings } from './http.js';
import { allQuirks, noQuirks, type SimQuirks } from './quirks.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAuthRoutes } from './routes/auth.js';
import { registerConferenceRoutes } from './routes/conferences.js';
import type { AdminContext } from './routes/context.js';
import { registerGroupRoutes } from './routes/groups.js';
import { createLookups } from './routes/lookups.js';
import { registerMediaRoutes } from './routes/medias.js';
import { registerReportRoutes } from './routes/reports.js';
import { registerTicketRoutes } from './routes/tickets.js';
import { registerUserRoutes } from './routes/users.js';
import { SimState } from './state.js';
import { createWebhookSender, type WebhookConfig, type WebhookDelivery } from './webhooks.js';

/*
 * Assembles the platform simulator: its state, the HTTP side (http.ts: router, tokens, rate window,
 * faults, quirks on the wire) and the routes, one file per section of platform/endpoints.ts
 * (routes/*.ts), plus the `/_sim` admin routes. Every name the rest of the house imports from the
 * simulator is exported here.
 */

export { noFaults, type SimFaults } from './faults.js';
export { noHostility, type SimHostility } from './hostile.js';
export type { RequestLogEntry } from './http.js';
export { allQuirks, noQuirks, type SimQuirks } from './quirks.js';
export type { WebhookConfig, WebhookDelivery } from './webhooks.js';

/** How `createSimulator` starts: where it listens, its limits and tokens, and what it injects. */
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
  /** This many more people in the seeded enterprise (`crowd.ts`), for the type-ahead pickers. */
  crowd?: number;
  faults?: Partial<SimFaults>;
  /** A hostile platform (`hostile.ts`): internal URLs, redirects, bodies without length, huge or slow. */
  hostile?: Partial<SimHostility>;
  /** `true`: every quirk of `allQuirks` (the static token still works); or a selection. */
  quirks?: boolean | Partial<SimQuirks>;
  webhook?: WebhookConfig;
  /** A random happening on a live ticket every N ms (0: off). */
  activityEveryMs?: number;
  now?: () => number;
  /**
   * Requests `requests` keeps, the newest (default 2,000, for a long-running playground). Tests that
   * read it from a position (`requests.slice(from)`) keep every one: a trimmed log moves positions.
   */
  requestLog?: number;
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
  webhookDeliveries: WebhookDelivery[];
  setFaults(f: Partial<SimFaults>): void;
  /** What the hostile mode does now (mutable through `setHostility`). */
  hostility: SimHostility;
  setHostility(h: Partial<SimHostility>): void;
  setRateLimit(perMinute: number): void;
  setWebhook(w: WebhookConfig | undefined): void;
  /** Issues a token for a seeded or created user, as `POST /api/v3/token` would. */
  tokenFor(username: string, ttlSeconds?: number): string;
  /** Makes every issued token (not the admin token) expire now. */
  expireTokens(): void;
  close(): Promise<void>;
}

/** Starts the platform simulator: a real HTTP server implementing every route of platform-api.md. */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const now = options.now ?? Date.now;
  const adminToken = options.adminToken ?? `sim-admin-${randomBytes(12).toString('hex')}`;
  const settings: SimSettings = {
    rateLimit: options.rateLimit ?? 10,
    rateWindowMs: options.rateWindowMs ?? 60_000,
    tokenTtl: options.tokenTtlSeconds ?? 86_400,
    webhook: options.webhook,
  };
  const faults: SimFaults = { ...noFaults, ...options.faults };
  const hostility: SimHostility = { ...noHostility, ...options.hostile };
  const quirks: SimQuirks =
    options.quirks === true
      ? { ...allQuirks }
      : { ...noQuirks, ...(typeof options.quirks === 'object' ? options.quirks : {}) };
  let publicUrl = '';

  const webhooks = createWebhookSender(() => settings.webhook, quirks, now);
  const state = new SimState(now, webhooks.send, () => publicUrl);
  const seeded = options.seed === false ? undefined : state.seed();
  if (options.crowd) seedCrowd(state, options.crowd);
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

  const http = createSimHttp({
    state,
    now,
    quirks,
    faults,
    hostility,
    settings,
    adminToken,
    adminUser,
    logSize: options.requestLog,
  });
  const sim: AdminContext = {
    ...createLookups(state, quirks),
    state,
    quirks,
    now,
    route: http.route,
    admin: http.admin,
    sendWebhook: webhooks.send,
    issueToken: http.issueToken,
    tokens: http.tokens,
    settings,
    publicUrl: () => publicUrl,
    faults,
    hostility,
    requests: http.requests,
    webhookDeliveries: webhooks.deliveries,
    adminUser,
  };
  // No two routes match the same path, so the order of registration decides nothing.
  registerAuthRoutes(sim);
  registerConferenceRoutes(sim);
  registerMediaRoutes(sim);
  registerUserRoutes(sim);
  registerGroupRoutes(sim);
  registerTicketRoutes(sim);
  registerReportRoutes(sim);
  registerAdminRoutes(sim);

  publicUrl = await http.listen(options.port ?? 0, options.host ?? '127.0.0.1');

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
    requests: http.requests,
    webhookDeliveries: webhooks.deliveries,
    setFaults: (f) => Object.assign(faults, f),
    hostility,
    setHostility: (h) => Object.assign(hostility, h),
    setRateLimit: (n) => {
      settings.rateLimit = n;
    },
    setWebhook: (w) => {
      settings.webhook = w;
    },
    tokenFor: (username, ttl) => {
      const user = [...state.users.values()].find((u) => u.username === username && !u.deleted);
      if (!user) throw new Error(`no user ${username}`);
      return http.issueToken(user, ttl);
    },
    expireTokens: () => {
      for (const t of http.tokens.values()) t.expiresAt = 0;
    },
    close: async () => {
      clearInterval(activity);
      await http.close();
    },
  };
}
