/*
 * bench/realtime-unfurls.ts — link unfurls in real time: the bot (`node --import tsx src/main.ts`), the
 * platform simulator (bench/realtime/sim.ts, at its real limit of 10 requests a minute) and the Slack
 * double (bench/realtime/slack.ts) as three processes, as in production.
 *
 * Five Slack people with platform accounts that may see the ticket (the admin, Carol, and three agents
 * of the admin's group "Level 2") paste the same ticket link (one of Level 2's) 50 times within 10 s,
 * taking turns: each paste is a message in the double and the signed `link_shared` Slack would send
 * for it. Before the burst, each person pasted another ticket's link once (their accounts are
 * then known, as those of people who use the bot are) and the platform's one-minute window is over.
 *
 * Two bursts: a ticket created after the bot's scans (no record kept: target, one read), then a
 * seeded ticket its first scan listed (the record kept: target, no read). Figures of each: the
 * platform's reads of that ticket during the burst, the time from each paste to its `chat.unfurl`
 * (target: p95 ≤ 2 s), how many were unfurled, every platform request the burst cost.
 * Knobs: UNFURLS_PASTES (50), UNFURLS_SPREAD_S (10), UNFURLS_KEEP=1 (keep the logs' folder).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pastes = Number(process.env.UNFURLS_PASTES ?? 50);
const spreadMs = Number(process.env.UNFURLS_SPREAD_S ?? 10) * 1000;
const keep = process.env.UNFURLS_KEEP === '1';
const targetP95Ms = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
};
const secs = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(2)} s`);

// ---------- processes (as bench/realtime.ts runs them) ----------

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

interface Proc {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

function spawnNode(
  name: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
  ipc = true,
): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const file = createWriteStream(logFile);
  let text = '';
  const read = (chunk: Buffer) => {
    file.write(chunk);
    text += chunk;
    if (text.length > 400_000) text = text.slice(-200_000);
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      file.end();
      resolve(code);
    }),
  );
  return { name, child, exited, output: () => text };
}

async function waitFor(p: Proc, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = pattern.exec(p.output());
    if (m) return m[1] as string;
    if (p.child.exitCode !== null)
      throw new Error(`${p.name} exited before it was ready:\n${p.output().slice(-3000)}`);
    await sleep(50);
  }
  throw new Error(`${p.name} not ready within ${timeoutMs / 1000} s:\n${p.output().slice(-3000)}`);
}

async function stopProc(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const done = await Promise.race([p.exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!done) p.child.kill('SIGKILL');
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return (await res.json()) as T;
}
async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** An Events API callback, signed as Slack signs it. */
async function sendEvent(botUrl: string, secret: string, event: Record<string, unknown>): Promise<number> {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: 'T0000DBL',
    api_app_id: 'A1',
    event_id: `Ev${randomBytes(6).toString('hex')}`,
    event_time: Math.floor(Date.now() / 1000),
    event,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const res = await fetch(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    },
  });
  await res.text();
  return res.status;
}

