import { resolve } from 'node:path';
import type { Config, PlatformCredentials } from '../config/config.js';
import {
  missingSlackSettings,
  platformMissing,
  simulatorByName,
  slackCredentialsGiven,
} from '../config/config.js';
import { describeBacklog, pollingRegime } from '../domain/ticket-feed.js';
import type { FindingsSnapshot, PlatformFindings } from '../platform/findings.js';
import { describeProxy } from '../platform/proxy.js';
import { defaultReserve, type RateBudget } from '../platform/rate-budget.js';
import { checkSlack } from '../startup/checks.js';
import { type StoreInspection, storeFile } from '../store/store.js';
import { guessChecks } from './guesses.js';
import { type ManifestFacts, readManifest, stepScopes } from './manifest.js';
import { answerText, maxPlatformRequests, PlatformProbe, type ProbeAnswer } from './platform-probe.js';
import { type Check, type CheckStatus, type DoctorReport, Report, type Section } from './report.js';

export type { Check, CheckStatus, DoctorReport, Section };

/*
 * `npm run doctor` and `/conference admin doctor`: one report of what confdesk needs and what it
 * found — configuration, Slack, the platform and the guesses of the endpoint table (probed
 * read-only), the store and the webhooks. A row is `blocking` when the bot cannot work as it is
 * (the command then exits non-zero); the detail always says what to do.
 */

export interface DoctorContext {
  config: Config;
  platform: {
    baseUrl: string;
    credentials: PlatformCredentials;
    /** The built-in simulator stands in for the platform (PLATFORM_URL=simulator, or unset). */
    simulator: boolean;
    /** The client's findings (a running bot's carry what it learned) and rate budget. */
    findings: PlatformFindings;
    budget?: RateBudget;
  };
  /** Reads the store without changing it. */
  store: () => Promise<StoreInspection>;
  manifest?: ManifestFacts;
  now?: () => Date;
}

/** The report when the configuration itself is invalid: its problems, the rest waits for them. */
export function configProblemsReport(problems: string[], now = new Date()): DoctorReport {
  const r = new Report();
  for (const p of problems) {
    const [name, ...rest] = p.split(': ');
    r.add('configuration', name ?? 'environment', 'blocking', `${rest.join(': ') || p} (see .env.example)`);
  }
  r.add('configuration', 'other checks', 'note', 'skipped until the configuration is valid', false);
  return finish(r, 0, now, []);
}

/**
 * Distribution mode (`npm run doctor` beside a bot serving many workspaces): the process's own part —
 * the install page, the workspaces installed and set up, and whether the key opens their sealed
 * secrets. Each workspace's own checks run from Slack there (`/conference admin doctor`).
 */
export async function distributionDoctor(
  config: Config,
  registry: {
    teams(): Promise<string[]>;
    /** Whether the key opens the team's installation and settings, and whether settings are saved. */
    state(team: string): Promise<{ opens: boolean; setUp: boolean }>;
    /** Set: the store is not there (the doctor never creates it): the sentence naming what to check. */
    missing?: string | undefined;
  },
  now = new Date(),
): Promise<DoctorReport> {
  const r = new Report();
  const d = config.distribution;
  if (registry.missing) r.add('store', 'open', 'warning', storeNotFound(registry.missing));
  r.add('configuration', 'environment', 'ok', 'valid (.env and the environment, as `npm start` reads them)');
  r.add(
    'configuration',
    'mode',
    'ok',
    `distribution: any workspace installs with Add to Slack at ${d?.publicUrl}/slack/install (redirect URL ${d?.publicUrl}/slack/oauth_redirect)`,
  );
  const teams = await registry.teams();
  const states = await Promise.all(teams.map(async (t) => ({ team: t, ...(await registry.state(t)) })));
  const locked = states.filter((s) => !s.opens).map((s) => s.team);
  const waiting = states.filter((s) => s.opens && !s.setUp).map((s) => s.team);
  r.add(
    'configuration',
    'workspaces',
    teams.length ? 'ok' : 'note',
    teams.length
      ? `${teams.length} installed (${teams.join(', ')}); ${teams.length - waiting.length - locked.length} set up${waiting.length ? `; waiting for their settings: ${waiting.join(', ')}` : ''}. Each workspace's own checks: /conference admin doctor there`
      : 'none installed yet',
  );
  r.add(
    'configuration',
    'CONFDESK_ENCRYPTION_KEY',
    locked.length ? 'blocking' : 'ok',
    locked.length
      ? `the key does not open the secrets of ${locked.join(', ')}: set CONFDESK_ENCRYPTION_KEY_PREVIOUS to the key they were sealed with, or install those workspaces again`
      : 'opens every workspace’s sealed secrets',
  );
  return finish(
    r,
    0,
    now,
    // As `secretsOf`: a value too short to be a secret is not hunted down in the words.
    [d?.clientSecret, d?.stateSecret, ...(d?.keys ?? [])].filter((s): s is string => !!s && s.length >= 4),
  );
}

