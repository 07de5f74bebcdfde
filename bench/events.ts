/*
 * npm run bench (part two) — ticket events from the platform into Slack.
 *
 * 1. Change rates (issue 21): for 100 and 1,000 watched tickets, state moves on random tickets at 1,
 *    10 and 60 a minute and a 5-minute burst of 120 a minute, within the platform's 10 requests a
 *    minute, with webhooks and by polling alone: changes told in Slack out of those made (none may
 *    be lost), duplicate posts, p50/p95 delay from the change on the platform to its post, platform
 *    requests per told change, the longest wait of a person's request made meanwhile, the bot's
 *    backlog when the changes stop and the time it takes to drain. The naive poller that reads every
 *    watched ticket's events each cycle (bench/naive-poller.ts, the old baseline) runs on demand.
 * 2. Delivery pace: 300 events for 10 channels against a Slack double that answers 429 to a second
 *    post in a channel within a second, compared with the time that pace allows.
 *
 * Part one runs faster than life: BENCH_SPEED (20) multiplies the rate limit, the change rate, the
 * poll interval and Slack's pace alike, and every delay is multiplied back, so figures read as real
 * time (what does not scale is the platform's one-second resolution of times). Knobs: BENCH_SPEED,
 * BENCH_SIZES (100,1000), BENCH_MODES (webhook,poll; also naive), BENCH_RATES (1:20,10:6,60:2,120:5,
 * each changes a minute : minutes; 120 a minute is "the burst"), BENCH_DEBUG=1 (the changes not
 * told and the duplicates, per configuration).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJobNotice } from '../src/blocks/job-notices.js';
import { createConfdesk } from '../src/confdesk.js';
import { type SlackCall, SlackDouble } from '../src/dev/slack-double.js';
import { JobRunner } from '../src/jobs/runner.js';
import type { Jobs } from '../src/jobs/start-jobs.js';
import { startDelivery } from '../src/jobs/starters.js';
import { createLogger } from '../src/observability/logger.js';
import { deliveryClient } from '../src/outbound/clients.js';
import { gatheredMessage, outboxMessage } from '../src/outbound/publisher.js';
import { SlackAccess } from '../src/outbound/slack-access.js';
import { createPlatformClient, type PlatformClient } from '../src/platform/client.js';
import type { SimTicket } from '../src/sim/model.js';
import { createSimulator, type Simulator } from '../src/sim/server.js';
import { openStore, type Store } from '../src/store/store.js';
import { attribute, type Change } from './attribution.js';
import { NaivePoller } from './naive-poller.js';

type Mode = 'poll' | 'webhook' | 'naive';
/** A change rate: `perMinute` state moves a minute, for `minutes` (of life). */
interface Rate {
  perMinute: number;
  minutes: number;
}

const speed = Number(process.env.BENCH_SPEED ?? 20);
const sizes = (process.env.BENCH_SIZES ?? '100,1000').split(',').map(Number);
const modes = (process.env.BENCH_MODES ?? 'webhook,poll').split(',') as Mode[];
const rates: Rate[] = (process.env.BENCH_RATES ?? '1:20,10:6,60:2,120:5').split(',').map((r) => {
  const [perMinute, minutes] = r.split(':').map(Number);
  if (!perMinute || !minutes || perMinute < 0 || minutes < 0)
    throw new Error(`BENCH_RATES: "${r}" is not changesPerMinute:minutes`);
  return { perMinute, minutes };
});
const debug = process.env.BENCH_DEBUG === '1';
/** The rate the issue calls the burst: it must drain with nothing lost. */
const burstPerMinute = 120;

const minute = 60_000 / speed;
const pollIntervalMs = 30_000 / speed;
/**
 * A person's read every 5 s of the bench's own clock (100 s of life at 20×): often enough to sample
 * the budget's queue, rarely enough to leave the budget to the bot (5 s of life would be 12 reads a
 * minute, more than the platform's 10).
 */
const personEveryMs = 5_000;
/** The longest a configuration waits for its changes to be told after the last one: 30 minutes of life. */
const drainCapMs = 1_800_000 / speed;
/** How often the drain is sampled: every second of life. */
const sampleMs = 1_000 / speed;
/** The moves a watched ticket goes through, in turn (never `invited`: it sends invitations). */
const cycle = ['open', 'inprogress', 'done', 'closed'];

