/*
 * bench/realtime-reminders.ts — conference reminders in real time: the bot (`node --import tsx
 * src/main.ts`, as deployed), the platform simulator (bench/realtime/sim.ts, 10 requests a minute) and
 * the Slack double (bench/realtime/slack.ts, one post a second per channel) each in its own process.
 *
 * Before the bot starts, the simulator holds REMINDERS_CONFERENCES (200) conferences starting evenly
 * over the next REMINDERS_SPAN_S (900) seconds, created by the admin, each with 5 participants drawn
 * from REMINDERS_PEOPLE (50) people who are all members of the Slack workspace, and its own reminder
 * setting of 1 to REMINDERS_LEAD_MAX_MIN (10) minutes (the platform's `reminder`, which the bot takes
 * since nobody chose a lead time of their own). The moderator (the admin, in Slack too) is reminded
 * as well: 6 reminders a conference.
 *
 * Measured: each reminder's DM (chat.postMessage to the person's D… channel, found by its metadata)
 * once, none missing, none twice; its lateness, from when it was due (start − lead) — or from when the
 * bot was ready, for one due before (the conferences starting within 10 minutes of the run's start) —
 * to when the double recorded the post; and the bot's platform requests over the run, per reminder.
 * Targets: every reminder once; p95 lateness ≤ 30 s.
 *
 * Knobs: REMINDERS_SPAN_S (900; e.g. 150 with REMINDERS_LEAD_MAX_MIN=2 for a smoke run),
 * REMINDERS_LEAD_MAX_MIN (10), REMINDERS_CONFERENCES (200), REMINDERS_PEOPLE (50),
 * REMINDER_INTERVAL (the bot's, 60), REMINDERS_DRAIN_S (90: after the last due time),
 * REALTIME_KEEP=1 (keep the directory: the bot's log, its store).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestLogEntry } from '../src/sim/http.js';
import type { Recorded } from './realtime/control.js';
import { getJson, type Proc, pct, postJson, sleep, stopProc } from './realtime/processes.js';
import { startBackends, startBot } from './realtime/start.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const spanS = env('REMINDERS_SPAN_S', 900);
const leadMaxMin = env('REMINDERS_LEAD_MAX_MIN', 10);
const conferenceCount = env('REMINDERS_CONFERENCES', 200);
const peopleCount = env('REMINDERS_PEOPLE', 50);
const perConference = 5;
const reminderInterval = env('REMINDER_INTERVAL', 60);
const drainS = env('REMINDERS_DRAIN_S', 90);

interface Conference {
  id: string;
  start: number;
  reminder: number;
  participants: string[];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-reminders-bench-'));
  const procs: Proc[] = [];
  try {
    const { simAt, slackAt, setup } = await startBackends(procs, dir, {
      simEnv: { REALTIME_TICKETS: '0', REALTIME_AGENTS: '0' },
      slackEnv: { REALTIME_PEOPLE: String(peopleCount) },
      timeoutMs: 120_000,
    });
    const q = new URLSearchParams({
      n: String(conferenceCount),
      people: String(peopleCount),
      participants: String(perConference),
      spanS: String(spanS),
      leadMaxMin: String(leadMaxMin),
    });
    const conferences = await postJson<Conference[]>(`${simAt.control}/conferences?${q}`, {}, 30_000);
    const { botProc } = await startBot(procs, dir, {
      dataDir: join(dir, 'data'),
      setup,
      slackApi: slackAt.api,
      token: 'xoxb-reminders-bench',
      webhooks: false,
      env: { REMINDER_INTERVAL: String(reminderInterval), SHUTDOWN_TIMEOUT_S: '10' },
    });
    const readyAt = Date.now();
    // The expected reminders: each participant (all in Slack) and the moderator (UBENCH), at start − lead.
    const expected = new Map<string, number>();
    const userOf = (email: string) => `UP${email.replace(/^person(\d+)@.*$/, '$1')}`;
    for (const c of conferences)
      for (const u of [...c.participants.map(userOf), 'UBENCH'])
        expected.set(`conference:${c.id} ${u}`, c.start - c.reminder * 60_000);
    const lastDue = Math.max(...expected.values());
    console.log(
      `conference reminders, real time: ${conferences.length} conferences over ${spanS} s, ${perConference} of ${peopleCount} people each + the moderator = ${expected.size} reminders; lead 1–${leadMaxMin} min (the conference's setting); REMINDER_INTERVAL ${reminderInterval} s`,
    );
    console.log(
      `  waiting until the last is due (${Math.round((lastDue - Date.now()) / 1000)} s) and ${drainS} s more…`,
    );
    const deadline = Math.max(lastDue, Date.now()) + drainS * 1000;
    const sent = new Map<string, number[]>();
    let from = 0;
    const collect = async () => {
      const page = await getJson<{ next: number; calls: Recorded[] }>(
        `${slackAt.control}/calls?from=${from}`,
        30_000,
      );
      from = page.next;
      for (const call of page.calls) {
        if (call.method !== 'chat.postMessage' || !call.ok || !call.channel?.startsWith('D')) continue;
        const meta = call.metadata as
          | { event_payload?: { ticket_id?: string; event_id?: string } }
          | undefined;
        const ticket = meta?.event_payload?.ticket_id;
        const user = meta?.event_payload?.event_id?.split(':')[1];
        if (!ticket?.startsWith('conference:') || !user) continue;
        const key = `${ticket} ${user}`;
        sent.set(key, [...(sent.get(key) ?? []), call.at]);
      }
    };
    while (Date.now() < deadline) {
      await sleep(5_000);
      await collect();
      if (sent.size >= expected.size && Date.now() > lastDue + 5_000) break;
    }
    await collect();
    const requests = (
      await getJson<{ entries: RequestLogEntry[] }>(`${simAt.control}/requests?from=0`, 30_000)
    ).entries.filter((r) => r.userId === setup.adminUserId && r.at >= readyAt - 60_000);
    await stopProc(botProc);

    // ---- figures ----
    const lateness: number[] = [];
    let missing = 0;
    let twice = 0;
    let unexpected = 0;
    for (const [key, due] of expected) {
      const at = sent.get(key);
      if (!at) {
        missing++;
        continue;
      }
      if (at.length > 1) twice++;
      lateness.push(((at[0] as number) - Math.max(due, readyAt)) / 1000);
    }
    for (const key of sent.keys()) if (!expected.has(key)) unexpected++;
    const dueLater = [...expected.values()].filter((d) => d > readyAt).length;
    const byKind = new Map<string, number>();
    for (const r of requests) {
      const kind = `${r.method} ${r.path.replace('/api/v3/', '').replace(/\d+/g, ':id')}`;
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
    const lists = byKind.get('GET conferences') ?? 0;
    const delivered = expected.size - missing;
    console.log(
      `  sent: ${delivered} of ${expected.size} (${missing} missing, ${twice} twice, ${unexpected} not expected); ${dueLater} due after the bot was ready, ${expected.size - dueLater} before`,
    );
    console.log(
      `  lateness (s): p50 ${pct(lateness, 50).toFixed(1)}, p95 ${pct(lateness, 95).toFixed(1)}, max ${Math.max(...lateness).toFixed(1)} — target p95 ≤ 30 s: ${pct(lateness, 95) <= 30 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  platform requests over the run: ${requests.length} (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}); ${(requests.length / Math.max(1, delivered)).toFixed(3)} per reminder, ${(lists / Math.max(1, delivered)).toFixed(3)} conference list reads per reminder`,
    );
    console.log(
      `  every reminder sent once: ${missing === 0 && twice === 0 && unexpected === 0 ? 'met' : 'NOT met'}`,
    );
    if (missing || twice || unexpected || pct(lateness, 95) > 30) process.exitCode = 1;
  } finally {
    for (const p of procs.reverse()) await stopProc(p);
    if (process.env.REALTIME_KEEP === '1') console.log(`  kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
