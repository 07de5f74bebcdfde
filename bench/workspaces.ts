/*
 * bench/workspaces.ts — many workspaces on one process, then on replicas (distribution mode at a
 * vendor's scale). The bot (`node --import tsx src/main.ts`, distribution mode as deployed), the
 * platform simulator (bench/workspaces/sim.ts) and the Slack double (bench/workspaces/slack.ts) each
 * run as a process of their own.
 *
 * Each workspace is installed as a Slack admin installs it (the install page, Slack's Allow, the OAuth
 * redirect exchanging the code through `oauth.v2.access`), then set up as its admin sets it up
 * (`/conference admin settings`, the modal submitted with its own platform account: one enterprise
 * and admin per workspace in the simulator) until the modal says "Saved". Then, for one workspace and
 * for all N: the bot's RSS, its open files (/proc/<pid>/fd), its PostgreSQL connections
 * (pg_stat_activity of the bench's own database), its CPU over a quiet minute, and the ack time of
 * signed `/ticket help` commands spread over the workspaces; a restart (SIGTERM, start again) until
 * /readyz says all N run. On PostgreSQL, REPLICAS bots on the same database: how many workspaces'
 * jobs each runs, one killed (SIGKILL), the time until the other runs them all, and every ticket
 * change made meanwhile in a few workspaces (watched with `/ticket watch`) told once.
 *
 * Knobs: WORKSPACES (1000; 200 for a smoke run), BACKEND (sqlite, postgres, both: default both),
 * REPLICAS (2; 0 or 1: no replica part), WORKSPACES_DATABASE_URL (a PostgreSQL server's admin URL, by
 * default TEST_DATABASE_URL's server, else postgres://postgres@127.0.0.1:5432/postgres: the bench
 * creates a database of its own there and drops it), WORKSPACES_IDLE_S (60: the quiet minute),
 * WORKSPACES_SETTLE_S (30: from set-up to the quiet minute, the first scans), WORKSPACES_ACKS (200 commands,
 * 10 a second), WORKSPACES_EVENTS (5 workspaces with watched tickets), WORKSPACES_CONCURRENCY (4
 * installs at once), WORKSPACES_KEEP=1 (keep the logs and stores). Any DATABASE_POOL_*, CONFDESK_* or
 * WORKSPACE_LEASE_S variable of the bench's environment is handed to the bot.
 */

import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { defaultPoolSize } from '../src/store/db.js';
import { attribute, type Change } from './attribution.js';
import { alive, mark, type Proc, pct, sleep, spawnNode, stopProc, waitFor } from './realtime/processes.js';

const count = Number(process.env.WORKSPACES ?? 1000);
const backendKnob = process.env.BACKEND ?? 'both';
const backends = backendKnob === 'both' ? ['sqlite', 'postgres'] : [backendKnob];
const replicaCount = Number(process.env.REPLICAS ?? 2);
const idleMs = Number(process.env.WORKSPACES_IDLE_S ?? 60) * 1000;
const settleMs = Number(process.env.WORKSPACES_SETTLE_S ?? 30) * 1000;
const ackCount = Number(process.env.WORKSPACES_ACKS ?? 200);
/** How many workspaces were set up (the others wait for their settings). */
let setUpCount = count;
const eventWorkspaces = Math.min(count, Number(process.env.WORKSPACES_EVENTS ?? 5));
const concurrency = Number(process.env.WORKSPACES_CONCURRENCY ?? 4);
const keep = process.env.WORKSPACES_KEEP === '1';
const adminDbUrl = (() => {
  if (process.env.WORKSPACES_DATABASE_URL) return process.env.WORKSPACES_DATABASE_URL;
  const u = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = '/postgres';
  return u.toString();
})();
if (!(count >= 1)) throw new Error(`WORKSPACES: "${process.env.WORKSPACES}" is not a positive number`);
for (const b of backends)
  if (b !== 'sqlite' && b !== 'postgres')
    throw new Error(`BACKEND: "${backendKnob}" is not sqlite, postgres or both`);