const logger = createLogger((process.env.BENCH_LOG as 'warn' | undefined) ?? 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};
const secs = (ms: number) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(1)} s`);
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)] as T;

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

/** What the bot says it still has to do: timelines to read, confirmations, its own drain estimate. */
type Backlog = Awaited<ReturnType<Jobs['backlog']>>;

interface Bot {
  backlog: (() => Promise<Backlog>) | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the mode's background work, through the composition root as main.ts does (the naive
 * baseline keeps confdesk's delivery and replaces the poller).
 */
async function start(mode: Mode, s: Setup): Promise<Bot> {
  const confdesk = createConfdesk({
    slack: { botToken: 'xoxb-bench', signingSecret: 'bench', apiUrl: s.slack.apiUrl, port: 0 },
    platform: s.platform,
    store: s.store,
    logger,
    webhook: mode === 'webhook' ? { secret: 'bench-hook', header: 'X-Webhook-Secret' } : undefined,
    jobs: {
      timeScale: speed,
      deliverEveryMs: 1_000 / speed,
      paceMs: 1_100 / speed,
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
  const jobs = confdesk.jobs.running(); // none for the naive baseline: its backlog is not the bot's
  return {
    backlog: jobs ? () => jobs.backlog() : undefined,
    async stop() {
      if (naive) {
        naive.poller.stopped = true;
        await naive.runner.stop();
      }
      await confdesk.stop();
      s.sim.setWebhook(undefined);
    },
  };
}

/** Moves a random ticket to its next state in `cycle`; the change is known by the event it added. */
function move(s: Setup, moves: Map<SimTicket, number>): Change {
  const t = pick(s.tickets);
  const k = moves.get(t) ?? 0;
  moves.set(t, k + 1);
  const to = cycle[k % cycle.length] as string;
  s.sim.state.setTicketState(t, to, 'agent');
  const event = t.events.at(-1);
  if (!event) throw new Error(`ticket ${t.id} has no timeline event after its move to ${to}`);
  return {
    eventId: event.id,
    ticketId: String(t.id),
    to,
    modified: Math.floor(t.modified / 1000) * 1000,
    madeAt: Date.now(),
  };
}

/** The double's posts as the attribution reads them. */
const postsOf = (calls: SlackCall[]) =>
  calls.map((c) => ({ channel: c.args.channel, at: c.at, metadata: c.args.metadata }));

/** A person's read of a ticket, on the interactive lane, while the bot works. */
interface PersonRead {
  ticketId: string;
  sentAt: number;
  doneAt: number;
  ok: boolean;
}

/** A person asks for a random ticket every `personEveryMs` until `until`, without waiting for the last. */
async function person(s: Setup, until: number): Promise<PersonRead[]> {
  const reads: Promise<PersonRead>[] = [];
  for (let at = Date.now(); at < until; at += personEveryMs) {
    await sleep(at - Date.now());
    const ticketId = String(pick(s.tickets).id);
    const sentAt = Date.now();
    reads.push(
      s.platform.getTicket({ ticketId }, { priority: 'interactive' }).then(
        () => ({ ticketId, sentAt, doneAt: Date.now(), ok: true }),
        () => ({ ticketId, sentAt, doneAt: Date.now(), ok: false }),
      ),
    );
  }
  return Promise.all(reads);
}

/**
 * After the last change: when everything made has been told and the bot has no timeline left to
 * read (the later of the two, to a second of life), or undefined if that is not so within the cap.
 */
async function drain(s: Setup, bot: Bot, changes: Change[], from: number): Promise<number | undefined> {
  // Without a backlog to ask (the naive baseline), the drain is the posts alone.
  let readsNoneSince = bot.backlog ? undefined : from;
  while (Date.now() < from + drainCapMs) {
    const now = Date.now();
    if (bot.backlog) {
      const { reads } = await bot.backlog();
      readsNoneSince = reads === 0 ? (readsNoneSince ?? now) : undefined;
    }
    const told = attribute(changes, postsOf(s.slack.callsOf('chat.postMessage')));
    if (told.toldAt.size === changes.length && readsNoneSince !== undefined)
      return Math.max(told.lastToldAt, readsNoneSince);
    await sleep(sampleMs);
  }
  return undefined;
}

interface Result {
  mode: Mode;
  size: number;
  rate: Rate;
  made: number;
  told: number;
  duplicates: number;
  p50: number;
  p95: number;
  perEvent: number;
  /** The bot's requests by kind, in the same window. */
  kinds: string;
  personWaitMax: number;
  personFailed: number;
  /** When the changes stop (undefined: the naive baseline, whose poller is not the bot's). */
  backlogAtEnd: Backlog | undefined;
  /** From the last change until all is told and read (undefined: not within the cap). */
  drainMs: number | undefined;
  notTold: Change[];
  duplicateLines: string[];
  /** The five slowest changes told, and how (BENCH_DEBUG=1). */
  slowest: string[];
}

/** The kind of a platform request, from its path (any other, by its path: people's accounts, groups). */
const kindOf = (r: Simulator['requests'][number]) =>
  r.path === '/api/v3/tickets'
    ? Number(r.query.offset ?? 0) > 0
      ? 'further scan pages'
      : 'scans'
    : r.path.endsWith('/events')
      ? 'events reads'
      : r.path.startsWith('/api/v3/tickets/')
        ? 'ticket reads'
        : `other ${r.method} ${r.path.replace('/api/v3/', '').replace(/\d+/g, ':id')}`;

/** The breakdown's order: the poller's kinds first, the others after. */
const knownKinds = ['scans', 'further scan pages', 'ticket reads', 'events reads'];
const kindOrder = (kind: string) =>
  knownKinds.includes(kind) ? knownKinds.indexOf(kind) : knownKinds.length;

async function measure(mode: Mode, size: number, rate: Rate): Promise<Result> {
  const s = await setUp(size);
  const bot = await start(mode, s);
  // Warm-up, not measured: one change makes the bot look up the rights of the person the
  // subscriptions are for (cached afterwards: the steady state is measured).
  const moves = new Map<SimTicket, number>();
  await sleep(minute / 4);
  move(s, moves);
  await sleep(minute / 2);
  // And the first scan has listed every ticket, so the bot keeps each one's record (as a bot that
  // has run a while does): what a webhook says is then posted from it.
  const ids = s.tickets.map((t) => String(t.id));
  const warmUntil = Date.now() + 5 * minute;
  while ((await s.store.recordsMissing(ids)).length && Date.now() < warmUntil) await sleep(minute / 20);
  // The changes, evenly spaced over the minutes with ±50 % jitter; a person asks meanwhile.
  const count = Math.max(1, Math.round(rate.perMinute * rate.minutes));
  const gap = minute / rate.perMinute;
  const startedAt = Date.now();
  const endAt = startedAt + rate.minutes * minute;
  const reading = person(s, endAt);
  const changes: Change[] = [];
  for (let i = 0; i < count; i++) {
    await sleep(startedAt + (i + Math.random()) * gap - Date.now());
    changes.push(move(s, moves));
  }
  const firstAt = (changes[0] as Change).madeAt;
  const lastAt = (changes.at(-1) as Change).madeAt;
  const draining = drain(s, bot, changes, lastAt);
  await sleep(endAt - Date.now());
  const backlogAtEnd = await bot.backlog?.();
  const [drainedAt, reads] = await Promise.all([draining, reading]);
  // Late duplicates (a confirmation that posts again) show within a poll interval or so.
  await sleep(pollIntervalMs);
  await bot.stop();

  const deadline = lastAt + drainCapMs;
  const told = attribute(changes, postsOf(s.slack.callsOf('chat.postMessage')), deadline);
  const delays = [...told.toldAt].map(([ch, at]) => (at - ch.madeAt) * speed);
  // The bot's requests from the first change until everything was told (or the cap), less the
  // person's reads: those of the ticket the person asked for, while the person waited.
  const windowEnd = told.toldAt.size === changes.length ? told.lastToldAt : deadline;
  const persons = new Set(
    reads.flatMap((p) =>
      s.sim.requests.filter(
        (r) => r.path === `/api/v3/tickets/${p.ticketId}` && r.at >= p.sentAt && r.at <= p.doneAt,
      ),
    ),
  );
  const requests = s.sim.requests.filter((r) => r.at >= firstAt && r.at <= windowEnd && !persons.has(r));
  const kinds = new Map<string, number>();
  for (const r of requests) kinds.set(kindOf(r), (kinds.get(kindOf(r)) ?? 0) + 1);
  await tearDown(s);
  return {
    mode,
    size,
    rate,
    made: changes.length,
    told: told.toldAt.size,
    duplicates: told.duplicates,
    p50: pct(delays, 50),
    p95: pct(delays, 95),
    perEvent: told.toldAt.size ? requests.length / told.toldAt.size : Number.POSITIVE_INFINITY,
    kinds:
      [...kinds]
        .sort(([a], [b]) => kindOrder(a) - kindOrder(b))
        .map(([k, n]) => `${n} ${k}`)
        .join(', ') || 'none',
    personWaitMax: Math.max(0, ...reads.map((p) => (p.doneAt - p.sentAt) * speed)),
    personFailed: reads.filter((p) => !p.ok).length,
    backlogAtEnd,
    drainMs: drainedAt === undefined ? undefined : Math.max(0, drainedAt - lastAt) * speed,
    notTold: changes.filter((ch) => !told.toldAt.has(ch)),
    duplicateLines: told.duplicateLines,
    slowest: [...told.toldAt]
      .sort(([a, x], [b, y]) => y - b.madeAt - (x - a.madeAt))
      .slice(0, 5)
      .map(([ch, at]) => {
        const post = s.slack
          .callsOf('chat.postMessage')
          .find(
            (c) =>
              (c.args.metadata as { event_payload?: { event_id?: string } })?.event_payload?.event_id ===
              ch.eventId,
          );
        return `ticket ${ch.ticketId} → ${ch.to} (${ch.eventId}) after ${secs((at - ch.madeAt) * speed)}, ${post ? 'its own post' : 'a state line'}`;
      }),
  };
}

/** One configuration's line. */
function line(r: Result): string {
  const lost = r.made - r.told;
  const backlog = r.backlogAtEnd ? `${r.backlogAtEnd.reads} (verify ${r.backlogAtEnd.verify})` : '—';
  return [
    `${String(r.size).padStart(5)} watched`,
    `${String(r.rate.perMinute).padStart(3)}/min × ${r.rate.minutes} min`,
    r.mode.padEnd(7),
    `told ${r.told}/${r.made}${lost ? ` (lost ${lost})` : ''}`,
    `dup ${r.duplicates}`,
    `p50 ${secs(r.p50)}`,
    `p95 ${secs(r.p95)}`,
    `${r.perEvent.toFixed(2)} req/event (${r.kinds})`,
    `person ≤ ${secs(r.personWaitMax)}${r.personFailed ? ` (${r.personFailed} failed)` : ''}`,
    `backlog at end ${backlog}`,
    r.drainMs === undefined
      ? `not drained after ${secs(drainCapMs * speed)}`
      : `drained in ${secs(r.drainMs)}`,
  ].join(' · ');
}

/** BENCH_DEBUG=1: the changes never told, and the duplicates. */
function debugLines(r: Result): string[] {
  return [
    ...r.notTold.map(
      (ch) =>
        `      not told: ticket ${ch.ticketId} → ${ch.to} (${ch.eventId}), made ${new Date(ch.madeAt).toISOString()}`,
    ),
    ...r.duplicateLines.map((d) => `      duplicate: ${d}`),
    ...r.slowest.map((d) => `      slowest: ${d}`),
  ];
}

/** The issue's targets against this run (a p95 only counts with nothing lost). */
function targets(results: Result[]): string[] {
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  const at = (mode: Mode, perMinute: number) =>
    results.find((r) => r.mode === mode && r.size === 100 && r.rate.perMinute === perMinute);
  const p95 = (r: Result, maxMs: number) =>
    `${mark(r.told === r.made && r.p95 <= maxMs)} p95 ${secs(r.p95)} (≤ ${secs(maxMs)}${r.told < r.made ? `; ${r.made - r.told} lost` : ''})`;
  const out = ['', 'Targets (issue 21):'];
  const hook = at('webhook', 60);
  out.push(
    hook
      ? `  webhook, 60/min, 100 watched: ${p95(hook, 5_000)} · ${mark(hook.perEvent <= 0.3)} ${hook.perEvent.toFixed(2)} req/event (≤ 0.3) · ${mark(hook.personWaitMax <= 1_000)} person ≤ ${secs(hook.personWaitMax)} (≤ 1.0 s)`
      : '  webhook, 60/min, 100 watched: not run',
  );
  const poll = at('poll', 10);
  out.push(
    poll ? `  poll, 10/min, 100 watched: ${p95(poll, 60_000)}` : '  poll, 10/min, 100 watched: not run',
  );
  const bursts = results.filter((r) => r.rate.perMinute === burstPerMinute);
  out.push(
    bursts.length
      ? `  burst ${burstPerMinute}/min: ${mark(bursts.every((r) => r.told === r.made))} lost 0 — ${bursts
          .map(
            (r) =>
              `${r.size} ${r.mode}: lost ${r.made - r.told}, ${r.drainMs === undefined ? 'not drained' : `drained in ${secs(r.drainMs)}`}`,
          )
          .join('; ')}`
      : `  burst ${burstPerMinute}/min: not run`,
  );
  return out;
}

/**
 * 300 events for 10 channels, straight into the outbox, against Slack's one post a second per
 * channel: each of its own ticket (one message each: the pace itself), then all of one ticket per
 * channel (its thread's lines gathered: how fast a channel's backlog clears).
 */
async function pace(threads: 'apart' | 'one'): Promise<void> {
  const slack = await new SlackDouble().start();
  slack.channelPaceMs = 1_000;
  const dir = mkdtempSync(join(tmpdir(), 'confdesk-bench-pace-'));
  const store = await openStore({ dataDir: dir });
  const perChannel = 30;
  const ticketOf = (c: number, n: number) => (threads === 'one' ? `T${c}` : `T${c}-${n}`);
  for (let c = 0; c < 10; c++)
    for (let n = 0; n < perChannel; n++)
      await store.save({ ticketId: ticketOf(c, n), channel: `CP${c}`, ts: `2.${c}${n}` });
  const started = Date.now();
  for (let n = 0; n < perChannel; n++)
    await store.advance(
      Array.from({ length: 10 }, (_, c) => ({
        ticketId: ticketOf(c, n),
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
      render: (item) => outboxMessage(item, () => Promise.reject(new Error('no cards here')), 'en'),
      notice: async (n) => buildJobNotice('en', n),
      gather: (items) => gatheredMessage(items, 'en'),
    },
  });
  const outbox = async () =>
    (
      await Promise.all(
        Array.from({ length: 10 }, (_, c) =>
          Promise.all(Array.from({ length: perChannel }, (_, n) => store.outboxOf(ticketOf(c, n)))),
        ),
      )
    ).flat(2);
  // Every line delivered (each ticket's outbox holds its lines; a gathered message settles several).
  const waiting = async () => (await outbox()).filter((i) => i.status !== 'delivered').length;
  while ((await waiting()) > 0 && Date.now() - started < 120_000) await sleep(50);
  const elapsed = Date.now() - started;
  await delivery.stop();
  const calls = slack.callsOf('chat.postMessage').length;
  const unanswered = await waiting();
  const allowed = (slack.messages.length / 10 - 1) * 1_000;
  console.log(
    threads === 'apart'
      ? `\nDelivery pace: ${slack.messages.length} events of 300 tickets in 10 channels in ${secs(elapsed)}; Slack's 1/s per channel allows ${secs(allowed)}: ` +
          `${(elapsed / allowed).toFixed(2)}× (target ≤ 1.15×); 429s from Slack: ${calls - slack.messages.length}, left undelivered: ${unanswered}`
      : `Gathered: 300 lines of one thread per channel (10 channels) in ${secs(elapsed)}, as ${slack.messages.length} messages (one post each ${(300 / Math.max(1, slack.messages.length)).toFixed(1)} lines); 429s from Slack: ${calls - slack.messages.length}, left undelivered: ${unanswered}`,
  );
  await store.close();
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  console.log(
    `Ticket events at change rates: 10 platform requests a minute, poll every 30 s (run ${speed}× faster than life, figures in real time)`,
  );
  console.log(
    'before (issue 21): 10/min 112 s / 164 s webhook, 118 s / 180 s poll, 1.1 req/event; ' +
      '60/min 268 s / 680 s webhook, 309 s / 647 s poll, 0.9 req/event, person up to 11 s',
  );
  const results: Result[] = [];
  for (const size of sizes)
    for (const rate of rates)
      for (const mode of modes) {
        const r = await measure(mode, size, rate);
        results.push(r);
        console.log(line(r));
        if (debug) for (const l of debugLines(r)) console.log(l);
      }
  for (const l of targets(results)) console.log(l);
  await pace('apart');
  await pace('one');
}

await main();