interface SimRequest {
  method: string;
  path: string;
  at?: number;
}
interface Unfurled {
  channel: string | undefined;
  ts: string | undefined;
  urls: string[];
  ok: boolean;
  at: number;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-unfurls-'));
  const procs: Proc[] = [];
  try {
    const simProc = spawnNode(
      'simulator',
      ['bench/realtime/sim.ts'],
      { REALTIME_TICKETS: '1', REALTIME_AGENTS: '3', REALTIME_AGENTS_IN_ADMIN_GROUP: '1' },
      join(dir, 'sim.log'),
    );
    const slackProc = spawnNode('Slack double', ['bench/realtime/slack.ts'], {}, join(dir, 'slack.log'));
    procs.push(simProc, slackProc);
    const simAt = JSON.parse(await waitFor(simProc, /REALTIME_SIM (\{.*\})/)) as {
      url: string;
      control: string;
    };
    const slackAt = JSON.parse(await waitFor(slackProc, /REALTIME_SLACK (\{.*\})/)) as {
      api: string;
      control: string;
    };
    const setup = await getJson<{
      url: string;
      adminToken: string;
      agents: { username: string }[];
      seeded: { id: string; reference: string | undefined }[];
    }>(`${simAt.control}/setup`);
    const ticketId = setup.seeded.find((t) => t.reference === 'ACME-1004')?.id;
    const warmId = setup.seeded.find((t) => t.reference === 'ACME-1005')?.id;
    if (!ticketId || !warmId) throw new Error('the simulator has no ACME-1004/ACME-1005');
    const people = [
      { id: 'UADMIN', email: 'admin@acme.example' },
      { id: 'UCAROL', email: 'carol@acme.example' },
      ...setup.agents.map((a, i) => ({ id: `UAGENT${i}`, email: `${a.username}@acme.example` })),
    ];
    await postJson(`${slackAt.control}/people`, people);

    const signingSecret = randomBytes(16).toString('hex');
    const host = new URL(setup.url).host.replace(/\./g, '\\.');
    const botProc = spawnNode(
      'bot',
      ['src/main.ts'],
      {
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        SLACK_BOT_TOKEN: 'xoxb-unfurls-bench',
        SLACK_SIGNING_SECRET: signingSecret,
        SLACK_API_URL: slackAt.api,
        PORT: '0',
        PLATFORM_URL: setup.url,
        PLATFORM_TOKEN: setup.adminToken,
        PLATFORM_RATE_LIMIT: '10',
        POLL_INTERVAL: '30',
        DATA_DIR: join(dir, 'data'),
        UNFURL_TICKET_PATTERN: `^http://${host}/desk/tickets/(\\d+)`,
      },
      join(dir, 'bot.log'),
      false,
    );
    procs.push(botProc);
    const botUrl = `http://127.0.0.1:${await waitFor(botProc, /listening on port (\d+)/, 120_000)}`;
    const link = (id: string) => `${setup.url}/desk/tickets/${id}`;
    const domains = [new URL(setup.url).hostname];
    const paste = async (user: string, text: string) => {
      const r = await postJson<{ ts: string; event: Record<string, unknown> | null }>(
        `${slackAt.control}/paste`,
        {
          user,
          channel: 'CBENCH',
          text,
          domains,
        },
      );
      if (!r.event) throw new Error('the double found no link of the unfurl domains');
      const status = await sendEvent(botUrl, signingSecret, r.event);
      if (status !== 200) throw new Error(`the bot answered ${status} to link_shared`);
      return r.ts;
    };
    const unfurls = () => getJson<Unfurled[]>(`${slackAt.control}/unfurls`);

    // Warm-up: each person pastes another ticket's link once (their accounts known), not measured.
    const warm = await Promise.all(people.map((p) => paste(p.id, `warm-up ${link(warmId)}`)));
    const warmUntil = Date.now() + 120_000;
    while ((await unfurls()).filter((u) => warm.includes(u.ts ?? '')).length < warm.length) {
      if (Date.now() > warmUntil) throw new Error('the warm-up pastes were not unfurled within 2 minutes');
      await sleep(200);
    }
    // The platform's one-minute window of the start and the warm-up is over.
    await sleep(61_000);

    // A ticket created after the bot's scans (no record kept: its first paste reads it), in the
    // admin's group; then a seeded ticket the bot's first scan kept (no read at all).
    await postJson(`${simAt.control}/burst?n=1&overMs=0`, {});
    let fresh: string | undefined;
    while (!fresh) {
      fresh = (await getJson<{ id: string }[]>(`${simAt.control}/burst`))[0]?.id;
      await sleep(50);
    }
    const results = [
      await burst(fresh, 'a ticket new to the bot (no record kept)', 1),
      await burst(ticketId, 'a ticket the bot keeps a record of (its scans listed it)', 0),
    ];
    for (const r of results) console.log(r.join('\n'));

    /** `pastes` pastes of one ticket's link over `spreadMs`, people taking turns; its figures' lines. */
    async function burst(id: string, what: string, readsTarget: number): Promise<string[]> {
      const { next: from } = await getJson<{ next: number }>(`${simAt.control}/requests?from=0`);
      const start = Date.now();
      const sent = await Promise.all(
        Array.from({ length: pastes }, async (_, i) => {
          await sleep(start + (i * spreadMs) / pastes - Date.now());
          const at = Date.now();
          const ts = await paste((people[i % people.length] as { id: string }).id, `#${i} ${link(id)}`);
          return { ts, at };
        }),
      );
      const until = Date.now() + 60_000;
      let done: Unfurled[] = [];
      for (;;) {
        done = (await unfurls()).filter((u) => u.ok && sent.some((s) => s.ts === u.ts));
        if (done.length >= sent.length || Date.now() > until) break;
        await sleep(200);
      }
      const waits = sent.flatMap((s) => {
        const u = done.find((x) => x.ts === s.ts);
        return u ? [u.at - s.at] : [];
      });
      const { entries } = await getJson<{ entries: SimRequest[] }>(`${simAt.control}/requests?from=${from}`);
      const reads = entries.filter((r) => r.method === 'GET' && r.path === `/api/v3/tickets/${id}`).length;
      const kinds = new Map<string, number>();
      for (const r of entries) {
        const k = `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, '/:id')}`;
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
      const p95 = pct(waits, 95);
      return [
        `link unfurls, real time: ${pastes} pastes of the link of ${what} in ${spreadMs / 1000} s by ${people.length} people (bot, simulator at 10 requests/min, Slack double: three processes)`,
        `  unfurled: ${waits.length} of ${pastes}`,
        `  platform reads of that ticket: ${reads}`,
        `  platform requests during the burst: ${entries.length}${kinds.size ? ` (${[...kinds].map(([k, n]) => `${k} × ${n}`).join(', ')})` : ''}`,
        `  link → unfurl: p50 ${secs(pct(waits, 50))}, p95 ${secs(p95)}, max ${secs(Math.max(...waits))}`,
        `${reads <= readsTarget ? 'PASS' : 'MISS'}  unfurls (${what}): the ticket read ${readsTarget === 1 ? 'once' : 'never'} (${reads})`,
        `${waits.length === pastes ? 'PASS' : 'MISS'}  unfurls (${what}): every paste unfurled (${waits.length}/${pastes})`,
        `${p95 <= targetP95Ms ? 'PASS' : 'MISS'}  unfurls (${what}): p95 link → unfurl ≤ 2 s (${secs(p95)})`,
      ];
    }
  } finally {
    for (const p of procs.reverse()) await stopProc(p);
    if (keep) console.log(`  logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