const targets = {
  rssBytes: 1024 ** 3,
  idleCpu: 10,
  openFiles: 256,
  restartMs: 30_000,
  ackRatio: 1.5,
};
const publicUrl = 'https://confdesk.example';
/** The replicas' lease on a workspace's jobs (the bot's default unless handed to it). */
const leaseS = Number(process.env.WORKSPACE_LEASE_S ?? 30);
const clientId = '111.222';
const clientSecret = `client-secret-${randomBytes(6).toString('hex')}`;
const signingSecret = randomBytes(16).toString('hex');
const ticketsPerEventWorkspace = 3;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const secs = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '—');
const msText = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : '—');

// ---------- processes (bench/realtime/processes.ts) ----------

/**
 * WORKSPACES_CPU_PROF=<folder>: each bot writes a V8 CPU profile there when it exits (to find where
 * idle time goes; open it in Chrome's DevTools or `node --cpu-prof` tools).
 */
const profArgs = process.env.WORKSPACES_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WORKSPACES_CPU_PROF}`]
  : [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

// ---------- what /proc says ----------

const clockTicks = 100;
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
  return Number(fields[11]) + Number(fields[12]);
}
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const openFilesOf = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

// ---------- HTTP ----------

async function http(
  url: string,
  o: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method: o.method ?? 'GET',
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: o.headers ?? {},
    redirect: 'manual',
    signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}
async function getJson<T>(url: string): Promise<T> {
  const r = await http(url);
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text) as T;
}
async function postJson<T>(url: string, body: unknown): Promise<T> {
  const r = await http(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text) as T;
}

/** A request signed as Slack signs it; answers its status, body and how long the ack took. */
async function signed(botUrl: string, body: string, contentType: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const started = performance.now();
  const r = await http(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    },
  });
  return { ...r, ms: performance.now() - started };
}

// ---------- the workspaces ----------

interface Account {
  email: string;
  token: string;
  agentToken: string;
  tickets: string[];
}
interface Ws {
  i: number;
  team: string;
  admin: string;
  channel: string;
  account: Account;
}
const wsOf = (i: number, account: Account): Ws => ({
  i,
  team: `TW${String(i).padStart(6, '0')}`,
  admin: `UADM${String(i).padStart(6, '0')}`,
  channel: `CW${String(i).padStart(6, '0')}`,
  account,
});

interface Neighbours {
  sim: { url: string; control: string };
  slack: { api: string; url: string; control: string };
}

function command(n: Neighbours, botUrl: string, ws: Ws, name: string, text: string, trigger?: string) {
  return signed(
    botUrl,
    new URLSearchParams({
      command: name,
      text,
      user_id: ws.admin,
      channel_id: ws.channel,
      team_id: ws.team,
      team_domain: ws.team.toLowerCase(),
      response_url: `${n.slack.url}/response/${randomBytes(6).toString('hex')}`,
      trigger_id: trigger ?? `trigger-${randomBytes(6).toString('hex')}`,
    }).toString(),
    'application/x-www-form-urlencoded',
  );
}

/** "Add to Slack": the install page, Allow (the double hands out a code), the redirect with the page's cookie. */
async function install(n: Neighbours, botUrl: string, ws: Ws): Promise<string | undefined> {
  const page = await http(`${botUrl}/slack/install`);
  const authorize = /href="([^"]+)"/.exec(page.text)?.[1]?.replace(/&#38;/g, '&');
  if (page.status !== 200 || !authorize) return `install page ${page.status}`;
  const state = new URL(authorize).searchParams.get('state') ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { code } = await postJson<{ code: string }>(`${n.slack.control}/grant`, {
    teamId: ws.team,
    teamName: `Workspace ${ws.i}`,
    user: ws.admin,
    email: ws.account.email,
  });
  const done = await http(`${botUrl}/slack/oauth_redirect?code=${code}&state=${encodeURIComponent(state)}`, {
    headers: { cookie },
  });
  return done.status === 200 ? undefined : `redirect ${done.status}: ${done.text.slice(0, 200)}`;
}

/** The settings modal filled with the workspace's own platform account and submitted; waits for "Saved". */
async function saveSettings(n: Neighbours, botUrl: string, ws: Ws): Promise<string | undefined> {
  const trigger = `trigger-${randomBytes(6).toString('hex')}`;
  await postJson(`${n.slack.control}/trigger`, { trigger, user: ws.admin });
  const opened = await command(n, botUrl, ws, '/conference', 'admin settings', trigger);
  if (opened.status !== 200) return `the settings command: ${opened.status}`;
  let modal: { id: string; callbackId: string } | null = null;
  for (let k = 0; k < 200 && !modal; k++) {
    modal = await getJson<{ id: string; callbackId: string } | null>(
      `${n.slack.control}/modal?user=${ws.admin}`,
    );
    if (modal?.callbackId !== 'workspace_settings') modal = null;
    if (!modal) await sleep(50);
  }
  if (!modal) return 'no settings modal opened';
  const text = (v: string | undefined) => ({ type: 'plain_text_input', value: v ?? null });
  const pick = (v: string | undefined) => ({
    type: 'static_select',
    selected_option: v ? { value: v } : null,
  });
  const payload = {
    type: 'view_submission',
    team: { id: ws.team, domain: 'x' },
    user: { id: ws.admin, team_id: ws.team },
    api_app_id: 'ADOUBLE01',
    trigger_id: `trigger-${randomBytes(6).toString('hex')}`,
    view: {
      id: modal.id,
      callback_id: 'workspace_settings',
      private_metadata: '',
      hash: 'h',
      type: 'modal',
      state: {
        values: {
          platform_url: { value: text(n.sim.url) },
          credentials_kind: { value: pick('token') },
          platform_token: { value: text(ws.account.token) },
          platform_username: { value: text(undefined) },
          platform_password: { value: text(undefined) },
          service_key: { value: text(undefined) },
          language: { value: pick(undefined) },
          ticket_creators: { value: pick('account') },
          webhook_secret: { value: text(undefined) },
        },
      },
    },
  };
  const submitted = await signed(
    botUrl,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    'application/x-www-form-urlencoded',
  );
  if (submitted.status !== 200) return `the submission: ${submitted.status} ${submitted.text.slice(0, 200)}`;
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    const v = await getJson<{ text: string }>(`${n.slack.control}/view?id=${modal.id}`);
    if (v.text.includes('Saved')) return undefined;
    if (v.text.includes('Not saved')) return /Not saved[^"\\]*/.exec(v.text)?.[0] ?? 'not saved';
    await sleep(100);
  }
  return 'no "Saved" within 300 s';
}

/** Installs and sets up workspaces `from..to-1`, `concurrency` at a time; answers what failed. */
async function setUp(n: Neighbours, botUrl: string, all: Ws[]): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const ws = all[next++] as Ws;
      try {
        const problem = (await install(n, botUrl, ws)) ?? (await saveSettings(n, botUrl, ws));
        if (problem) failed.push(`${ws.team}: ${problem}`);
      } catch (error) {
        failed.push(`${ws.team}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}

