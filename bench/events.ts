/*
 * npm run bench (part two) — ticket events from the platform into Slack.
 *
 * 1. Change detection within the platform's 10 requests/minute: for 10, 100 and 1,000 watched
 *    tickets with about one change a minute overall, platform requests per delivered event, p50/p95
 *    delay from the change on the platform to the post in Slack, and the longest wait of a person's
 *    request made meanwhile; for confdesk's poller, for webhook mode, and for a naive poller that
 *    reads every watched ticket's events each cycle (bench/naive-poller.ts, the baseline).
 * 2. Delivery pace: 300 events for 10 channels against a Slack double that answers 429 to a second
 *    post in a channel within a second, compared with the time that pace allows.
 *
 * Part one runs faster than life: BENCH_SPEED (20) multiplies the rate limit, the change rate, the
 * poll interval and Slack's pace alike, and every delay is multiplied back, so figures read as real
 * time (a run with BENCH_SPEED=1 takes about 20 minutes per configuration). Knobs: BENCH_SPEED,
 * BENCH_CHANGES (20 per configuration), BENCH_SIZES (10,100,1000), BENCH_MODES (poll,webhook,naive).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJobNotice } from '../src/blocks/job-notices.js';
import { createConfdesk } from '../src/confdesk.js';
import { SlackDouble } from '../src/dev/slack-double.js';
import { JobRunner } from '../src/jobs/runner.js';
import { startDelivery } from '../src/jobs/start-jobs.js';
import { createLogger } from '../src/observability/logger.js';
import { deliveryClient } from '../src/outbound/clients.js';
import { outboxMessage } from '../src/outbound/publisher.js';
import { SlackAccess } from '../src/outbound/slack-access.js';
import { createPlatformClient, type PlatformClient } from '../src/platform/client.js';
import type { SimTicket } from '../src/sim/model.js';
import { createSimulator, type Simulator } from '../src/sim/server.js';
import { openStore, type Store } from '../src/store/store.js';
import { NaivePoller } from './naive-poller.js';

const speed = Number(process.env.BENCH_SPEED ?? 20);
const changes = Number(process.env.BENCH_CHANGES ?? 20);
const sizes = (process.env.BENCH_SIZES ?? '10,100,1000').split(',').map(Number);
const modes = (process.env.BENCH_MODES ?? 'poll,webhook,naive').split(',') as Mode[];
type Mode = 'poll' | 'webhook' | 'naive';

const minute = 60_000 / speed;
const logger = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};
const secs = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(1)} s`);
const eventIdOf = (meta: unknown) =>
  (meta as { event_payload?: { event_id?: string } } | undefined)?.event_payload?.event_id;

interface Setup {
  sim: Simulator;
  slack: SlackDouble;
  store: Store;
  platform: PlatformClient;
  tickets: SimTicket[];
  dir: string;
}

/** A simulator with `size` tickets an hour old, each watched by one of 10 channels that has its card. */
async function setUp(size: number): Promise<Setup> {
  let offset = -3_600_000;
  const sim = await createSimulator({ rateLimit: 10, rateWindowMs: minute, now: () => Date.now() + offset });
  const by = [...sim.state.users.values()][0];
  if (!by) throw new Error('the simulator has no user');
  const tickets = Array.from({ length: size }, (_, i) =>
    sim.state.createTicket(by, {
      emails: [`bench${i}@example.com`],
      phones: [],
      invite: false,
      subject: `Bench ${i}`,
    }),
  );
  offset = 0;
  const slack = await new SlackDouble().start();
  slack.addUser({ id: 'UBENCH', email: 'admin@acme.example' }); // who the watches are added by
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-bench-events-'));
  const store = await openStore({ dataDir: dir });
  for (const [i, t] of tickets.entries()) {
    const channel = `CB${i % 10}`;
    await store.addSubscription({
      id: `w${t.id}`,
      channel,
      kind: 'watch',
      ticketId: String(t.id),
      filter: {},
      createdBy: 'UBENCH',
    });
    await store.save({ ticketId: String(t.id), channel, ts: `1.${t.id}` });
  }
  // Every ticket as last seen (the platform gives times to the second), so the run starts settled.
  for (const t of sim.state.tickets.values())
    await store.markSeen(String(t.id), new Date(Math.floor(t.modified / 1000) * 1000).toISOString(), t.state);
  const platform = createPlatformClient({
    baseUrl: sim.url,
    credentials: { kind: 'token', token: sim.adminToken },
    rateLimitPerMinute: 10,
    rateWindowMs: minute,
    logger,
  });
  return { sim, slack, store, platform, tickets, dir };
}