export async function runDoctor(ctx: DoctorContext): Promise<DoctorReport> {
  const r = new Report();
  const { config } = ctx;
  const now = ctx.now ?? (() => new Date());
  const manifest = ctx.manifest ?? readManifest();
  configurationChecks(r, ctx);
  await slackChecks(r, config, manifest);
  const probe = new PlatformProbe({
    baseUrl: ctx.platform.baseUrl,
    ...(ctx.platform.budget ? { budget: ctx.platform.budget } : {}),
    timeouts: config.platform.timeouts,
    ...(ctx.platform.simulator ? {} : { proxy: config.proxy }),
    ...(config.distribution
      ? { reach: { allowedHosts: config.distribution.platformHosts, operatorConfigured: false } }
      : {}),
  });
  try {
    await platformChecks(r, ctx, probe);
  } finally {
    await probe.close();
  }
  runtimeFindings(r, ctx.platform.findings.snapshot());
  const lastWebhookAt = await storeChecks(r, ctx);
  webhookChecks(r, ctx, lastWebhookAt, now());
  return finish(r, probe.sent.length, now(), secretsOf(ctx));
}

const sections: Section[] = ['configuration', 'slack', 'platform', 'guesses', 'store', 'webhooks'];

function finish(r: Report, platformRequests: number, at: Date, secrets: string[]): DoctorReport {
  const ordered = [...r.checks].sort((a, b) => sections.indexOf(a.section) - sections.indexOf(b.section));
  const checks = ordered.map((c) => ({
    ...c,
    detail: redact(c.detail, secrets),
    name: redact(c.name, secrets),
  }));
  return { checks, platformRequests, blocking: checks.some((c) => c.blocking), at };
}

/** Every secret of the configuration: replaced should one ever reach a detail (an echoing server). */
function secretsOf(ctx: DoctorContext): string[] {
  const { config } = ctx;
  const c = ctx.platform.credentials;
  return [
    config.slack.botToken,
    config.slack.appToken,
    config.slack.signingSecret,
    config.webhook?.secret,
    config.store.databaseUrl,
    c.kind === 'token' ? c.token : c.password,
  ].filter((s): s is string => typeof s === 'string' && s.length >= 4);
}

const redact = (text: string, secrets: string[]) =>
  secrets.reduce((t, s) => t.split(s).join('[secret]'), text);

// ---------- configuration ----------