// ---------- readiness and shares ----------

interface Ready {
  status: number;
  running: number;
  detail: string;
}
/** What /readyz says: its status and how many workspaces it counts as running (set up and started). */
async function readyz(botUrl: string): Promise<Ready> {
  try {
    const r = await http(`${botUrl}/readyz`, { timeoutMs: 5_000 });
    const body = JSON.parse(r.text) as { checks?: Record<string, { detail?: string }> };
    const detail = body.checks?.workspaces?.detail ?? '';
    const running = Number(/(\d+) (?:set up|running|started)/.exec(detail)?.[1] ?? 0);
    return { status: r.status, running, detail };
  } catch {
    return { status: 0, running: 0, detail: 'no answer' };
  }
}

/** Waits until /readyz answers 200 with `n` workspaces running; answers when (or undefined at the cap). */
async function untilReady(botUrl: string, n: number, capMs: number, p?: Proc): Promise<number | undefined> {
  const until = Date.now() + capMs;
  while (Date.now() < until) {
    const r = await readyz(botUrl);
    if (r.status === 200 && r.running >= n) return Date.now();
    if (p && !alive(p)) return undefined;
    await sleep(100);
  }
  return undefined;
}

/**
 * How many workspaces' background jobs each replica runs. A metric of the process, if it has one
 * (`confdesk_workspaces_leased`, `…_owned`, `…_jobs`: a gauge without labels or summed); else the poll
 * leases in the bench's database: each live lease counted for its owner.
 */