async function tearDown(s: Setup): Promise<void> {
  await s.platform.close();
  await s.store.close();
  await s.slack.stop();
  await s.sim.close();
  rmSync(s.dir, { recursive: true, force: true });
}

/**
 * Starts the mode's background work, through the composition root as main.ts does (the naive
 * baseline keeps confdesk's delivery and replaces the poller); answers how to stop it.
 */
async function start(mode: Mode, s: Setup): Promise<() => Promise<void>> {
  const pollIntervalMs = 30_000 / speed;
  const paceMs = 1_100 / speed;
  const confdesk = createConfdesk({
    slack: { botToken: 'xoxb-bench', signingSecret: 'bench', apiUrl: s.slack.apiUrl, port: 0 },
    platform: s.platform,
    store: s.store,
    logger,
    webhook: mode === 'webhook' ? { secret: 'bench-hook', header: 'X-Webhook-Secret' } : undefined,
    jobs: {
      timeScale: speed,
      deliverEveryMs: 1_000 / speed,
      paceMs,
      ...(mode === 'naive' ? {} : { pollIntervalMs }),
    },
  });
  const port = await confdesk.start();
  let naive: { poller: NaivePoller; runner: JobRunner } | undefined;
  if (mode === 'naive') {
    naive = { poller: new NaivePoller(s.platform, s.store), runner: new JobRunner(logger) };
    const { poller } = naive;
    naive.runner.start({ name: 'naive-poll', everyMs: pollIntervalMs, run: () => poller.cycle() });
  }
  if (mode === 'webhook')
    s.sim.setWebhook({
      url: `http://127.0.0.1:${port}/webhooks/platform`,
      header: 'X-Webhook-Secret',
      secret: 'bench-hook',
    });
  return async () => {
    if (naive) {
      naive.poller.stopped = true;
      await naive.runner.stop();
    }
    await confdesk.stop();
    s.sim.setWebhook(undefined);
  };
}

interface Result {
  mode: Mode;
  size: number;
  delivered: number;
  made: number;
  p50: number;
  p95: number;
  perEvent: number;
  personWaitMax: number;
  /** The background requests by kind. */
  kinds: string;
}