function configurationChecks(r: Report, ctx: DoctorContext) {
  r.add('configuration', 'environment', 'ok', 'valid (.env and the environment, as `npm start` reads them)');
  const { config } = ctx;
  if (!ctx.platform.simulator)
    r.add('configuration', 'platform', 'ok', `PLATFORM_URL ${ctx.platform.baseUrl}`);
  else if (config.platform.simulator)
    r.add(
      'configuration',
      'platform',
      'note',
      `the built-in simulator with demo data (PLATFORM_URL=${simulatorByName}): every Slack member gets a demo account; set PLATFORM_URL and PLATFORM_USERNAME/PLATFORM_PASSWORD for the real service`,
    );
  else if (slackCredentialsGiven(config)) {
    // `npm start` stops on it: the rows of the platform's section below are the simulator's.
    const [name, ...rest] = platformMissing.split(': ');
    r.add(
      'configuration',
      name ?? 'PLATFORM_URL',
      'blocking',
      `${rest.join(': ')}; the platform rows below checked the built-in simulator`,
    );
  } else
    r.add(
      'configuration',
      'platform',
      'note',
      'the built-in simulator with demo data, as in the playground (no Slack credentials are set): set PLATFORM_URL and PLATFORM_USERNAME/PLATFORM_PASSWORD to check the real service',
    );
  const proxy = config.proxy;
  r.add(
    'configuration',
    'proxy',
    proxy ? 'ok' : 'note',
    proxy
      ? `outgoing requests go through the proxy: ${describeProxy(proxy)} (Slack, the platform, response URLs and uploads)`
      : 'none: requests go direct (set HTTPS_PROXY, and NO_PROXY for hosts to reach directly, behind a company proxy)',
  );
  for (const m of missingSlackSettings(config)) {
    const [name, ...rest] = m.split(': ');
    r.add('configuration', name ?? 'Slack', 'blocking', rest.join(': '));
  }
}

// ---------- Slack ----------

async function slackChecks(r: Report, config: Config, manifest: ManifestFacts) {
  const token = config.slack.botToken;
  if (token) {
    // The same auth.test as the bot's start-up check; its answer also carries the scopes granted.
    const auth = await checkSlack({ token, apiUrl: config.slack.apiUrl });
    if (auth.ok) {
      const { team, teamId, botUser, botUserId } = auth.info;
      r.add(
        'slack',
        'bot token',
        'ok',
        `valid: workspace ${team} (${teamId}), bot user @${botUser} (${botUserId})`,
      );
      scopeChecks(r, auth.info.scopes, manifest);
      stepsCheck(r, auth.info.scopes);
      unfurlChecks(r, auth.info.scopes, config);
    } else if (auth.refusal)
      r.add(
        'slack',
        'bot token',
        'blocking',
        `Slack refused SLACK_BOT_TOKEN (${auth.refusal}): copy the Bot User OAuth Token (xoxb-…) again from your app's OAuth & Permissions page; reinstall the app if it was revoked or uninstalled`,
      );
    else r.add('slack', 'bot token', 'blocking', auth.problem);
  }
  if (config.slack.appToken)
    r.add(
      'slack',
      'transport',
      'ok',
      'Socket Mode (SLACK_APP_TOKEN set): no public URL needed; Socket Mode must be on in the app (manifest.yml: socket_mode_enabled: true)',
    );
  else
    r.add(
      'slack',
      'transport',
      'note',
      `HTTP mode on port ${config.slack.port} (SLACK_APP_TOKEN not set): put https://<your-host>/slack/events in four places of the app — Slash Commands: the Request URL of each (${manifest.commands.join(', ')}); Interactivity & Shortcuts: the Request URL; Interactivity & Shortcuts → Select Menus: the Options Load URL (without it the ticket form's Agent and Group menus stay empty); Event Subscriptions: the Request URL — and turn Socket Mode off`,
    );
}