async function sharesOf(
  urls: string[],
  db: pg.Client | undefined,
): Promise<{ how: string; perReplica: number[]; owners?: Map<string, number> }> {
  const fromMetrics = await Promise.all(
    urls.map(async (u) => {
      try {
        const r = await http(`${u}/metrics`, { timeoutMs: 10_000 });
        let sum: number | undefined;
        for (const line of r.text.split('\n')) {
          const m =
            /^(confdesk_workspaces_(?:leased|owned|jobs|held|running_jobs)[a-z_]*)(?:\{[^}]*\})? (\S+)$/.exec(
              line,
            );
          if (m) sum = (sum ?? 0) + Number(m[2]);
        }
        return sum;
      } catch {
        return undefined;
      }
    }),
  );
  if (fromMetrics.every((v) => v !== undefined))
    return { how: '/metrics', perReplica: fromMetrics as number[] };
  if (!db) return { how: 'unknown', perReplica: urls.map(() => Number.NaN) };
  const tables = await db.query<{ s: string }>(
    `select table_schema as s from information_schema.tables where table_name = 'leases'`,
  );
  const owners = new Map<string, number>();
  const now = new Date().toISOString();
  for (let k = 0; k < tables.rows.length; k += 200) {
    const part = tables.rows.slice(k, k + 200);
    const q = part
      .map((t) => `select owner from "${t.s}".leases where name = 'poller' and until > $1`)
      .join(' union all ');
    const r = await db.query<{ owner: string; n: string }>(
      `select owner, count(*) as n from (${q}) x group by owner`,
      [now],
    );
    for (const row of r.rows) owners.set(row.owner, (owners.get(row.owner) ?? 0) + Number(row.n));
  }
  return { how: 'poll leases in the store', perReplica: [], owners };
}

// ---------- one backend ----------

interface Figures {
  rss: number;
  openFiles: number;
  idleCpu: number;
  pgConnections: number | undefined;
  /** Connections held for LISTEN, outside the pool. */
  pgListening: number;
  ackP50: number;
  ackP99: number;
  ackFailures: number;
  ready: Ready;
}

