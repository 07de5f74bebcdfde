/*
 * bench/realtime-steps.ts — Workflow Builder steps while a busy desk runs, in real time: speed 1, the
 * bot (`node --import tsx src/main.ts`, a deployment's environment, webhooks on), the platform
 * simulator (bench/realtime/sim.ts: 10 requests a minute per user) and the Slack double
 * (bench/realtime/slack.ts: one post a second per channel) each in its own process, as
 * bench/realtime.ts runs them.
 *
 * The desk: STEPS_TICKETS tickets (100) watched in one channel, each with its card, as in
 * bench/realtime.ts's line 1; agents move random tickets 60 times a minute with their own accounts
 * (the platform's webhooks tell the bot, which updates cards and threads). Meanwhile a workflow
 * reaches one of the bot's steps every STEPS_EVERY_S seconds (30), in turn *Open an assistance
 * ticket*, *Move a ticket* (the ticket the last one opened: accept) and *Create a video conference*,
 * run as UBENCH (the platform's admin, by Slack e-mail): the double begins the run (its own token)
 * and the bench sends the signed `function_executed` to the bot. Each run is timed from that send
 * until the double records its `functions.completeSuccess` (or `completeError`); the target is a p95
 * of 3 s. Also counted: the bot's platform requests during the run, and how each run ended.
 *
 * Before the run: the bot's first scan, then a minute without its requests (the start's requests
 * leave the platform's window). Knobs: STEPS_MINUTES (3), STEPS_EVERY_S (30), STEPS_PER_MINUTE (60:
 * the desk's changes), STEPS_TICKETS (100), STEPS_KEEP=1 (keep the directory: logs, store).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SlackStepRun } from '../src/dev/slack-double.js';
import { stepIds } from '../src/domain/workflow-steps.js';
import {
  getJson,
  http,
  type Proc,
  pct,
  pick,
  postJson,
  secs as secsOf,
  sendEvent,
  sleep,
  stopProc,
} from './realtime/processes.js';
import { loginAgents, startBackends, startBot, watchEveryTicket } from './realtime/start.js';

const minutes = Number(process.env.STEPS_MINUTES ?? 3);
const everyMs = Number(process.env.STEPS_EVERY_S ?? 30) * 1000;
const perMinute = Number(process.env.STEPS_PER_MINUTE ?? 60);
const ticketCount = Number(process.env.STEPS_TICKETS ?? 100);
const keep = process.env.STEPS_KEEP === '1';
const person = 'UBENCH';
const channel = 'CRT1';
const cycle = ['open', 'inprogress', 'done', 'closed'];
const targetP95Ms = 3_000;

const secs = (ms: number) => secsOf(ms, 2);

interface SimRequest {
  method: string;
  path: string;
  status: number;
  userId: number | undefined;
  at: number;
}

// ---------- the run ----------

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-realtime-steps-'));
  const procs: Proc[] = [];
  try {
    const { simAt, slackAt, setup } = await startBackends(procs, dir, {
      simEnv: { REALTIME_TICKETS: String(ticketCount), REALTIME_AGENTS: '12' },
    });

    // The desk: every ticket watched in the channel, with its card, as a bot that has run a while.
    const dataDir = join(dir, 'data');
    await watchEveryTicket({
      slackControl: slackAt.control,
      dataDir,
      tickets: setup.tickets,
      channelOf: () => channel,
      cardAgeS: 3600,
      person,
    });

    // The bot as deployed, the simulator's webhooks pointing at it.
    const { botUrl, signingSecret } = await startBot(procs, dir, {
      dataDir,
      setup,
      slackApi: slackAt.api,
      token: 'xoxb-realtime-steps',
      webhooks: true,
      env: { SHUTDOWN_TIMEOUT_S: '10' },
    });

    // The agents log in with their own accounts.
    const agents = await loginAgents(setup.url, setup.agents);

    // Warm-up: the bot's first scan, then a minute without its requests.
    const botRequests = async () =>
      (
        await getJson<{ next: number; entries: SimRequest[] }>(`${simAt.control}/requests?from=0`)
      ).entries.filter((r) => r.userId === setup.adminUserId);
    const warmUntil = Date.now() + 150_000;
    while (Date.now() < warmUntil && !(await botRequests()).some((r) => r.path === '/api/v3/tickets'))
      await sleep(500);
    const quietUntil = Date.now() + 180_000;
    for (;;) {
      const recent = (await botRequests()).filter((r) => r.at > Date.now() - 61_000);
      if (!recent.length || Date.now() >= quietUntil) break;
      await sleep(Math.min(recent[0]?.at ?? Date.now(), Date.now()) + 61_000 - Date.now() + 100);
    }

    // ---- the measured run ----
    const startedAt = Date.now();
    const endAt = startedAt + minutes * 60_000;
    const requestsBefore = (await botRequests()).length;
    const closed = new Set<string>();
    const movesOf = new Map<string, number>();
    let agentTurn = 0;
    let changes = 0;
    const desk = (async () => {
      const gap = 60_000 / perMinute;
      for (let i = 0; Date.now() < endAt; i++) {
        await sleep(startedAt + i * gap - Date.now());
        const pool = setup.tickets.filter((t) => !closed.has(t.id));
        if (!pool.length) break;
        const id = pick(pool).id;
        const k = movesOf.get(id) ?? 0;
        const to = cycle[k % cycle.length] as string;
        void http(`${setup.url}/api/v3/tickets/${id}?state=${to}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${agents[agentTurn++ % agents.length]}` },
        }).then(
          (r) => {
            if (r.status !== 204) return;
            changes++;
            movesOf.set(id, k + 1);
            if (to === 'closed') closed.add(id);
          },
          () => undefined,
        );
      }
    })();

    const runs: { callbackId: string; executionId: string; sentAt: number; status: number }[] = [];
    let lastTicket: string | undefined;
    const send = async (callbackId: string, inputs: Record<string, unknown>) => {
      const { executionId, event } = await postJson<{ executionId: string; event: unknown }>(
        `${slackAt.control}/step`,
        { callbackId, inputs },
      );
      const { status, sentAt } = await sendEvent(botUrl, signingSecret, event, 'ADOUBLE01');
      runs.push({ callbackId, executionId, sentAt, status });
    };
    const runAs = { id: person, secret: 'slack-checked' };
    for (let i = 0; startedAt + i * everyMs < endAt; i++) {
      await sleep(startedAt + i * everyMs - Date.now());
      const kind = i % 3;
      if (kind === 0)
        await send(stepIds.openTicket, {
          run_as: runAs,
          requestor: `steps${i}@example.com`,
          subject: `Workflow ticket ${i}`,
          channel,
        });
      else if (kind === 1 && lastTicket)
        await send(stepIds.moveTicket, { run_as: runAs, ticket: lastTicket, move: 'accept' });
      else
        await send(stepIds.createConference, {
          run_as: runAs,
          title: `Workflow conference ${i}`,
          guests: `guest${i}@example.com`,
          start: Math.floor(Date.now() / 1000) + 3_600,
          channel,
        });
      // The ticket the open step made, for the next move.
      const ended = await waitEnded(slackAt.control, runs.at(-1)?.executionId as string, 30_000);
      if (ended?.ended?.kind === 'completed' && ended.callbackId === stepIds.openTicket)
        lastTicket = String(ended.ended.outputs.ticket_id);
    }
    await desk;
    await sleep(5_000);
    const ends = await getJson<SlackStepRun[]>(`${slackAt.control}/steps`);
    const all = await botRequests();
    const requests = all.length - requestsBefore;

    // ---- the figures ----
    const rows = runs.map((r) => {
      const e = ends.find((x) => x.executionId === r.executionId)?.ended;
      return { ...r, ended: e, ms: e ? e.at - r.sentAt : Number.NaN };
    });
    const done = rows.filter((r) => r.ended?.kind === 'completed');
    const lat = done.map((r) => r.ms);
    const p95 = pct(lat, 95);
    const lines = [
      `Workflow Builder steps while a busy desk runs · ${perMinute} changes/min by webhook × ${minutes} min · ${ticketCount} watched tickets · a step every ${everyMs / 1000} s`,
      `  desk: ${changes} changes made by agents · bot's platform requests during the run: ${requests} (${(requests / minutes).toFixed(1)}/min, limit 10/min)`,
      `  steps: ${rows.length} run · ${done.length} completed · ${rows.filter((r) => r.ended?.kind === 'failed').length} failed · ${rows.filter((r) => !r.ended).length} not ended`,
      ...[stepIds.openTicket, stepIds.moveTicket, stepIds.createConference].map((id) => {
        const xs = done.filter((r) => r.callbackId === id).map((r) => r.ms);
        return `    ${id.padEnd(18)} n=${xs.length} p50 ${secs(pct(xs, 50))} · max ${secs(Math.max(...xs))}`;
      }),
      `  function_executed → complete: p50 ${secs(pct(lat, 50))} · p95 ${secs(p95)} · max ${secs(Math.max(...lat))} (target p95 ≤ ${targetP95Ms / 1000} s) ${p95 <= targetP95Ms && done.length === rows.length ? '✓' : '✗'}`,
      ...rows
        .filter((r) => r.ended?.kind === 'failed')
        .map(
          (r) =>
            `    failed ${r.callbackId}: ${r.ended?.kind === 'failed' ? r.ended.error.slice(0, 160) : ''}`,
        ),
    ];
    // Each slow run's platform requests (the bot's, while it ran): where its time went.
    if (process.env.STEPS_DEBUG === '1')
      for (const r of rows.filter((x) => !(x.ms <= targetP95Ms)))
        lines.push(
          `    slow ${r.callbackId} (${secs(r.ms)}): ${all
            .filter(
              (q) => q.at >= r.sentAt - 2_000 && q.at <= r.sentAt + (Number.isNaN(r.ms) ? 60_000 : r.ms),
            )
            .map((q) => `+${((q.at - r.sentAt) / 1000).toFixed(1)}s ${q.method} ${q.path} ${q.status}`)
            .join(' · ')}`,
        );
    console.log(lines.join('\n'));
  } finally {
    for (const p of procs.reverse()) await stopProc(p);
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

async function waitEnded(
  control: string,
  executionId: string,
  ms: number,
): Promise<SlackStepRun | undefined> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const run = (await getJson<SlackStepRun[]>(`${control}/steps`)).find(
      (r) => r.executionId === executionId,
    );
    if (run?.ended) return run;
    await sleep(100);
  }
  return undefined;
}

await main();