function scopeChecks(r: Report, granted: string[] | undefined, manifest: ManifestFacts) {
  if (!granted) {
    r.add(
      'slack',
      'scopes',
      'warning',
      'Slack did not say which scopes the token has (no x-oauth-scopes header): compare them by hand with manifest.yml',
    );
    return;
  }
  const missing = manifest.botScopes.filter((s) => !granted.includes(s));
  const extra = granted.filter((s) => !manifest.botScopes.includes(s));
  if (missing.length)
    r.add(
      'slack',
      'scopes',
      'blocking',
      `missing ${missing.join(', ')}: add them under OAuth & Permissions → Bot Token Scopes (as in manifest.yml), then reinstall the app and copy the new token`,
    );
  else r.add('slack', 'scopes', 'ok', `all ${manifest.botScopes.length} bot scopes of manifest.yml granted`);
  if (extra.length)
    r.add('slack', 'extra scopes', 'note', `granted beyond manifest.yml (not needed): ${extra.join(', ')}`);
}

/**
 * The Workflow Builder steps (manifest.steps.yml): the token shows its scopes, not whether the app is
 * org-ready or declares the steps (no bot-token method tells), so the rest is said as what to set.
 */
function stepsCheck(r: Report, granted: string[] | undefined) {
  const setUp =
    'Workflow Builder steps are opt-in: create the app from manifest.steps.yml (or in its settings: Org Level Apps → Opt-In, then Workflow Steps → add create_conference, open_ticket, move_ticket), on a paid plan; on Enterprise Grid install it at the organization level and grant it a workspace, else the steps do not show in Workflow Builder';
  const missing = granted ? stepScopes.filter((s) => !granted.includes(s)) : [];
  if (missing.length)
    r.add('slack', 'workflow steps', 'warning', `the steps need ${missing.join(', ')} (missing). ${setUp}`);
  else r.add('slack', 'workflow steps', 'note', `the token has the steps' scopes. ${setUp}`);
}

/**
 * Link unfurls: the token's `links:read`/`links:write` (granted with the app's unfurl domains, which
 * the token does not show: the app's settings do), and the patterns set.
 */
function unfurlChecks(r: Report, granted: string[] | undefined, config: Config) {
  if (!granted) return;
  const missing = ['links:read', 'links:write'].filter((s) => !granted.includes(s));
  const kinds = (['ticket', 'conference', 'media'] as const).filter((k) => config.unfurls[k]);
  if (missing.length)
    r.add(
      'slack',
      'link unfurls',
      'warning',
      `off: the token lacks ${missing.join(', ')}. Add them, the link_shared event and your platform's domains under App Unfurl Domains (manifest.yml: features.unfurl_domains), then reinstall the app`,
    );
  else
    r.add(
      'slack',
      'link unfurls',
      'ok',
      `links:read and links:write granted; conferences' join links unfurl${kinds.length ? `, and ${kinds.join(', ')} links (UNFURL_*_PATTERN)` : ' (no UNFURL_*_PATTERN set: no ticket, conference or media page links)'}. Slack sends only the links of the app's unfurl domains (its settings, not visible to the token)`,
    );
}

// ---------- platform ----------

const root =
  'PLATFORM_URL should be the root of the service, e.g. https://cloud.apizee.com (without /api/v3)';