async function measure(
  n: Neighbours,
  bot: Proc,
  botUrl: string,
  ws: Ws[],
  db: pg.Client | undefined,
  dbName: string | undefined,
): Promise<Figures> {
  // Connections: the most seen while quiet (sampled every 5 s), the bench's own excepted.
  let pgConnections: number | undefined;
  let pgListening = 0;
  const sampleDb = async () => {
    if (!db || !dbName) return;
    // A connection held for LISTEN (wake-ups between replicas) is counted apart from the pool's.
    const r = await db.query<{ n: string; listening: string }>(
      `select count(*) as n, count(*) filter (where query ilike 'listen %') as listening
         from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [dbName],
    );
    const listening = Number(r.rows[0]?.listening ?? 0);
    pgListening = Math.max(pgListening, listening);
    pgConnections = Math.max(pgConnections ?? 0, Number(r.rows[0]?.n ?? 0) - listening);
  };
  const t0 = cpuTicks(bot.pid);
  const started = performance.now();
  while (performance.now() - started < idleMs) {
    await sampleDb();
    await sleep(Math.min(5_000, idleMs - (performance.now() - started)));
  }
  const idleCpu = ((cpuTicks(bot.pid) - t0) / clockTicks / ((performance.now() - started) / 1000)) * 100;
  const rss = rssOf(bot.pid);
  const openFiles = openFilesOf(bot.pid);
  await sampleDb();
  // Acks: `/ticket help` (answered in the ack itself) from workspaces in turn, 10 a second, after
  // 20 not counted (the first requests of a workspace warm its code paths up).
  for (let k = 0; k < 20; k++) await command(n, botUrl, ws[k % ws.length] as Ws, '/ticket', 'help');
  const acks: number[] = [];
  let ackFailures = 0;
  const sends: Promise<void>[] = [];
  const t = performance.now();
  for (let k = 0; k < ackCount; k++) {
    await sleep(t + k * 100 - performance.now());
    const w = ws[k % ws.length] as Ws;
    sends.push(
      command(n, botUrl, w, '/ticket', 'help').then(
        (r) => {
          if (r.status === 200 && r.text.includes('ticket')) acks.push(r.ms);
          else ackFailures++;
        },
        () => {
          ackFailures++;
        },
      ),
    );
  }
  await Promise.all(sends);
  await sampleDb();
  return {
    rss,
    openFiles,
    idleCpu,
    pgConnections,
    pgListening,
    ackP50: pct(acks, 50),
    ackP99: pct(acks, 99),
    ackFailures,
    ready: await readyz(botUrl),
  };
}

const figureLine = (label: string, f: Figures, one?: Figures) =>
  [
    `  ${label}: RSS ${mb(f.rss)} · open files ${f.openFiles} · idle CPU ${f.idleCpu.toFixed(1)}% of a core · ` +
      `PostgreSQL connections ${f.pgConnections ?? '—'}${f.pgListening ? ` (+ ${f.pgListening} LISTEN)` : ''} · ack p50 ${msText(f.ackP50)} p99 ${msText(f.ackP99)}` +
      `${f.ackFailures ? ` (${f.ackFailures} not acked)` : ''} · /readyz ${f.ready.status} "${f.ready.detail.slice(0, 200)}"`,
    ...(one
      ? [
          `  targets: ${mark(f.rss <= targets.rssBytes)} RSS ${mb(f.rss)} (≤ 1 GB) · ` +
            `${mark(f.idleCpu <= targets.idleCpu)} idle CPU ${f.idleCpu.toFixed(1)}% (≤ ${targets.idleCpu}% of a core) · ` +
            `${mark(f.openFiles <= targets.openFiles)} open files ${f.openFiles} (≤ ${targets.openFiles}) · ` +
            `${mark(f.ackP99 <= targets.ackRatio * one.ackP99)} ack p99 ${msText(f.ackP99)} (≤ 1.5 × ${msText(one.ackP99)} = ${msText(targets.ackRatio * one.ackP99)})`,
        ]
      : []),
  ].join('\n');

async function runBackend(backend: 'sqlite' | 'postgres'): Promise<string[]> {
  const out: string[] = [];
  const say = (line: string) => {
    out.push(line);
    console.log(line);
  };
  const dir = mkdtempSync(join(tmpdir(), `confdesk-workspaces-${backend}-`));
  const procs: Proc[] = [];
  let admin: pg.Client | undefined;
  let db: pg.Client | undefined;
  const dbName = backend === 'postgres' ? `confdesk_bench_${randomBytes(4).toString('hex')}` : undefined;
  try {
    const simProc = spawnNode('simulator', ['bench/workspaces/sim.ts'], {}, join(dir, 'sim.log'));
    const slackProc = spawnNode(
      'Slack double',
      ['bench/workspaces/slack.ts'],
      { WORKSPACES_CLIENT_ID: clientId, WORKSPACES_CLIENT_SECRET: clientSecret },
      join(dir, 'slack.log'),
    );
    procs.push(simProc, slackProc);
    const n: Neighbours = {
      sim: JSON.parse(await waitFor(simProc, /WORKSPACES_SIM (\{.*\})/)),
      slack: JSON.parse(await waitFor(slackProc, /WORKSPACES_SLACK (\{.*\})/)),
    };
    let databaseUrl: string | undefined;
    if (dbName) {
      admin = new pg.Client({ connectionString: adminDbUrl, application_name: 'confdesk-bench' });
      await admin.connect();
      await admin.query(`create database ${dbName}`);
      const u = new URL(adminDbUrl);
      u.pathname = `/${dbName}`;
      databaseUrl = u.toString();
      // In the bench's database (its leases are read there); its own connection is not counted.
      db = new pg.Client({ connectionString: databaseUrl, application_name: 'confdesk-bench' });
      await db.connect();
      const max = await db.query<{ max_connections: string }>('show max_connections');
      say(
        `  PostgreSQL: database ${dbName} on a server with max_connections ${max.rows[0]?.max_connections}`,
      );
    }
    const encryptionKey = randomBytes(32).toString('base64');
    const passed = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] =>
          /^(DATABASE_POOL|CONFDESK_|WORKSPACE_LEASE_S$)/.test(e[0]) && e[1] !== undefined,
      ),
    );
    const envFor = (port: number): Record<string, string> => ({
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_CLIENT_ID: clientId,
      SLACK_CLIENT_SECRET: clientSecret,
      SLACK_STATE_SECRET: 'bench-state-secret-long-enough-to-be-random',
      CONFDESK_ENCRYPTION_KEY: encryptionKey,
      PUBLIC_URL: publicUrl,
      SLACK_API_URL: n.slack.api,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS: 'on',
      // The simulator is plain http on loopback: allowed by name, as an operator allows theirs.
      PLATFORM_HOSTS: '127.0.0.1',
      SHUTDOWN_TIMEOUT_S: '10',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: join(dir, 'data') }),
      ...passed,
    });
    const watch = [/too many clients/, /"level":50/];
    const startBot = async (name: string, port: number) => {
      const p = spawnNode(name, ['src/main.ts'], envFor(port), join(dir, `${name}.log`), {
        count: watch,
        nodeArgs: profArgs,
        append: true,
      });
      procs.push(p);
      const url = `http://127.0.0.1:${port}`;
      const until = Date.now() + 900_000;
      while (Date.now() < until) {
        if (!alive(p)) throw new Error(`${name} exited:\n${p.output().slice(-3000)}`);
        const r = await http(`${url}/healthz`, { timeoutMs: 2_000 }).catch(() => undefined);
        if (r?.status === 200) break;
        await sleep(100);
      }
      return { p, url };
    };

    // The accounts: one enterprise and admin per workspace (tickets in the few watched ones).
    const accounts: Account[] = [
      ...(await postJson<Account[]>(`${n.sim.control}/accounts`, {
        from: 0,
        count: eventWorkspaces,
        tickets: ticketsPerEventWorkspace,
      })),
    ];
    for (let from = eventWorkspaces; from < count; from += 200)
      accounts.push(
        ...(await postJson<Account[]>(`${n.sim.control}/accounts`, {
          from,
          count: Math.min(200, count - from),
        })),
      );
    const ws = accounts.map((a, i) => wsOf(i, a));

    const port = await freePort();
    let bot = await startBot('bot', port);
    const botUrl = bot.url;

    // One workspace.
    let t = Date.now();
    const firstFailed = await setUp(n, botUrl, ws.slice(0, 1));
    if (firstFailed.length) throw new Error(`the first workspace could not be set up: ${firstFailed[0]}`);
    await untilReady(botUrl, 1, 60_000, bot.p);
    await sleep(settleMs);
    const one = await measure(n, bot.p, botUrl, ws.slice(0, 1), db, dbName);
    say(figureLine('1 workspace', one));

    // All N.
    t = Date.now();
    const failed = await setUp(n, botUrl, ws.slice(1));
    const setupMs = Date.now() - t;
    say(
      `  set up ${count - failed.length}/${count} workspaces through OAuth + settings in ${secs(setupMs)}` +
        ` (${concurrency} at a time)${failed.length ? `; ${failed.length} failed, first: ${failed.slice(0, 3).join(' | ')}` : ''}`,
    );
    // A workspace whose set-up failed waits for its settings: "all" is those set up.
    setUpCount = count - failed.length;
    const readyAt = await untilReady(botUrl, setUpCount, 120_000, bot.p);
    if (readyAt === undefined) say(`  /readyz after 120 s: ${JSON.stringify(await readyz(botUrl))}`);
    // The first scans and the jobs' first turns pass before the quiet minute.
    await sleep(settleMs);
    // The watched tickets, in the few event workspaces (each watch posts its card).
    for (const w of ws.slice(0, eventWorkspaces))
      for (const ticket of w.account.tickets) await command(n, botUrl, w, '/ticket', `watch ${ticket}`);
    await sleep(5_000);
    const all = await measure(n, bot.p, botUrl, ws, db, dbName);
    say(figureLine(`${count} workspaces`, all, one));
    if (dbName)
      say(
        `  ${mark((all.pgConnections ?? 0) <= poolSize())} PostgreSQL connections ${all.pgConnections} (≤ the pool size, ${poolSize()})${all.pgListening ? `, and ${all.pgListening} held for LISTEN` : ''}`,
      );
    const tooMany = bot.p.counted.get(watch[0] as RegExp) ?? 0;
    const errors = bot.p.counted.get(watch[1] as RegExp) ?? 0;
    say(`  the bot's log so far: ${errors} error lines, ${tooMany} "too many clients"`);

    // Restart: SIGTERM, start again, until /readyz says all N run.
    const restartFrom = Date.now();
    await stopProc(bot.p, 60_000);
    const stoppedMs = Date.now() - restartFrom;
    bot = await startBot('bot-restarted', port);
    const answeredMs = Date.now() - restartFrom;
    const back = await untilReady(botUrl, setUpCount, 600_000, bot.p);
    const restartMs = back === undefined ? Number.POSITIVE_INFINITY : back - restartFrom;
    say(
      `  restart: ${mark(restartMs <= targets.restartMs)} all ${setUpCount} set up running ${secs(restartMs)} after SIGTERM (≤ 30 s): ` +
        `stopped in ${secs(stoppedMs)}, /healthz answered at ${secs(answeredMs)}` +
        (back === undefined ? `; /readyz at the cap: ${JSON.stringify(await readyz(botUrl))}` : ''),
    );

    if (backend === 'postgres' && replicaCount >= 2) {
      await stopProc(bot.p, 60_000);
      out.push(...(await replicas(n, ws, startBot, db)));
    }
    return out;
  } finally {
    for (const p of [...procs].reverse()) await stopProc(p, 30_000);
    await db?.end().catch(() => undefined);
    if (admin && dbName) {
      if (!keep) await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    }
    if (keep) console.log(`  kept: ${dir}${dbName ? ` and database ${dbName}` : ''}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The pool size the bot runs with: DATABASE_POOL_SIZE as handed to it, else the bot's default. */
function poolSize(): number {
  const set = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isFinite(set) && set > 0 ? set : defaultPoolSize;
}

// ---------- replicas ----------

async function replicas(
  n: Neighbours,
  ws: Ws[],
  startBot: (name: string, port: number) => Promise<{ p: Proc; url: string }>,
  db: pg.Client | undefined,
): Promise<string[]> {
  const out: string[] = [];
  const say = (line: string) => {
    out.push(line);
    console.log(line);
  };
  const bots: { p: Proc; url: string }[] = [];
  for (let r = 0; r < replicaCount; r++)
    try {
      bots.push(await startBot(`replica-${r + 1}`, await freePort()));
    } catch (error) {
      const last = (error as Error).message.trim().split('\n').at(-1) ?? '';
      say(`  ${replicaCount} replicas: ✗ replica ${r + 1} could not start: ${last.slice(0, 300)}`);
      return out;
    }
  for (const b of bots) await untilReady(b.url, setUpCount, 600_000, b.p);
  // The shares settle: read until two readings a lease renewal apart agree (at most 3 minutes).
  const shareText = async (urls: string[]) => {
    const s = await sharesOf(urls, db);
    if (s.owners)
      return {
        s,
        text: `${[...s.owners.values()].join(' + ')} workspaces by ${s.owners.size} owner(s) (${s.how})`,
        total: [...s.owners.values()].reduce((a, b) => a + b, 0),
        max: Math.max(0, ...s.owners.values()),
        holders: s.owners.size,
      };
    return {
      s,
      text: `${s.perReplica.join(' + ')} (${s.how})`,
      total: s.perReplica.reduce((a, b) => a + b, 0),
      max: Math.max(0, ...s.perReplica),
      holders: s.perReplica.filter((x) => x > 0).length,
    };
  };
  let shares = await shareText(bots.map((b) => b.url));
  const settleUntil = Date.now() + 180_000;
  while (Date.now() < settleUntil) {
    await sleep(20_000);
    const next = await shareText(bots.map((b) => b.url));
    const same = next.text === shares.text;
    shares = next;
    if (same && next.total >= setUpCount) break;
  }
  const half = setUpCount / replicaCount;
  say(
    `  ${replicaCount} replicas: jobs run ${shares.text}: ${mark(shares.holders === replicaCount && Math.abs(shares.max - half) <= 0.2 * half)} about ${Math.round(half)} each`,
  );

  // Changes in the watched workspaces: before the kill, then right after it, each by the workspace's agent.
  const changes: Change[] = [];
  const move = async (to: string) => {
    for (const w of ws.slice(0, eventWorkspaces))
      for (const ticket of w.account.tickets) {
        await http(`${n.sim.url}/api/v3/tickets/${ticket}?state=${to}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${w.account.agentToken}` },
        });
      }
  };
  const movesNow = async () =>
    getJson<{ ticketId: string; eventId: string; to: string; modified: number; at: number }[]>(
      `${n.sim.control}/moves`,
    );
  const postsFrom = (await getJson<{ next: number }>(`${n.slack.control}/posts?from=0`)).next;
  await move('inprogress');
  const killed = bots[0] as { p: Proc; url: string };
  // When its heartbeat runs out (its shares with it): nothing can take them before. Its lease's owner
  // name holds its pid.
  const lapse = db
    ? await db
        .query<{ until: string }>(
          "select until from leases where name like 'replica:%' and owner like $1 order by until desc limit 1",
          [`%-${killed.p.pid}-%`],
        )
        .then((r) => (r.rows[0] ? new Date(r.rows[0].until).getTime() : undefined))
        .catch(() => undefined)
    : undefined;
  const killedAt = Date.now();
  killed.p.child.kill('SIGKILL');
  await killed.p.exited;
  await move('done');
  const survivors = bots.slice(1);
  let takenMs = Number.POSITIVE_INFINITY;
  let last = shares;
  while (Date.now() - killedAt < 600_000) {
    last = await shareText(survivors.map((b) => b.url));
    // From the leases, the dead owner's lapse first: all held by the survivors' owners.
    const allTaken = last.s.owners
      ? last.total >= setUpCount && last.holders === survivors.length
      : last.total >= setUpCount;
    if (allTaken) {
      takenMs = Date.now() - killedAt;
      break;
    }
    await sleep(250);
  }
  const afterLapse = lapse === undefined ? undefined : killedAt + takenMs - lapse;
  say(
    `  replica 1 killed (SIGKILL): ${mark(takenMs <= leaseS * 1000 + 1_000)} the other runs all ${setUpCount} after ${secs(takenMs)} (within a lease period, WORKSPACE_LEASE_S ${leaseS} s, and the 1 s it takes to start them; ${last.text})` +
      (afterLapse === undefined
        ? ''
        : `: its heartbeat ran out ${secs((lapse as number) - killedAt)} after the kill, taken ${secs(afterLapse)} after that`),
  );

  // Every change told once: waited for up to 3 minutes after the takeover.
  const made = (await movesNow()).map((m) => ({
    eventId: m.eventId,
    ticketId: m.ticketId,
    to: m.to,
    modified: m.modified,
    madeAt: m.at,
  }));
  changes.push(...made);
  let told = attribute(changes, []);
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const { posts } = await getJson<{ posts: { channel: unknown; metadata: unknown; at: number }[] }>(
      `${n.slack.control}/posts?from=${postsFrom}`,
    );
    told = attribute(changes, posts);
    if (told.toldAt.size === changes.length) {
      await sleep(15_000);
      const again = await getJson<{ posts: { channel: unknown; metadata: unknown; at: number }[] }>(
        `${n.slack.control}/posts?from=${postsFrom}`,
      );
      told = attribute(changes, again.posts);
      break;
    }
    await sleep(2_000);
  }
  say(
    `  ticket changes in ${eventWorkspaces} workspaces (half before the kill, half after): ` +
      `${mark(told.toldAt.size === changes.length && told.duplicates === 0)} told ${told.toldAt.size}/${changes.length}, duplicates ${told.duplicates}`,
  );
  return out;
}

async function main(): Promise<void> {
  console.log(
    `Many workspaces (distribution mode): ${count} installed through OAuth and set up, bot, simulator and Slack double in their own processes; backends ${backends.join(', ')}; replicas ${replicaCount}`,
  );
  for (const backend of backends) {
    console.log(`${backend === 'sqlite' ? 'Embedded store (SQLite)' : 'PostgreSQL'}:`);
    const started = Date.now();
    try {
      await runBackend(backend as 'sqlite' | 'postgres');
    } catch (error) {
      console.log(`  could not run: ${(error as Error).stack ?? String(error)}`);
    }
    console.log(`  (took ${secs(Date.now() - started)})`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