async function measure(mode: Mode, size: number): Promise<Result> {
  const s = await setUp(size);
  const stop = await start(mode, s);
  await sleep(minute / 2); // the first scan settles
  const requestsBefore = s.sim.requests.length;
  const made = new Map<string, number>();
  const personWaits: number[] = [];
  const askedAt: number[] = [];
  // About one change a minute overall, on random tickets; a person asks for a ticket meanwhile.
  for (let i = 0; i < changes; i++) {
    const t = s.tickets[Math.floor(Math.random() * s.tickets.length)] as SimTicket;
    made.set(s.sim.state.addEvent(t, 'bench.change', 'agent').id, Date.now());
    const asked = Date.now();
    askedAt.push(asked);
    await s.platform.getTicket({ ticketId: String(t.id) }, { priority: 'interactive' });
    personWaits.push((Date.now() - asked) * speed);
    await sleep(minute * (0.5 + Math.random()));
  }
  // Two more poll intervals to catch up; what is still missing then counts as not delivered.
  await sleep(2 * (30_000 / speed) + 2_000);
  await stop();
  const posted = new Map<string, number>();
  for (const c of s.slack.callsOf('chat.postMessage')) {
    const id = eventIdOf(c.args.metadata);
    if (id && made.has(id) && !posted.has(id)) posted.set(id, c.at);
  }
  const delays = [...posted].map(([id, at]) => (at - (made.get(id) as number)) * speed);
  // Requests while changes happen: from the first change to the last one's post (the warm-up before
  // and the wait after are not steady state); the person's reads are not the poller's.
  const lastPost = Math.max(...posted.values(), 0);
  const window = s.sim.requests.slice(requestsBefore).filter((r) => lastPost === 0 || r.at <= lastPost);
  const personReads = askedAt.filter((at) => lastPost === 0 || at <= lastPost).length;
  const requests = window.length - personReads;
  const kinds = new Map<string, number>();
  for (const r of window) {
    const kind = r.path.endsWith('/events')
      ? 'events'
      : r.path !== '/api/v3/tickets'
        ? 'ticket reads'
        : Number(r.query.offset ?? 0) > 0
          ? 'further scan pages'
          : 'scans';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  kinds.set('ticket reads', (kinds.get('ticket reads') ?? 0) - personReads);
  await tearDown(s);
  return {
    mode,
    size,
    delivered: posted.size,
    made: made.size,
    p50: pct(delays, 50),
    p95: pct(delays, 95),
    perEvent: posted.size ? requests / posted.size : Number.POSITIVE_INFINITY,
    personWaitMax: Math.max(...personWaits),
    kinds: [...kinds].map(([k, n]) => `${n} ${k}`).join(', '),
  };
}

/** 300 events for 10 channels, straight into the outbox, against Slack's one post a second per channel. */
async function pace(): Promise<void> {
  const slack = await new SlackDouble().start();
  slack.channelPaceMs = 1_000;
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-bench-pace-'));
  const store = await openStore({ dataDir: dir });
  const perChannel = 30;
  for (let c = 0; c < 10; c++) await store.save({ ticketId: `T${c}`, channel: `CP${c}`, ts: `2.${c}` });
  const started = Date.now();
  for (let n = 0; n < perChannel; n++)
    await store.advance(
      Array.from({ length: 10 }, (_, c) => ({
        ticketId: `T${c}`,
        eventId: `e${n}`,
        channel: `CP${c}`,
        payload: { eventName: `bench.event${n}` },
      })),
    );
  const delivery = startDelivery({
    store,
    logger,
    slack: { token: 'xoxb-bench', apiUrl: slack.apiUrl },
    slackAccess: new SlackAccess({
      slack: deliveryClient({ token: 'xoxb-bench', apiUrl: slack.apiUrl }),
      store,
      logger,
    }),
    // Events only here: no card to render.
    publisher: {
      render: (item) => outboxMessage(item, () => Promise.reject(new Error('no cards here'))),
      notice: buildJobNotice,
    },
  });
  while (slack.messages.length < 10 * perChannel && Date.now() - started < 120_000) await sleep(50);
  const elapsed = Date.now() - started;
  await delivery.stop();
  const calls = slack.callsOf('chat.postMessage').length;
  const unanswered = (await Promise.all(Array.from({ length: 10 }, (_, c) => store.outboxOf(`T${c}`))))
    .flat()
    .filter((i) => i.status !== 'delivered').length;
  const allowed = (perChannel - 1) * 1_000;
  console.log(
    `\nDelivery pace: ${slack.messages.length} events in 10 channels in ${secs(elapsed)}; Slack's 1/s per channel allows ${secs(allowed)}: ` +
      `${(elapsed / allowed).toFixed(2)}× (target ≤ 1.15×); 429s from Slack: ${calls - slack.messages.length}, left undelivered: ${unanswered}`,
  );
  await store.close();
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  console.log(
    `Ticket events: ${changes} changes per configuration, about one a minute, 10 platform requests a minute, poll every 30 s (run ${speed}× faster than life, figures in real time)`,
  );
  const results: Result[] = [];
  for (const size of sizes)
    for (const mode of modes) {
      const r = await measure(mode, size);
      results.push(r);
      console.log(
        `${String(size).padStart(5)} watched · ${mode.padEnd(7)} · delivered ${r.delivered}/${r.made} · p50 ${secs(r.p50)} · p95 ${secs(r.p95)} · ${r.perEvent.toFixed(2)} platform requests/event (${r.kinds}) · a person waited ≤ ${secs(r.personWaitMax)}`,
      );
    }
  const at100 = (mode: Mode) => results.find((r) => r.size === 100 && r.mode === mode);
  const poll = at100('poll');
  const hook = at100('webhook');
  if (poll || hook)
    console.log(
      `Targets at 100 watched: poll p95 ${secs(poll?.p95 ?? Number.NaN)} (≤ 30 s), webhook p95 ${secs(hook?.p95 ?? Number.NaN)} (≤ 3 s), ` +
        `requests/event ${poll?.perEvent.toFixed(2)} poll, ${hook?.perEvent.toFixed(2)} webhook (≤ 3)`,
    );
  await pace();
}

await main();