async function platformChecks(r: Report, ctx: DoctorContext, probe: PlatformProbe) {
  const { credentials, findings, simulator } = ctx.platform;
  let token: string;
  if (credentials.kind === 'password') {
    const a = await probe.send('createToken', {
      username: credentials.username,
      password: credentials.password,
    });
    if (!a.ok) {
      unreachableOrRefused(r, a, 'POST /api/v3/token', 'PLATFORM_USERNAME/PLATFORM_PASSWORD', findings);
      return;
    }
    const body = (a.body ?? {}) as Record<string, unknown>;
    token = String(body.access_token ?? '');
    const expires = Number(body.expires_in);
    r.add(
      'platform',
      'credentials',
      'ok',
      Number.isFinite(expires) && expires > 0
        ? `username/password: tokens renewed automatically; the platform said expires_in ${expires} s (${(expires / 3600).toFixed(1)} h)`
        : 'username/password: tokens renewed automatically; the answer carried no expires_in, so 24 h is assumed',
    );
  } else {
    token = credentials.token;
    if (simulator) r.add('platform', 'credentials', 'ok', 'the simulator’s admin token');
    else
      r.add(
        'platform',
        'credentials',
        'warning',
        'static PLATFORM_TOKEN: it lasts 24 h from when it was issued and is not renewed; set PLATFORM_USERNAME/PLATFORM_PASSWORD instead for automatic renewal',
      );
  }

  const me = await probe.send('getMe', {}, token);
  if (!me.ok || typeof me.body !== 'object' || me.body === null) {
    unreachableOrRefused(
      r,
      me,
      'GET /api/v3/users/me',
      credentials.kind === 'token' ? 'PLATFORM_TOKEN' : 'the token just issued',
      findings,
    );
    return;
  }
  findings.authSucceeded();
  const record = me.body as Record<string, unknown>;
  r.add('platform', 'reachable', 'ok', `answered in ${me.ms} ms`);
  const role = typeof record.role === 'string' ? record.role : undefined;
  r.add(
    'platform',
    'authenticated',
    role === 'admin' ? 'ok' : 'warning',
    `as ${String(record.username ?? record.email ?? record.id ?? '?')} (role ${role ?? 'not given'})${role === 'admin' ? '' : ': the bot’s platform account should be an admin, to see every ticket, user and group it decides about'}`,
  );
  enterpriseCheck(r, record, findings);
  await guessChecks(r, probe, token, findings);
  rateLimitCheck(r, probe, ctx);
}

function unreachableOrRefused(
  r: Report,
  a: ProbeAnswer,
  what: string,
  credential: string,
  findings: PlatformFindings,
) {
  if (a.status === 0) {
    r.add(
      'platform',
      'reachable',
      'blocking',
      `${what}: ${answerText(a)}: check PLATFORM_URL and that this host can reach it`,
    );
    return;
  }
  // A sign-in with wrong credentials may be answered 400 as well as 401.
  const signIn = what.startsWith('POST');
  if (a.status === 401 || a.status === 403 || (signIn && a.status === 400)) {
    r.add('platform', 'reachable', 'ok', `answered (${a.status})`);
    const fix =
      credential === 'PLATFORM_TOKEN'
        ? 'PLATFORM_TOKEN refused: a static token lasts 24 h; set PLATFORM_USERNAME/PLATFORM_PASSWORD for automatic renewal'
        : signIn
          ? `${credential} refused: check them on the platform (they sign in at POST /api/v3/token)`
          : 'the platform refused the token it had just issued: check the account is active and allowed to use the API';
    findings.authFailed(fix);
    r.add('platform', 'authenticated', 'blocking', `${what} answered ${answerText(a)}. ${fix}`);
    return;
  }
  if (a.status === 404 || a.status === 405 || (typeof a.body === 'string' && a.ok)) {
    r.add('platform', 'reachable', 'blocking', `${what} answered ${answerText(a)}: ${root}`);
    return;
  }
  r.add(
    'platform',
    'reachable',
    'blocking',
    `${what} answered ${answerText(a)}: the platform is failing or refusing; try again later, or ask its support`,
  );
}

/** Where `/users/me` carries the enterprise id: identity, permissions, groups and the digest need it. */
function enterpriseCheck(r: Report, me: Record<string, unknown>, findings: PlatformFindings) {
  const nested =
    me.enterprise && typeof me.enterprise === 'object'
      ? (me.enterprise as Record<string, unknown>).id
      : undefined;
  const found: [string, unknown][] = [
    ['enterprise_id', me.enterprise_id],
    ['enterpriseId', me.enterpriseId],
    ['enterprise.id', nested],
  ];
  const hit = found.find(([, v]) => v !== undefined && v !== null && v !== '');
  if (!hit) {
    r.add(
      'platform',
      'enterprise id',
      'blocking',
      'GET /api/v3/users/me carries no enterprise id (looked for enterprise_id, enterpriseId, enterprise.id): identities, permissions, groups and the digest need it; tell us which field your platform uses',
    );
    return;
  }
  findings.enterpriseIdFoundIn(hit[0]);
  r.add('platform', 'enterprise id', 'ok', `${String(hit[1])} (in ${hit[0]})`);
}

