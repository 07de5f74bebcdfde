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

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  getJson,
  type Proc,
  pct,
  postJson,
  secs as secsOf,
  sendEvent,
  sleep,
  stopProc,
} from './realtime/processes.js';
import { startBackends, startBot } from './realtime/start.js';

const pastes = Number(process.env.UNFURLS_PASTES ?? 50);
const spreadMs = Number(process.env.UNFURLS_SPREAD_S ?? 10) * 1000;
const keep = process.env.UNFURLS_KEEP === '1';
const targetP95Ms = 2_000;

const secs = (ms: number) => secsOf(ms, 2);

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
    const { simAt, slackAt, setup } = await startBackends(procs, dir, {
      simEnv: { REALTIME_TICKETS: '1', REALTIME_AGENTS: '3', REALTIME_AGENTS_IN_ADMIN_GROUP: '1' },
    });
    const ticketId = setup.seeded.find((t) => t.reference === 'ACME-1004')?.id;
    const warmId = setup.seeded.find((t) => t.reference === 'ACME-1005')?.id;
    if (!ticketId || !warmId) throw new Error('the simulator has no ACME-1004/ACME-1005');
    const people = [
      { id: 'UADMIN', email: 'admin@acme.example' },
      { id: 'UCAROL', email: 'carol@acme.example' },
      ...setup.agents.map((a, i) => ({ id: `UAGENT${i}`, email: `${a.username}@acme.example` })),
    ];
    await postJson(`${slackAt.control}/people`, people);

    const host = new URL(setup.url).host.replace(/\./g, '\\.');
    const { botUrl, signingSecret } = await startBot(procs, dir, {
      dataDir: join(dir, 'data'),
      setup,
      slackApi: slackAt.api,
      token: 'xoxb-unfurls-bench',
      webhooks: false,
      env: { UNFURL_TICKET_PATTERN: `^http://${host}/desk/tickets/(\\d+)` },
    });
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
      const { status } = await sendEvent(botUrl, signingSecret, r.event, 'A1');
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