function rateLimitCheck(r: Report, probe: PlatformProbe, ctx: DoctorContext) {
  const seen = [...probe.rateLimitHeaders].sort();
  for (const h of seen) ctx.platform.findings.rateLimitHeaderSeen(h);
  const limit = ctx.config.platform.rateLimitPerMinute;
  if (!seen.length)
    r.add(
      'platform',
      'rate limit',
      'note',
      `no rate-limit header seen: confdesk keeps to PLATFORM_RATE_LIMIT (${limit} a minute)`,
    );
  else
    r.add(
      'platform',
      'rate limit',
      'ok',
      `headers seen: ${seen.join(', ')}${seen.includes('x-ratelimit-reset') ? '' : ' (no X-RateLimit-Reset: after a 429 confdesk waits a minute)'}; confdesk keeps to PLATFORM_RATE_LIMIT (${limit} a minute)`,
    );
}

// ---------- what the running bot learned ----------

function runtimeFindings(r: Report, s: FindingsSnapshot) {
  const shown = new Set(r.checks.filter((c) => c.section === 'guesses').map((c) => c.name));
  for (const [name, g] of Object.entries(s.guesses))
    if (!shown.has(name))
      r.add('guesses', name, g.status, `${g.detail} (learned ${new Date(g.at).toISOString()})`);
  for (const [operation, fields] of Object.entries(s.droppedFields))
    r.add(
      'guesses',
      `${operation} kept`,
      'warning',
      `the platform did not keep ${fields.join(', ')}: check their names in src/platform/endpoints.ts`,
    );
  if (s.authFailure && !r.checks.some((c) => c.name === 'authenticated' && c.blocking))
    r.add(
      'platform',
      'last refusal',
      'warning',
      `${s.authFailure.message} (at ${new Date(s.authFailure.at).toISOString()})`,
    );
}

// ---------- store ----------

/**
 * A store the doctor did not find (it never creates one): before the first start that is expected;
 * after it, the doctor is looking elsewhere than the bot.
 */
const storeNotFound = (where: string, migrations?: number) =>
  `${where.replace(/^DATA_DIR: /, '')}: not created yet (\`npm start\` creates it${migrations ? ` and applies the ${migrations} migrations` : ''}), or, if the bot has run already, DATA_DIR or DATABASE_URL is not the bot's`;

/** Answers the last webhook delivery the store recorded. */
async function storeChecks(r: Report, ctx: DoctorContext): Promise<string | undefined> {
  const { config } = ctx;
  let s: StoreInspection;
  try {
    s = await ctx.store();
  } catch (error) {
    const e = error as { message?: string; code?: string };
    r.add(
      'store',
      'open',
      'blocking',
      `cannot read the store (${e.code ?? ''}${e.code ? ': ' : ''}${e.message ?? String(error)}): ${config.store.databaseUrl ? 'check DATABASE_URL (server reachable, database created, user and password)' : `check that DATA_DIR (${config.store.dataDir}) is readable`}`,
    );
    return undefined;
  }
  r.add(
    'store',
    'backend',
    'ok',
    s.backend === 'postgres'
      ? `PostgreSQL${config.store.schema ? ` (schema ${config.store.schema})` : ''}`
      : `embedded SQLite file in DATA_DIR (${config.store.dataDir}/confdesk.sqlite)`,
  );
  const latest = s.known.at(-1) ?? 'none';
  if (!s.exists) {
    r.add(
      'store',
      'migrations',
      'warning',
      storeNotFound(`no store at ${resolve(storeFile(config.store))}`, s.known.length),
    );
    return undefined;
  }
  const pending = s.known.filter((m) => !s.applied.includes(m));
  const unknown = s.applied.filter((m) => !s.known.includes(m));
  if (pending.length)
    r.add(
      'store',
      'migrations',
      'blocking',
      `${s.known.length - pending.length} of ${s.known.length} applied; missing ${pending.join(', ')}: \`npm start\` applies them when it opens the store (a bot still running on it is an older version: restart it with this one)`,
    );
  else
    r.add('store', 'migrations', 'ok', `${s.known.length} of ${s.known.length} applied (latest ${latest})`);
  if (s.slackRefusal)
    r.add(
      'slack',
      'posting',
      'blocking',
      `paused since ${s.slackRefusal.since}: Slack refused the bot token (${s.slackRefusal.code}) when the bot posted, so ticket events and digests wait in the outbox: reinstall the app to the workspace (or set the new SLACK_BOT_TOKEN); they resume by themselves within a minute of Slack accepting it`,
    );
  if (unknown.length)
    r.add(
      'store',
      'newer migrations',
      'warning',
      `the store has migrations this version does not know (${unknown.join(', ')}): a newer confdesk used it`,
    );
  ticketEventChecks(r, ctx, s.ticketEvents);
  return s.lastWebhookAt;
}

/**
 * The ticket events' backlog and the regime this enterprise is in: how far polling alone goes for
 * the tickets the scans list (domain/ticket-feed.ts), and whether webhooks are needed.
 */
function ticketEventChecks(r: Report, ctx: DoctorContext, t: StoreInspection['ticketEvents']) {
  if (!t) return;
  const waiting = t.oldest ? Math.max(0, Date.now() - Date.parse(t.oldest)) : undefined;
  r.add(
    'webhooks',
    'ticket events backlog',
    t.reads > 100 ? 'warning' : 'ok',
    describeBacklog({ reads: t.reads, verify: t.verify, oldestMs: waiting, drainMs: undefined }),
  );
  const limit = ctx.config.platform.rateLimitPerMinute;
  const regime = pollingRegime({
    openTickets: t.ticketsListed,
    perMinute: limit,
    reserve: ctx.platform.budget?.reserve ?? defaultReserve(limit),
    pageSize: 100,
    pollIntervalMin: ctx.config.pollIntervalS / 60,
  });
  r.add(
    'webhooks',
    'polling capacity',
    regime.verdict === 'webhooks' && !ctx.config.webhook ? 'warning' : 'note',
    regime.summary,
  );
}

// ---------- webhooks ----------

function webhookChecks(r: Report, ctx: DoctorContext, stored: string | undefined, now: Date) {
  const w = ctx.config.webhook;
  if (w)
    r.add(
      'webhooks',
      'secret',
      'ok',
      `PLATFORM_WEBHOOK_SECRET set: the platform must call POST https://<your-host>/webhooks/platform with the ${w.header} header`,
    );
  else
    r.add(
      'webhooks',
      'secret',
      'note',
      `not set: ticket events arrive by polling only (every POLL_INTERVAL, ${ctx.config.pollIntervalS} s)`,
    );
  const times = [
    ctx.platform.findings.snapshot().lastWebhookAt,
    stored ? Date.parse(stored) : undefined,
  ].filter((t): t is number => t !== undefined && !Number.isNaN(t));
  const last = times.length ? Math.max(...times) : undefined;
  if (last !== undefined) {
    const minutes = Math.max(0, Math.round((now.getTime() - last) / 60_000));
    r.add('webhooks', 'last delivery', 'ok', `${new Date(last).toISOString()} (${minutes} min ago)`);
  } else if (w)
    r.add(
      'webhooks',
      'last delivery',
      'note',
      'none accepted yet: check the webhook URL, header and secret in the platform’s settings',
    );
}

export { maxPlatformRequests };
