/*
 * bench/realtime.ts — a support desk in real time (issue 28, item 5): speed 1, nothing compressed, the
 * bot, the platform simulator and the Slack double each in its own process, as in production.
 *
 * - The simulator (bench/realtime/sim.ts) at its real limit, 10 requests a minute per user, with 100
 *   tickets an hour old and agent accounts. Each ticket is watched by one channel (line "one
 *   channel") or one of two (tickets split between them); its card is in its channel before the run
 *   (the double holds the message, the bot's embedded store the subscription, the card and the
 *   ticket's version as seen).
 * - The bot: `node --import tsx src/main.ts` with the environment a deployment sets (PLATFORM_URL +
 *   PLATFORM_TOKEN, SLACK_API_URL, SLACK_SIGNING_SECRET, HTTP mode, POLL_INTERVAL=30, webhooks or not).
 * - The Slack double (bench/realtime/slack.ts) at Slack's pace: one post a second per channel, a faster
 *   one answered 429 Retry-After 1.
 *
 * Changes are state moves (open → inprogress → done → closed) on random tickets, made by agents with
 * their own accounts through `PUT /api/v3/tickets/{id}` (the bot's budget is not theirs). The platform
 * refuses to reopen a closed ticket, so a closed ticket leaves the pool. Meanwhile a person sends a
 * signed `/ticket show <id>` every 15 s, and (offset by 7.5 s) clicks Refresh on a card every 15 s; the
 * person's wait runs from the request until the double records the answer (the card posted; the
 * card's chat.update; waited for up to 150 s). The tickets a person asks about are not moved until
 * answered, and Refresh goes to a ticket not moved in the last 90 s, so a change's own card update
 * cannot pass for the answer. Each wait is split into the time until the bot's platform read of the
 * ticket and the time after it (Slack: a card post retried after 429s counts there).
 *
 * Before the run, the bot's first scan has listed every ticket, one change (not measured) has been
 * told, and the platform's first one-minute window (the start's requests) is over.
 *
 * Line 5 (issue 28, item 4) is a burst of new tickets instead: no ticket watched, no card before the
 * run, but a `follow` of the admin's group ("Level 2") in the channel, as `/ticket follow
 * group:"Level 2"` stores it. The warm-up: the bot's first scan, one new ticket in the group whose
 * card is posted (not measured), then a minute without the bot's requests (three at most). Then the
 * simulator creates REALTIME_BURST tickets in that group, evenly over 30 s, as the admin (the platform
 * sends its webhooks). Each new ticket's card (a top-level post of it in the channel) is timed from the
 * ticket's creation; /readyz's 'ticket events' sentence is sampled every 10 s and must not say "no
 * change waiting" nor "already current" while a card is due (a ticket created 6 s or more before the
 * sample, its card not yet posted: the bot looks at its backlog every 5 s). No person's show or
 * Refresh on this line.
 *
 * Line 6 (issue 38 §1), "the minute after a start": the watched desk of line 1 (one channel,
 * webhooks). A first bot process runs on its store until it has made REALTIME_PREVIOUS (8) platform
 * requests in the current minute (counted from the simulator's log, the bot's user, not refused), then
 * is stopped by SIGTERM as a supervisor does; once it has gone, a second process starts at once on the
 * same store with the same environment (secrets included; its log bot2.log). A person's signed
 * `/ticket show <id>` (a different ticket each) is sent 5, 20 and 40 s after the second listens, all
 * in one run: each request is in the window the earlier ones left, as for a person who asks again.
 * Each is timed until the double holds the data (the ticket's card posted, or a link to it) and,
 * separately, until the person was first told something (a private answer such as a wait notice, or
 * the card). Two variants, each a fresh set of processes: the simulator sending
 * `X-RateLimit-Remaining`, then only `X-RateLimit-Reset` (the `onlyResetHeader` quirk). The lines
 * list both processes' platform requests. Targets: data within 2 s after a process that used 8 of
 * 10; a request sent when the window is full (10 of 10 used) told within 2 s when the answer comes.
 *
 * Line 7 (issue 38 §1), "people during a burst": line 5's set-up and burst; from 10 s after the
 * burst's start, REALTIME_PEOPLE_ASKS (10) people's requests one every 6 s, `/ticket show` and
 * `/ticket watch` in turn, each of a different older ticket, in a channel of their own (CRT2, so the
 * followed channel's pace is not in their wait; the bench has one Slack person, UBENCH). Each wait is
 * timed as on line 6; the line ends once every person is answered (the cards are line 5's figures).
 * Target: every answer within 10 s with people's demand up to 8 requests a minute (ten in a minute
 * is above it: the first eight's wait is printed too).
 *
 * Lines (each a fresh set of processes): 1 webhooks 60/min × 2 min one channel; 2 the same, two
 * channels; 3 polling alone 10/min × 3 min one channel; 4 the same, two channels; 5 a burst of 100
 * new tickets in a followed group, webhooks on, one channel (about 5 minutes while the cards keep up,
 * REALTIME_BURST_CAP_S more at most: in the default); 6 the minute after a start (about 2 minutes
 * a variant, 4 for both); 7 people during a burst (about 7 minutes). Lines 6 and 7 are not in the
 * default.
 * Each line prints a `row:` for docs/benchmarks.md's tables.
 * Knobs: REALTIME_LINES (1,2,3,4,5; 6 and 7 by name), REALTIME_MINUTES (each line's minutes, e.g. 0.5 for
 * a smoke run; lines 5 and 7: the burst's spread, 0.5), REALTIME_BURST (100: lines 5 and 7's new tickets),
 * REALTIME_START_OFFSETS_S (5,20,40: line 6's shows), REALTIME_START_HEADERS (remaining,reset: line
 * 6's variants), REALTIME_PREVIOUS (8: line 6's first process's requests; 10 fills the window),
 * REALTIME_PEOPLE_ASKS (10), REALTIME_PEOPLE_EVERY_S (6: line 7's people),
 * REALTIME_BURST_CAP_S (600: how long line 5 waits for the cards from the burst's start),
 * REALTIME_DRAIN_S (180: how long to wait for the changes to be told after the last one),
 * REALTIME_PERSON_EVERY_S (15), REALTIME_CARD_AGE_S (3600), REALTIME_TICKETS (100), REALTIME_AGENTS (12), REALTIME_DEBUG=1 (the
 * changes not told, the duplicates, the slowest, the person's slowest), REALTIME_KEEP=1 (keep each
 * line's directory: the bot's log, its store).
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestLogEntry } from '../src/sim/http.js';
import { openStore } from '../src/store/store.js';
import { attribute, type Change } from './attribution.js';
import type { Recorded } from './realtime/control.js';
import {
  alive,
  getJson,
  http,
  mark,
  type Proc,
  pct,
  pick,
  postJson,
  secs,
  signedSlack,
  sleep,
  stopProc,
} from './realtime/processes.js';
import { loginAgents, type SimSetup, startBackends, startBot, watchEveryTicket } from './realtime/start.js';

interface LineSpec {
  n: number;
  webhooks: boolean;
  perMinute: number;
  minutes: number;
  channels: number;
  /** Lines 5 and 7: how many new tickets the burst creates (over `minutes`); no changes. */
  burst?: number;
  /** Line 7: people's requests during the burst (REALTIME_PEOPLE_ASKS, one every 6 s). */
  people?: boolean;
  /** Line 6: a restart, a person's show 5, 20 and 40 s after it. */
  start?: boolean;
}
const burstCount = Number(process.env.REALTIME_BURST ?? 100);
const allLines: LineSpec[] = [
  { n: 1, webhooks: true, perMinute: 60, minutes: 2, channels: 1 },
  { n: 2, webhooks: true, perMinute: 60, minutes: 2, channels: 2 },
  { n: 3, webhooks: false, perMinute: 10, minutes: 3, channels: 1 },
  { n: 4, webhooks: false, perMinute: 10, minutes: 3, channels: 2 },
  { n: 5, webhooks: true, perMinute: 0, minutes: 0.5, channels: 1, burst: burstCount },
  { n: 6, webhooks: true, perMinute: 0, minutes: 0, channels: 1, start: true },
  { n: 7, webhooks: true, perMinute: 0, minutes: 0.5, channels: 2, burst: burstCount, people: true },
];
// Lines 6 and 7 (a few minutes each) are run by name.
const chosen = (process.env.REALTIME_LINES ?? '1,2,3,4,5').split(',').map((s) => Number(s.trim()));
const minutesOverride = process.env.REALTIME_MINUTES ? Number(process.env.REALTIME_MINUTES) : undefined;
const drainMs = Number(process.env.REALTIME_DRAIN_S ?? 180) * 1000;
const personEveryMs = Number(process.env.REALTIME_PERSON_EVERY_S ?? 15) * 1000;
/**
 * How old the desk's cards are when the run starts (seconds). A show of a ticket whose card the
 * channel got in the last hour links to it (an answer to the person only) instead of posting a card;
 * the default, an hour, makes every show post one (the channel's pace then carries people's cards).
 */
const cardAgeS = Number(process.env.REALTIME_CARD_AGE_S ?? 3_600);
const ticketCount = Number(process.env.REALTIME_TICKETS ?? 100);
const agentCount = Number(process.env.REALTIME_AGENTS ?? 12);
const debug = process.env.REALTIME_DEBUG === '1';
const keep = process.env.REALTIME_KEEP === '1';
const lines = allLines
  .filter((l) => chosen.includes(l.n))
  .map((l) => ({ ...l, minutes: l.start ? 0 : (minutesOverride ?? l.minutes) }));
if (!lines.length)
  throw new Error(`REALTIME_LINES: "${process.env.REALTIME_LINES}" names no line of 1,2,3,4,5,6,7`);
if (minutesOverride !== undefined && !(minutesOverride > 0))
  throw new Error(`REALTIME_MINUTES: "${process.env.REALTIME_MINUTES}" is not a positive number`);

/** The moves a ticket goes through, in turn; the platform refuses to reopen a closed ticket. */
const cycle = ['open', 'inprogress', 'done', 'closed'];
const person = 'UBENCH';
/** How long a person's request is waited for (answered later: "not answered"). */
const askCapMs = 150_000;

// ---------- what the processes record ----------

/** A request the simulator logged (its own type). */
type SimRequest = RequestLogEntry;
interface SimMove {
  ticketId: string;
  eventId: string | undefined;
  from: string;
  to: string;
  at: number;
}
/** One answered Web API call of the double. */
type SlackRecord = Recorded;

/** Reads the double's answered calls as they come (incrementally). */
class SlackCalls {
  readonly all: SlackRecord[] = [];
  private next = 0;
  constructor(private readonly control: string) {}
  async poll(): Promise<void> {
    const r = await getJson<{ next: number; calls: SlackRecord[] }>(
      `${this.control}/calls?from=${this.next}`,
    );
    this.all.push(...r.calls);
    this.next = r.next;
  }
  posts(): SlackRecord[] {
    return this.all.filter((c) => c.method === 'chat.postMessage' && c.ok);
  }
}

/** A person's `/ticket <text>` in `channel`, the form body Slack sends (to sign with `signedSlack`). */
const ticketCommand = (o: { channel: string; user: string; text: string; responseUrl: string }) =>
  new URLSearchParams({
    token: 'legacy',
    team_id: 'T0000DBL',
    team_domain: 'double',
    channel_id: o.channel,
    channel_name: o.channel.toLowerCase(),
    user_id: o.user,
    user_name: 'bench',
    command: '/ticket',
    text: o.text,
    api_app_id: 'A0REALTIME',
    response_url: o.responseUrl,
    trigger_id: `trigger-${randomBytes(6).toString('hex')}`,
  }).toString();

// ---------- one line ----------

/** A person's request: a `/ticket show` or a Refresh click. */
interface PersonAsk {
  kind: 'show' | 'refresh';
  ticketId: string;
  channel: string;
  /** Refresh: the card clicked. */
  ts?: string;
  responsePath: string;
  sentAt: number;
  ackStatus?: number;
  ackMs?: number;
  /** When the double recorded the answer (the card posted, the card updated). */
  doneAt?: number;
  /** A private answer instead (an error, a wait notice), if any. */
  replies: string[];
  /** When the bot read the ticket on the platform for it (none: answered from its cache). */
  readAt?: number;
  /** Show: the card's chat.postMessage attempts (each beyond the first followed a 429). */
  attempts?: number;
  /** Show: answered with a link to the card the channel has (no post). */
  linked?: boolean;
}

interface LineResult {
  spec: LineSpec;
  made: number;
  putFailures: string[];
  closedOut: number;
  told: number;
  duplicates: number;
  p50: number;
  p95: number;
  max: number;
  byOwn: number;
  byLine: number;
  botRequests: number;
  personReads: number;
  kinds: string;
  shows: PersonAsk[];
  refreshes: PersonAsk[];
  postsPerMinute: string;
  updates: number;
  rateLimited: string;
  webhooks: string;
  notTold: Change[];
  duplicateLines: string[];
  slowest: string[];
  problems: string[];
  dir: string;
}

/** Reads the simulator's answered requests as they come (incrementally). */
class SimRequests {
  readonly all: SimRequest[] = [];
  private next = 0;
  constructor(private readonly control: string) {}
  async poll(): Promise<void> {
    const r = await getJson<{ next: number; entries: SimRequest[] }>(
      `${this.control}/requests?from=${this.next}`,
    );
    this.all.push(...r.entries);
    this.next = r.next;
  }
}

/** Waits (2.5 min at most) for the bot's first scan of the tickets, then 3 s; throws if the bot exited. */
async function firstScan(sim: SimRequests, adminUserId: number, botProc: Proc): Promise<void> {
  const alive = () => botProc.child.exitCode === null && botProc.child.signalCode === null;
  const until = Date.now() + 150_000;
  while (Date.now() < until && alive()) {
    await sim.poll();
    if (sim.all.some((r) => r.userId === adminUserId && r.path === '/api/v3/tickets' && r.status === 200))
      break;
    await sleep(500);
  }
  if (!alive()) throw new Error(`the bot exited during its start:\n${botProc.output().slice(-3000)}`);
  await sleep(3_000);
}

/** The platform simulator and the Slack double, each in its own process, and the simulator's set-up. */
const startDesk = (procs: Proc[], dir: string) =>
  startBackends(procs, dir, {
    simEnv: { REALTIME_TICKETS: String(ticketCount), REALTIME_AGENTS: String(agentCount) },
  });

/**
 * The bot as deployed (`node --import tsx src/main.ts` with a deployment's environment) on this line's
 * store, the simulator and the Slack double; with `webhooks`, the simulator's webhooks point at it.
 */
const startDeskBot = (
  procs: Proc[],
  dir: string,
  dataDir: string,
  setup: SimSetup,
  slackApi: string,
  webhooks: boolean,
) =>
  startBot(procs, dir, {
    dataDir,
    setup,
    slackApi,
    token: 'xoxb-realtime-bench',
    webhooks,
    env: { SHUTDOWN_TIMEOUT_S: '10' },
  });

/** The kind of a platform request, from its path. */
const kindOf = (r: SimRequest) =>
  r.path === '/api/v3/tickets'
    ? Number(r.query.offset ?? 0) > 0
      ? 'further scan pages'
      : 'scans'
    : r.path.endsWith('/events')
      ? 'events reads'
      : /^\/api\/v3\/tickets\/\d+$/.test(r.path)
        ? 'ticket reads'
        : `other ${r.method} ${r.path.replace('/api/v3/', '').replace(/\d+/g, ':id')}`;
const knownKinds = ['scans', 'further scan pages', 'ticket reads', 'events reads'];
const kindOrder = (kind: string) =>
  knownKinds.includes(kind) ? knownKinds.indexOf(kind) : knownKinds.length;

async function runLine(spec: LineSpec): Promise<LineResult> {
  const dir = mkdtempSync(join(tmpdir(), `confdesk-realtime-${spec.n}-`));
  const procs: Proc[] = [];
  const problems: string[] = [];
  const channels = Array.from({ length: spec.channels }, (_, i) => `CRT${i + 1}`);
  try {
    // The platform simulator and the Slack double, each in its own process.
    const { simAt, slackAt, setup } = await startDesk(procs, dir);
    const channelOf = new Map(setup.tickets.map((t, i) => [t.id, channels[i % channels.length] as string]));

    // Each ticket's card in its channel, and the bot's store as a bot that has run a while has it.
    const dataDir = join(dir, 'data');
    const cardTs = await watchEveryTicket({
      slackControl: slackAt.control,
      dataDir,
      tickets: setup.tickets,
      channelOf: (id) => channelOf.get(id) as string,
      cardAgeS,
      person,
    });

    // The bot, as deployed.
    const { botProc, botUrl, signingSecret } = await startDeskBot(
      procs,
      dir,
      dataDir,
      setup,
      slackAt.api,
      spec.webhooks,
    );

    // The agents log in with their own accounts.
    const agents = await loginAgents(setup.url, setup.agents);

    const slack = new SlackCalls(slackAt.control);
    const sim = new SimRequests(simAt.control);
    const requests = sim.all;
    const pollSim = () => sim.poll();
    const botAlive = () => botProc.child.exitCode === null && botProc.child.signalCode === null;

    // ---- moves ----
    const movesOf = new Map<string, number>();
    const closed = new Set<string>();
    const busy = new Set<string>();
    const lastMovedAt = new Map<string, number>();
    const puts: {
      ticketId: string;
      to: string;
      sentAt: number;
      doneAt: number;
      status: number;
      measured: boolean;
    }[] = [];
    let agentTurn = 0;
    const move = async (measured: boolean): Promise<void> => {
      const pool = setup.tickets.filter((t) => !closed.has(t.id) && !busy.has(t.id));
      if (!pool.length) {
        problems.push('no ticket left to move');
        return;
      }
      const ticketId = pick(pool).id;
      const k = movesOf.get(ticketId) ?? 0;
      const to = cycle[k % cycle.length] as string;
      const token = agents[agentTurn++ % agents.length] as string;
      busy.add(ticketId);
      const sentAt = Date.now();
      let status = 0;
      try {
        status = (
          await http(`${setup.url}/api/v3/tickets/${ticketId}?state=${to}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}` },
          })
        ).status;
      } catch {
        status = 0;
      }
      busy.delete(ticketId);
      puts.push({ ticketId, to, sentAt, doneAt: Date.now(), status, measured });
      if (status === 204) {
        movesOf.set(ticketId, k + 1);
        lastMovedAt.set(ticketId, Date.now());
        if (to === 'closed') closed.add(ticketId);
      }
    };
    /** The sim's record of each successful PUT: its event and time. */
    const changesOf = (moves: SimMove[], which: typeof puts): Change[] =>
      which.flatMap((p) => {
        if (p.status !== 204) return [];
        const m = moves.find(
          (x) =>
            x.ticketId === p.ticketId &&
            x.to === p.to &&
            x.at >= p.sentAt - 2_000 &&
            x.at <= p.doneAt + 2_000,
        );
        if (!m?.eventId) return [];
        return [
          {
            eventId: m.eventId,
            ticketId: m.ticketId,
            to: m.to,
            modified: Math.floor(m.at / 1000) * 1000,
            madeAt: m.at,
          },
        ];
      });

    // ---- warm-up: the bot's first scan has listed every ticket; one change is told ----
    await firstScan(sim, setup.adminUserId, botProc);
    await move(false);
    const warm = changesOf(await getJson<SimMove[]>(`${simAt.control}/moves`), puts);
    const warmTold = Date.now() + 120_000;
    while (warm.length && Date.now() < warmTold && botAlive()) {
      await slack.poll();
      if (attribute(warm, slack.posts()).toldAt.size === warm.length) break;
      await sleep(1_000);
    }
    if (warm.length && attribute(warm, slack.posts()).toldAt.size < warm.length)
      problems.push('the warm-up change was not told within 2 minutes');
    // The start's requests (its checks, the first scan, the warm-up's reads and checks) fill the
    // platform's one-minute window: the run starts once they have left it, as for a bot that has run a
    // while. A webhooks line waits for a minute without any request; a polling line for a minute with
    // no more than its scans (about two requests a minute), which are the desk's own.
    const quietUntil = Date.now() + 180_000;
    for (;;) {
      await pollSim();
      const recent = requests.filter((r) => r.userId === setup.adminUserId && r.at > Date.now() - 61_000);
      if (recent.length <= (spec.webhooks ? 0 : 2) || Date.now() >= quietUntil) break;
      await sleep(Math.min(recent[0]?.at ?? 0, Date.now()) + 61_000 - Date.now() + 100);
    }

    // ---- the measured run ----
    const startedAt = Date.now();
    const runMs = spec.minutes * 60_000;
    const endAt = startedAt + runMs;
    const count = Math.max(1, Math.round(spec.perMinute * spec.minutes));
    const gap = 60_000 / spec.perMinute;
    const asks: PersonAsk[] = [];

    /** The person's request: sent now, answered when the double records it (`watch`). */
    const ask = async (kind: PersonAsk['kind']): Promise<void> => {
      const now = Date.now();
      const pool = setup.tickets.filter(
        (t) => !busy.has(t.id) && (kind === 'show' || now - (lastMovedAt.get(t.id) ?? 0) > 90_000),
      );
      if (!pool.length) {
        problems.push(`no ticket free for a person's ${kind}`);
        return;
      }
      const ticketId = pick(pool).id;
      const channel = channelOf.get(ticketId) as string;
      busy.add(ticketId);
      const ts = kind === 'refresh' ? (cardTs[ticketId] as string) : undefined;
      const { url: responseUrl } = await postJson<{ url: string }>(`${slackAt.control}/response-url`, {
        channel,
        user: person,
        ...(ts ? { ts } : { command: true }),
      });
      const body =
        kind === 'show'
          ? ticketCommand({ channel, user: person, text: `show ${ticketId}`, responseUrl })
          : new URLSearchParams({
              payload: JSON.stringify({
                type: 'block_actions',
                user: { id: person, name: 'bench', team_id: 'T0000DBL' },
                team: { id: 'T0000DBL', domain: 'double' },
                api_app_id: 'A0REALTIME',
                token: 'legacy',
                trigger_id: `trigger-${randomBytes(6).toString('hex')}`,
                response_url: responseUrl,
                channel: { id: channel, name: channel.toLowerCase() },
                container: { type: 'message', channel_id: channel, message_ts: ts, is_ephemeral: false },
                message: { type: 'message', ts, text: `${ticketId}` },
                actions: [
                  {
                    type: 'button',
                    action_id: 'ticket_refresh',
                    block_id: 'ticket_actions',
                    value: ticketId,
                    action_ts: String(Date.now() / 1000),
                  },
                ],
              }),
            }).toString();
      const a: PersonAsk = {
        kind,
        ticketId,
        channel,
        ...(ts ? { ts } : {}),
        responsePath: new URL(responseUrl).pathname,
        sentAt: Date.now(),
        replies: [],
      };
      asks.push(a);
      try {
        const r = await signedSlack(botUrl, signingSecret, body);
        a.ackStatus = r.status;
      } catch (error) {
        a.ackStatus = 0;
        a.replies.push(`request failed: ${(error as Error).message}`);
      }
      a.ackMs = Date.now() - a.sentAt;
    };
    /** A show answered by a link to the ticket's card in the channel (a private answer), if any. */
    let linked: { path: string; at: number; body: Record<string, unknown> }[] = [];
    const linkOf = (a: PersonAsk) =>
      a.kind === 'show'
        ? linked.find(
            (r) =>
              r.path === a.responsePath &&
              r.at >= a.sentAt &&
              /is already in this channel/.test(String(r.body.text)),
          )
        : undefined;
    /** Settles the person's requests the double has answered. */
    const answerAsks = () => {
      const now = Date.now();
      for (const a of asks) {
        if (a.doneAt !== undefined) continue;
        const link = linkOf(a);
        if (link) {
          a.doneAt = link.at;
          a.linked = true;
          busy.delete(a.ticketId);
          continue;
        }
        const hit = slack.all.find((c) =>
          a.kind === 'show'
            ? c.method === 'chat.postMessage' &&
              c.ok &&
              c.channel === a.channel &&
              !c.threadTs &&
              c.card === a.ticketId &&
              c.at >= a.sentAt
            : c.method === 'chat.update' &&
              c.ok &&
              c.channel === a.channel &&
              c.ts === a.ts &&
              c.at >= a.sentAt,
        );
        if (hit) {
          a.doneAt = hit.at;
          if (a.kind === 'show' && hit.ts) cardTs[a.ticketId] = hit.ts;
          busy.delete(a.ticketId);
        } else if (now - a.sentAt > askCapMs) busy.delete(a.ticketId);
      }
    };
    let watching = true;
    // Bounded whatever happens: the run, the drain and a margin.
    const watchUntil = endAt + drainMs + 120_000;
    const watcher = (async () => {
      while (watching && Date.now() < watchUntil) {
        try {
          await slack.poll();
          // A show links to a card the channel got in the last hour: the desk's, when they are young, or
          // one a person's earlier show posted during the run.
          linked = await getJson<typeof linked>(`${slackAt.control}/responses`);
          answerAsks();
        } catch (error) {
          problems.push(`reading the Slack double failed: ${(error as Error).message}`);
        }
        await sleep(500);
      }
    })();
    const personLoop = async (offsetMs: number, kind: PersonAsk['kind']) => {
      const pending: Promise<void>[] = [];
      for (let at = startedAt + offsetMs; at < endAt; at += personEveryMs) {
        await sleep(at - Date.now());
        pending.push(ask(kind).catch((e: Error) => void problems.push(`${kind}: ${e.message}`)));
      }
      await Promise.all(pending);
    };
    const people = Promise.all([personLoop(0, 'show'), personLoop(personEveryMs / 2, 'refresh')]);
    const moving: Promise<void>[] = [];
    for (let i = 0; i < count && botAlive(); i++) {
      await sleep(startedAt + (i + Math.random()) * gap - Date.now());
      moving.push(move(true));
    }
    await Promise.all(moving);
    const lastChangeAt = Date.now();
    await people;

    // ---- drain: every change told (cap REALTIME_DRAIN_S), every person answered (cap 150 s each) ----
    const measuredPuts = puts.filter((p) => p.measured);
    let changes = changesOf(await getJson<SimMove[]>(`${simAt.control}/moves`), measuredPuts);
    while (Date.now() < lastChangeAt + drainMs && botAlive()) {
      const told = attribute(changes, slack.posts()).toldAt.size;
      const waiting = asks.some((a) => a.doneAt === undefined && Date.now() - a.sentAt < askCapMs);
      if (told === changes.length && !waiting) break;
      await sleep(1_000);
    }
    // Late duplicates (a confirmation that posts again) show within a few seconds.
    await sleep(spec.webhooks ? 10_000 : 15_000);
    watching = false;
    await watcher;
    await slack.poll();
    answerAsks();
    if (!botAlive())
      problems.push(
        `the bot exited (code ${botProc.child.exitCode}, signal ${botProc.child.signalCode}) during the run; its last output:\n${botProc.output().slice(-3000)}`,
      );

    // ---- the records ----
    await stopProc(botProc, 20_000);
    await pollSim();
    const moves = await getJson<SimMove[]>(`${simAt.control}/moves`);
    changes = changesOf(moves, measuredPuts);
    const attempts = await getJson<{
      counts: Record<string, Record<string, number>>;
      posts: { channel?: string; threadTs?: string; card?: string; at: number }[];
      violations: number;
    }>(`${slackAt.control}/attempts`);
    const responses = await getJson<{ path: string; at: number; body: Record<string, unknown> }[]>(
      `${slackAt.control}/responses`,
    );
    const webhookLog = await getJson<{ status?: number; error?: string; at: number }[]>(
      `${simAt.control}/webhooks`,
    );
    await slack.poll();
    for (const a of asks)
      for (const r of responses)
        if (r.path === a.responsePath && !r.body.delete_original)
          a.replies.push(`${secs(r.at - a.sentAt)}: ${String(r.body.text ?? '').slice(0, 120)}`);
    // Where each wait went: the bot's platform read of the ticket, then Slack (a card post may wait
    // out the channel's pace: each 429 is one more attempt).
    for (const a of asks) {
      const end = a.doneAt ?? a.sentAt + askCapMs;
      const read = requests.find(
        (r) =>
          r.userId === setup.adminUserId &&
          r.path === `/api/v3/tickets/${a.ticketId}` &&
          r.at >= a.sentAt &&
          r.at <= end,
      );
      if (read) a.readAt = read.at;
      if (a.kind === 'show')
        a.attempts = attempts.posts.filter(
          (p) =>
            p.channel === a.channel &&
            !p.threadTs &&
            p.card === a.ticketId &&
            p.at >= a.sentAt &&
            p.at <= end,
        ).length;
    }

    if (keep)
      writeFileSync(
        join(dir, 'records.json'),
        JSON.stringify({
          setup,
          startedAt,
          lastChangeAt,
          puts,
          moves,
          requests,
          calls: slack.all,
          asks,
          webhookLog,
          responses,
        }),
      );
    const deadline = lastChangeAt + drainMs;
    const posts = slack.posts();
    const told = attribute(changes, posts, deadline);
    const delays = [...told.toldAt].map(([ch, at]) => at - ch.madeAt);
    const firstAt = changes.length ? Math.min(...changes.map((c) => c.madeAt)) : startedAt;
    const windowEnd = told.toldAt.size === changes.length && changes.length ? told.lastToldAt : deadline;
    const botRequests = requests.filter(
      (r) => r.userId === setup.adminUserId && r.at >= firstAt && r.at <= windowEnd,
    );
    const personReads = new Set(
      asks.flatMap((a) =>
        botRequests.filter(
          (r) =>
            r.path === `/api/v3/tickets/${a.ticketId}` &&
            r.at >= a.sentAt &&
            r.at <= (a.doneAt ?? a.sentAt + askCapMs),
        ),
      ),
    );
    const kinds = new Map<string, number>();
    for (const r of botRequests) kinds.set(kindOf(r), (kinds.get(kindOf(r)) ?? 0) + 1);
    const refused = botRequests.filter((r) => r.status === 429).length;

    // Slack: posts a minute per channel (from the first change to the last post), updates, 429s.
    const spanEnd = Math.max(lastChangeAt, ...posts.map((p) => p.at));
    const perChannel = channels.map((ch) => {
      const mine = posts.filter((p) => p.channel === ch && p.at >= firstAt && p.at <= spanEnd);
      const buckets = new Map<number, number>();
      for (const p of mine) {
        const b = Math.floor((p.at - firstAt) / 60_000);
        buckets.set(b, (buckets.get(b) ?? 0) + 1);
      }
      const minutes = Math.max(1 / 60, (spanEnd - firstAt) / 60_000);
      return `${ch} ${(mine.length / minutes).toFixed(1)}/min (busiest minute ${Math.max(0, ...buckets.values())}, ${mine.length} in ${minutes.toFixed(1)} min)`;
    });
    const postAttempts = attempts.counts['chat.postMessage'] ?? {};
    const rateLimited = channels
      .map((ch) => `${ch} ${(postAttempts[ch] ?? 0) - posts.filter((p) => p.channel === ch).length}`)
      .join(', ');
    const all429 =
      Object.values(postAttempts).reduce((a, b) => a + b, 0) -
      slack.all.filter((c) => c.method === 'chat.postMessage').length;
    const updates = slack.all.filter((c) => c.method === 'chat.update' && c.ok).length;
    const failedUpdates = slack.all.filter((c) => c.method === 'chat.update' && !c.ok).length;
    const hooksFailed = webhookLog.filter((w) => w.status === undefined || w.status >= 300).length;

    const byOwn = [...told.how.values()].filter((h) => h === 'own').length;
    return {
      spec,
      made: changes.length,
      putFailures: measuredPuts
        .filter((p) => p.status !== 204)
        .map((p) => `${p.ticketId} → ${p.to}: ${p.status}`),
      closedOut: closed.size,
      told: told.toldAt.size,
      duplicates: told.duplicates,
      p50: pct(delays, 50),
      p95: pct(delays, 95),
      max: delays.length ? Math.max(...delays) : Number.NaN,
      byOwn,
      byLine: told.toldAt.size - byOwn,
      botRequests: botRequests.length,
      personReads: personReads.size,
      kinds:
        [...kinds]
          .sort(([a], [b]) => kindOrder(a) - kindOrder(b))
          .map(([k, n]) => `${n} ${k}`)
          .join(', ') + (refused ? `; ${refused} answered 429` : ''),
      shows: asks.filter((a) => a.kind === 'show'),
      refreshes: asks.filter((a) => a.kind === 'refresh'),
      postsPerMinute: perChannel.join(' · '),
      updates,
      rateLimited: `${all429} (${rateLimited}${failedUpdates ? `; ${failedUpdates} chat.update refused` : ''}${attempts.violations ? `; ${attempts.violations} Block Kit violations` : ''})`,
      webhooks: spec.webhooks
        ? `${webhookLog.length} delivered to the bot, ${hooksFailed} not accepted`
        : 'off',
      notTold: changes.filter((ch) => !told.toldAt.has(ch)),
      duplicateLines: told.duplicateLines,
      slowest: [...told.toldAt]
        .sort(([a, x], [b, y]) => y - b.madeAt - (x - a.madeAt))
        .slice(0, 5)
        .map(
          ([ch, at]) =>
            `ticket ${ch.ticketId} → ${ch.to} (${ch.eventId}) after ${secs(at - ch.madeAt)}, by ${told.how.get(ch) === 'own' ? 'its own post' : 'a state line'}`,
        ),
      problems,
      dir,
    };
  } finally {
    for (const p of [...procs].reverse()) await stopProc(p, 20_000);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

// ---------- report ----------

function personLine(name: string, asks: PersonAsk[]): string {
  const waits = asks.flatMap((a) => (a.doneAt === undefined ? [] : [a.doneAt - a.sentAt]));
  const unanswered = asks.length - waits.length;
  const acks = asks.map((a) => a.ackMs ?? 0);
  const linked = asks.filter((a) => a.linked).length;
  return `${name} p50 ${secs(pct(waits, 50))} max ${secs(waits.length ? Math.max(...waits) : Number.NaN)} (${waits.length}/${asks.length} answered${linked ? `, ${linked} by a link to the card` : ''}${unanswered ? `, ${unanswered} not within ${secs(askCapMs)}` : ''}; ack max ${secs(acks.length ? Math.max(...acks) : Number.NaN)})`;
}

/** How long the platform read took to start, and Slack after it (p50/max), for the answered requests. */
function whereLine(name: string, asks: PersonAsk[]): string {
  const done = asks.filter((a) => a.doneAt !== undefined);
  const read = done.flatMap((a) => (a.readAt === undefined ? [] : [a.readAt - a.sentAt]));
  const after = done.map((a) => (a.doneAt as number) - (a.readAt ?? a.sentAt));
  const cached = done.length - read.length;
  const retried = done.reduce((n, a) => n + Math.max(0, (a.attempts ?? 1) - 1), 0);
  return `${name}: platform read after p50 ${secs(pct(read, 50))} max ${secs(read.length ? Math.max(...read) : Number.NaN)}${cached ? ` (${cached} from cache)` : ''}, then Slack p50 ${secs(pct(after, 50))} max ${secs(after.length ? Math.max(...after) : Number.NaN)}${name === 'show' ? ` (${retried} card posts retried after a 429)` : ''}`;
}

const personMax = (r: LineResult) => {
  const all = [...r.shows, ...r.refreshes];
  if (!all.length || all.some((a) => a.doneAt === undefined)) return Number.POSITIVE_INFINITY;
  return Math.max(...all.map((a) => (a.doneAt as number) - a.sentAt));
};

function report(r: LineResult): string[] {
  const s = r.spec;
  const out = [
    `Line ${s.n} · ${s.webhooks ? 'webhooks' : 'polling only'} · ${s.perMinute}/min × ${s.minutes} min · ${ticketCount} tickets in ${s.channels} channel${s.channels > 1 ? 's' : ''}`,
    `  changes: told ${r.told}/${r.made} made${r.putFailures.length ? ` (${r.putFailures.length} agent PUTs failed)` : ''} · duplicates ${r.duplicates} · delay p50 ${secs(r.p50)} p95 ${secs(r.p95)} max ${secs(r.max)} · told by its own post ${r.byOwn}, by a state line ${r.byLine}${r.closedOut ? ` · ${r.closedOut} tickets closed (out of the pool)` : ''}`,
    `  platform (the bot's token, first change → all told): ${r.botRequests} requests = ${r.made ? (r.botRequests / r.made).toFixed(2) : '—'} per change made, ${r.made ? ((r.botRequests - r.personReads) / r.made).toFixed(2) : '—'} without the person's ${r.personReads} reads (${r.kinds || 'none'})`,
    `  person: ${personLine('/ticket show', r.shows)} · ${personLine('Refresh', r.refreshes)}`,
    `  person's wait, where: ${whereLine('show', r.shows)} · ${whereLine('Refresh', r.refreshes)}`,
    `  Slack: chat.postMessage ${r.postsPerMinute} · chat.update ${r.updates} · 429s ${r.rateLimited} · webhooks ${r.webhooks}`,
  ];
  const told = r.made > 0 && r.told === r.made;
  const pm = personMax(r);
  const personTarget = `${mark(pm <= 2_000)} person's show/Refresh max ${Number.isFinite(pm) ? secs(pm) : 'not all answered'} (≤ 2.0 s)`;
  if (s.webhooks)
    out.push(
      `  targets: ${mark(told && r.duplicates === 0)} every change told once (${r.told}/${r.made}, dup ${r.duplicates}) · ${mark(told && r.p95 <= 5_000)} p95 ${secs(r.p95)} (≤ 5.0 s) · ${personTarget}`,
    );
  else
    out.push(
      `  targets: ${mark(told)} every change told (${r.told}/${r.made}) · ${mark(told && r.p95 <= 60_000)} p95 ${secs(r.p95)} (≤ 60.0 s) · ${personTarget}`,
    );
  for (const p of r.problems) out.push(`  problem: ${p}`);
  if (debug) {
    for (const ch of r.notTold)
      out.push(
        `    not told: ticket ${ch.ticketId} → ${ch.to} (${ch.eventId}), made ${new Date(ch.madeAt).toISOString()}`,
      );
    for (const d of r.duplicateLines) out.push(`    duplicate: ${d}`);
    for (const d of r.slowest) out.push(`    slowest: ${d}`);
    for (const f of r.putFailures) out.push(`    agent PUT failed: ${f}`);
    for (const a of [...r.shows, ...r.refreshes]
      .sort(
        (x, y) =>
          (y.doneAt ?? Number.POSITIVE_INFINITY) -
          y.sentAt -
          ((x.doneAt ?? Number.POSITIVE_INFINITY) - x.sentAt),
      )
      .slice(0, 6))
      out.push(
        `    person: ${a.kind} ${a.ticketId} in ${a.channel} at ${new Date(a.sentAt).toISOString()}: ${a.doneAt === undefined ? 'not answered' : secs(a.doneAt - a.sentAt)} (ack ${a.ackStatus} in ${a.ackMs} ms)${a.replies.length ? `; replies: ${a.replies.join(' | ')}` : ''}`,
      );
  }
  if (keep) out.push(`  kept: ${r.dir} (bot.log, sim.log, slack.log, data/)`);
  return out;
}

// ---------- line 5: a burst of new tickets in a followed group ----------

/** How long line 5 waits for the cards, from the burst's start. */
const burstCapMs = Number(process.env.REALTIME_BURST_CAP_S ?? 600) * 1000;
/** How often /readyz is sampled on line 5. */
const readyzEveryMs = 10_000;
/**
 * How long after a ticket's creation /readyz's sentence must know of it: the webhook's delivery, then
 * the bot's look at its backlog (every 5 s).
 */
const readyzLagMs = 6_000;
/** Minutes after the burst's start at which the cards posted are counted. */
const burstMarks = [1, 2, 5, 10];
/** What the sentence must not say while a card is due. */
const sayingNothingWaits = /no change waiting|already current/;

interface ReadySample {
  at: number;
  sentence: string;
}

interface BurstResult {
  spec: LineSpec;
  burstAt: number;
  /** Each new ticket and when the simulator created it. */
  created: { id: string; at: number }[];
  /** Each new ticket's first card in the channel. */
  cardAt: Map<string, number>;
  /** Tickets whose card was posted more than once. */
  duplicates: string[];
  botRequests: number;
  kinds: string;
  /** Bot list scans (first pages) from the burst's start, seconds after it. */
  scans: number[];
  rateLimited: number;
  webhooks: string;
  samples: ReadySample[];
  /** Line 7: the people's requests, and the bot's requests from 10 s before the first to the last answer. */
  asks?: QuickAsk[];
  peopleRequests?: string;
  problems: string[];
  dir: string;
}

/** Line 5: the desk set up as for the other lines, a follow instead of watches, then a burst of new tickets. */
async function runBurstLine(spec: LineSpec): Promise<BurstResult> {
  const n = spec.burst ?? 100;
  const dir = mkdtempSync(join(tmpdir(), `confdesk-realtime-${spec.n}-`));
  const procs: Proc[] = [];
  const problems: string[] = [];
  const channel = 'CRT1';
  try {
    const { simAt, slackAt, setup } = await startDesk(procs, dir);

    // The channel follows the admin's group, the record `/ticket follow group:"<name>"` writes
    // (`slack/commands/ticket-subscriptions.ts`: the parsed filter and the group's id).
    const dataDir = join(dir, 'data');
    const store = await openStore({ dataDir });
    await store.addSubscription({
      id: randomUUID(),
      channel,
      kind: 'follow',
      ticketId: undefined,
      filter: { group: setup.group.name, groupId: setup.group.id },
      createdBy: person,
    });
    await store.close();

    const { botProc, botUrl, signingSecret } = await startDeskBot(
      procs,
      dir,
      dataDir,
      setup,
      slackAt.api,
      true,
    );

    const slack = new SlackCalls(slackAt.control);
    const sim = new SimRequests(simAt.control);
    const requests = sim.all;
    const pollSim = () => sim.poll();
    const botAlive = () => botProc.child.exitCode === null && botProc.child.signalCode === null;

    // ---- warm-up: the bot's first scan, then the start's requests out of the platform's window ----
    await firstScan(sim, setup.adminUserId, botProc);
    // As the other lines' warm-up change: one new ticket in the group, its card posted (not measured).
    // The desk has then had a webhook (its scans at the webhooks' pace) and tickets of different times
    // (the list's order can be confirmed), as a desk that has run a while.
    await postJson(`${simAt.control}/burst?n=1&overMs=0`, {});
    const warmTold = Date.now() + 120_000;
    let warmCarded = false;
    while (!warmCarded && Date.now() < warmTold && botAlive()) {
      await sleep(1_000);
      await slack.poll();
      const warm = await getJson<{ id: string }[]>(`${simAt.control}/burst`);
      warmCarded = slack.posts().some((c) => c.channel === channel && !c.threadTs && c.card === warm[0]?.id);
    }
    if (!warmCarded) problems.push("the warm-up ticket's card was not posted within 2 minutes");
    const warmIds = new Set((await getJson<{ id: string }[]>(`${simAt.control}/burst`)).map((t) => t.id));
    // Then a minute without any of the bot's requests (the start's, the warm-up's: a webhooks line's
    // quiet), three minutes at most, as for the other webhooks lines.
    const quietUntil = Date.now() + 180_000;
    for (;;) {
      await pollSim();
      const recent = requests.filter((r) => r.userId === setup.adminUserId && r.at > Date.now() - 61_000);
      if (recent.length === 0 || Date.now() >= quietUntil) break;
      await sleep(Math.min(recent[0]?.at ?? 0, Date.now()) + 61_000 - Date.now() + 100);
    }

    // ---- the burst, and /readyz every 10 s until every card is posted (or the cap) ----
    const overMs = Math.round(spec.minutes * 60_000);
    const burstAt = Date.now();
    await postJson(`${simAt.control}/burst?n=${n}&overMs=${overMs}`, {});
    const capAt = burstAt + burstCapMs;
    // Line 7: a person's show or watch (in turn) of an older ticket every 6 s from 10 s after the
    // burst's start, in a channel of its own (CRT2: not the followed channel's pace), each a different
    // ticket; the bench has one Slack person (UBENCH, the admin).
    const asks: QuickAsk[] = [];
    const peopleChannel = 'CRT2';
    const askPool = [...setup.tickets].sort(() => Math.random() - 0.5);
    const sends = spec.people
      ? Array.from({ length: peopleAsks }, async (_, i) => {
          const at = burstAt + peopleFromMs + i * peopleEveryMs;
          await sleep(at - Date.now());
          asks.push(
            await sendQuick(slackAt.control, botUrl, signingSecret, {
              label: `#${i + 1} at +${((at - burstAt) / 1000).toFixed(0)} s`,
              verb: i % 2 ? 'watch' : 'show',
              ticketId: (askPool[i % askPool.length] as { id: string }).id,
              channel: peopleChannel,
            }),
          );
        })
      : [];
    const peopleSettled = () =>
      asks.length === sends.length &&
      asks.every((a) => a.doneAt !== undefined || Date.now() - a.sentAt > askCapMs);
    let created: { id: string; at: number }[] = [];
    const burstOf = async () =>
      (await getJson<typeof created>(`${simAt.control}/burst`)).filter((t) => !warmIds.has(t.id));
    const samples: ReadySample[] = [];
    let sampling = true;
    const sampler = (async () => {
      for (let at = burstAt; sampling && Date.now() < capAt + 30_000; at += readyzEveryMs) {
        await sleep(at - Date.now());
        if (!sampling) break;
        const sampledAt = Date.now();
        let sentence: string;
        try {
          const r = await http(`${botUrl}/readyz`, { timeoutMs: 5_000 });
          const body = JSON.parse(r.text) as { checks?: Record<string, { detail?: string }> };
          sentence = body.checks?.['ticket events']?.detail ?? '(no detail)';
        } catch (error) {
          sentence = `(/readyz not answered: ${(error as Error).message})`;
        }
        samples.push({ at: sampledAt, sentence });
      }
    })();
    const cardsOf = () => {
      const ids = new Set(created.map((t) => t.id));
      return slack
        .posts()
        .filter((c) => c.channel === channel && !c.threadTs && c.card !== undefined && ids.has(c.card));
    };
    while (Date.now() < capAt && botAlive()) {
      await sleep(1_000);
      try {
        await slack.poll();
        created = await burstOf();
        if (spec.people)
          settleQuick(asks, slack.all, await getJson<Responses>(`${slackAt.control}/responses`));
      } catch (error) {
        problems.push(`reading the doubles failed: ${(error as Error).message}`);
      }
      // Line 7 ends once every person is answered (the burst's cards are line 5's).
      if (
        spec.people
          ? peopleSettled()
          : created.length === n && new Set(cardsOf().map((c) => c.card)).size === n
      )
        break;
    }
    const loopEnd = Date.now();
    await Promise.all(sends);
    // One more sample once every card is out (the sentence should be back to nothing waiting), and a
    // few seconds for a card posted twice.
    await sleep(readyzEveryMs);
    sampling = false;
    await sampler;
    await slack.poll();
    if (!botAlive())
      problems.push(
        `the bot exited (code ${botProc.child.exitCode}, signal ${botProc.child.signalCode}) during the run; its last output:\n${botProc.output().slice(-3000)}`,
      );

    // ---- the records ----
    await stopProc(botProc, 20_000);
    await pollSim();
    created = await burstOf();
    const attempts = await getJson<{ counts: Record<string, Record<string, number>> }>(
      `${slackAt.control}/attempts`,
    );
    const webhookLog = await getJson<{ status?: number; error?: string; at: number }[]>(
      `${simAt.control}/webhooks`,
    );
    const cards = cardsOf();
    const cardAt = new Map<string, number>();
    const postedTimes = new Map<string, number>();
    for (const c of cards) {
      const id = c.card as string;
      if (!cardAt.has(id)) cardAt.set(id, c.at);
      postedTimes.set(id, (postedTimes.get(id) ?? 0) + 1);
    }
    const lastCardAt = cardAt.size ? Math.max(...cardAt.values()) : capAt;
    const windowEnd = spec.people ? loopEnd : cardAt.size === n ? lastCardAt : capAt;
    if (spec.people) {
      settleQuick(asks, slack.all, await getJson<Responses>(`${slackAt.control}/responses`));
      readsOf(asks, requests, setup.adminUserId);
      for (const a of asks) a.usedBefore = usedIn(requests, setup.adminUserId, a.sentAt);
    }
    const firstAskAt = asks.length ? Math.min(...asks.map((a) => a.sentAt)) : burstAt;
    const botRequests = requests.filter(
      (r) => r.userId === setup.adminUserId && r.at >= burstAt && r.at <= windowEnd,
    );
    const kinds = new Map<string, number>();
    for (const r of botRequests) kinds.set(kindOf(r), (kinds.get(kindOf(r)) ?? 0) + 1);
    const refused = botRequests.filter((r) => r.status === 429).length;
    const postAttempts = Object.values(attempts.counts['chat.postMessage'] ?? {}).reduce((a, b) => a + b, 0);
    const hooksFailed = webhookLog.filter((w) => w.status === undefined || w.status >= 300).length;
    if (keep)
      writeFileSync(
        join(dir, 'records.json'),
        JSON.stringify({
          setup,
          burstAt,
          created,
          requests,
          calls: slack.all,
          samples,
          webhookLog,
          asks,
          ...(spec.people ? { responses: await getJson<Responses>(`${slackAt.control}/responses`) } : {}),
        }),
      );
    return {
      spec,
      burstAt,
      created,
      cardAt,
      duplicates: [...postedTimes].filter(([, k]) => k > 1).map(([id, k]) => `${id} ×${k}`),
      botRequests: botRequests.length,
      kinds:
        [...kinds]
          .sort(([a], [b]) => kindOrder(a) - kindOrder(b))
          .map(([k, c]) => `${c} ${k}`)
          .join(', ') + (refused ? `; ${refused} answered 429` : ''),
      scans: requests
        .filter(
          (r) =>
            r.userId === setup.adminUserId &&
            r.path === '/api/v3/tickets' &&
            Number(r.query.offset ?? 0) === 0 &&
            r.at >= burstAt &&
            r.at <= windowEnd,
        )
        .map((r) => (r.at - burstAt) / 1000),
      rateLimited: postAttempts - slack.all.filter((c) => c.method === 'chat.postMessage').length,
      webhooks: `${webhookLog.length} delivered to the bot, ${hooksFailed} not accepted`,
      samples,
      ...(spec.people
        ? {
            asks: asks.sort((a, b) => a.sentAt - b.sentAt),
            peopleRequests: requestList(
              requests.filter(
                (r) => r.userId === setup.adminUserId && r.at >= firstAskAt - 10_000 && r.at <= windowEnd,
              ),
              burstAt,
              windowOpeners(requests, setup.adminUserId),
            ),
          }
        : {}),
      problems,
      dir,
    };
  } finally {
    for (const p of [...procs].reverse()) await stopProc(p, 20_000);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** Line 7: the burst's context, then each person's wait and the target. */
function reportPeople(r: BurstResult): string[] {
  const asks = r.asks ?? [];
  const waits = asks.map(waitOf);
  const answered = waits.filter(Number.isFinite);
  const told = asks.map(toldOf).filter(Number.isFinite);
  const reads = asks.flatMap((a) => (a.readAt === undefined ? [] : [a.readAt - a.sentAt]));
  const max = worst(waits);
  const n = r.spec.burst ?? 100;
  // The people's demand: the most requests sent within one minute.
  const demand = Math.max(
    0,
    ...asks.map((a) => asks.filter((b) => b.sentAt >= a.sentAt && b.sentAt < a.sentAt + windowMs).length),
  );
  const first8 = worst(asks.slice(0, 8).map(waitOf));
  const out = [
    `Line ${r.spec.n} · people during a burst · ${n} new tickets in a followed group over ${secs(r.spec.minutes * 60_000)} (webhooks), ${asks.length} people's requests one every ${secs(peopleEveryMs, 0)} from +${peopleFromMs / 1000} s (show and watch in turn, in a channel of their own)`,
    `  cards meanwhile: ${r.cardAt.size}/${n} posted by the end (${r.created.length} created) · platform (the bot's token, burst → last answer): ${r.botRequests} requests (${r.kinds || 'none'})`,
    `  people: wait p50 ${secs(pct(answered, 50))} max ${secsOr(max)} (${answered.length}/${asks.length} answered) · first told p50 ${secs(pct(told, 50))} max ${secsOr(worst(told))} · platform read after p50 ${secs(pct(reads, 50))} max ${secs(worst(reads))}`,
    ...asks.map((a) => `  person ${quickLine(a)}`),
    `  the bot's requests from 10 s before the first person's (from the burst's start): ${r.peopleRequests || 'none'}`,
    `  targets: ${mark(answered.length === asks.length && max <= 10_000)} every answer within 10 s (max ${secsOr(max)}) with people's demand at ${demand} in a minute${demand > 8 ? ` (above the 8 the target names; the first 8, 8 in a minute: max ${secsOr(first8)})` : ''}`,
    `  row: ${row([
      `${r.spec.n} people during a burst (${asks.length} in ${secs(Math.max(0, asks.length - 1) * peopleEveryMs, 0)})`,
      `${answered.length}/${asks.length}`,
      `p50 ${secs(pct(answered, 50))} / max ${secsOr(max)}`,
      `told max ${secsOr(worst(told))}`,
      `read max ${secs(worst(reads))}`,
    ])}`,
  ];
  for (const p of r.problems) out.push(`  problem: ${p}`);
  if (keep) out.push(`  kept: ${r.dir} (bot.log, sim.log, slack.log, data/, records.json)`);
  return out;
}

function reportBurst(r: BurstResult): string[] {
  const n = r.spec.burst ?? 100;
  const createdAt = new Map(r.created.map((t) => [t.id, t.at]));
  const delays = r.created.flatMap((t) => {
    const at = r.cardAt.get(t.id);
    return at === undefined ? [] : [at - t.at];
  });
  const posted = r.cardAt.size;
  const byMark = burstMarks
    .filter((m) => m * 60_000 <= burstCapMs)
    .map((m) => {
      const k = [...r.cardAt.values()].filter((at) => at - r.burstAt <= m * 60_000).length;
      return `${m} min ${k}/${n}`;
    });
  // A sample with a card due: a ticket created long enough before it whose card came after it.
  const due = (s: ReadySample) =>
    r.created.filter((t) => t.at <= s.at - readyzLagMs && (r.cardAt.get(t.id) ?? Infinity) > s.at).length;
  const withDue = r.samples.filter((s) => due(s) > 0);
  const wrong = withDue.filter((s) => sayingNothingWaits.test(s.sentence));
  const firstSeen = new Map<string, number>();
  for (const s of r.samples) if (!firstSeen.has(s.sentence)) firstSeen.set(s.sentence, s.at);
  const p95 = pct(delays, 95);
  const allPosted = posted === n && r.created.length === n;
  const out = [
    `Line ${r.spec.n} · webhooks · a burst of ${n} new tickets in a followed group over ${secs(r.spec.minutes * 60_000)} · one channel`,
    `  cards: posted ${posted}/${n} (${r.created.length} created) · after ${byMark.join(' · ')} · delay from creation p50 ${secs(pct(delays, 50))} p95 ${secs(p95)} max ${secs(delays.length ? Math.max(...delays) : Number.NaN)} · posted twice ${r.duplicates.length}`,
    `  platform (the bot's token, burst → ${allPosted ? 'last card' : 'cap'}): ${r.botRequests} requests = ${posted ? (r.botRequests / posted).toFixed(2) : '—'} per card (${r.kinds || 'none'})`,
    `  Slack: chat.postMessage 429s ${r.rateLimited} · webhooks ${r.webhooks}`,
    `  /readyz 'ticket events', every ${readyzEveryMs / 1000} s (${r.samples.length} samples, ${withDue.length} with cards due), first seen:`,
    ...[...firstSeen].map(([sentence, at]) => `    +${((at - r.burstAt) / 1000).toFixed(0)} s: ${sentence}`),
    `  targets: ${mark(allPosted)} every card posted (${posted}/${n}) · ${mark(allPosted && p95 <= 180_000)} p95 ${secs(p95)} (≤ 3.0 min) · ${mark(wrong.length === 0 && withDue.length > 0)} the sentence never says "no change waiting" nor "already current" while cards are due (${wrong.length} of ${withDue.length} samples did)`,
  ];
  for (const p of r.problems) out.push(`  problem: ${p}`);
  if (debug) {
    out.push(
      `    scans (first pages) at ${r.scans.map((s) => `+${s.toFixed(0)} s`).join(', ') || 'none'} after the burst's start`,
    );
    const perHalfMinute = new Map<number, number>();
    for (const at of r.cardAt.values()) {
      const b = Math.floor((at - r.burstAt) / 30_000);
      perHalfMinute.set(b, (perHalfMinute.get(b) ?? 0) + 1);
    }
    out.push(
      `    cards per 30 s from the burst's start: ${[...perHalfMinute]
        .sort(([a], [b]) => a - b)
        .map(([b, k]) => `+${b * 30} s ${k}`)
        .join(', ')}`,
    );
    for (const s of wrong)
      out.push(
        `    wrong sentence at +${((s.at - r.burstAt) / 1000).toFixed(0)} s with ${due(s)} cards due: ${s.sentence}`,
      );
    for (const t of r.created.filter((x) => !r.cardAt.has(x.id)).slice(0, 10))
      out.push(`    no card: ticket ${t.id}, created +${((t.at - r.burstAt) / 1000).toFixed(1)} s`);
    for (const [id, d] of r.created
      .flatMap((t) => (r.cardAt.has(t.id) ? [[t.id, (r.cardAt.get(t.id) as number) - t.at] as const] : []))
      .sort(([, a], [, b]) => b - a)
      .slice(0, 5))
      out.push(
        `    slowest: ticket ${id} (created +${(((createdAt.get(id) as number) - r.burstAt) / 1000).toFixed(1)} s) after ${secs(d)}`,
      );
    for (const d of r.duplicates) out.push(`    posted twice: ${d}`);
  }
  if (keep) out.push(`  kept: ${r.dir} (bot.log, sim.log, slack.log, data/, records.json)`);
  return out;
}

// ---------- lines 6 and 7: a person's wait after a start, and during a burst ----------

/** Line 6: seconds after the second process is ready at which a person's show is sent. */
const startOffsetsS = (process.env.REALTIME_START_OFFSETS_S ?? '5,20,40').split(',').map(Number);
/** Line 6: the platform requests the first process makes in the current minute before it is stopped. */
const previousUsed = Number(process.env.REALTIME_PREVIOUS ?? 8);
/** Line 6: which headers the simulator sends (both variants by default). */
const startHeaders = (process.env.REALTIME_START_HEADERS ?? 'remaining,reset')
  .split(',')
  .map((s) => s.trim()) as ('remaining' | 'reset')[];
/** Line 7: the people's requests, one every REALTIME_PEOPLE_EVERY_S seconds from 10 s after the burst's start. */
const peopleAsks = Number(process.env.REALTIME_PEOPLE_ASKS ?? 10);
const peopleEveryMs = Number(process.env.REALTIME_PEOPLE_EVERY_S ?? 6) * 1000;
const peopleFromMs = 10_000;
/** The platform's window, as the simulator keeps it. */
const windowMs = 60_000;

/** A person's `/ticket show` or `watch` on lines 6 and 7, and what the double recorded for it. */
interface QuickAsk {
  /** Line 6: "+5 s" after the second process was ready; line 7: "#3 at +22 s" of the burst. */
  label: string;
  verb: 'show' | 'watch';
  ticketId: string;
  channel: string;
  responsePath: string;
  sentAt: number;
  /** The bot's platform requests counted in the platform's window when it was sent (both processes). */
  usedBefore?: number;
  ackStatus?: number;
  ackMs?: number;
  /** The ack's own text, which Slack shows the person at once (a "Working…", a wait notice). */
  ackText?: string;
  /** The data: the ticket's card posted in the channel (or a link to the card it has). */
  doneAt?: number;
  /** The first thing the person got: a private answer (a "Working…", a wait notice) or the card. */
  toldAt?: number;
  told?: string;
  /** The bot's platform read of the ticket for it. */
  readAt?: number;
}

/** Sends `a` (its response_url made by the double), signed, to the bot; records the ack. */
async function sendQuick(
  slackControl: string,
  botUrl: string,
  secret: string,
  a: Omit<QuickAsk, 'responsePath' | 'sentAt'>,
): Promise<QuickAsk> {
  const { url } = await postJson<{ url: string }>(`${slackControl}/response-url`, {
    channel: a.channel,
    user: person,
    command: true,
  });
  const body = ticketCommand({
    channel: a.channel,
    user: person,
    text: `${a.verb} ${a.ticketId}`,
    responseUrl: url,
  });
  const q: QuickAsk = { ...a, responsePath: new URL(url).pathname, sentAt: Date.now() };
  try {
    const ack = await signedSlack(botUrl, secret, body);
    q.ackStatus = ack.status;
    const text = ackTextOf(ack.text);
    if (text) q.ackText = text;
  } catch (error) {
    q.ackStatus = 0;
    q.told = `request failed: ${(error as Error).message}`;
  }
  q.ackMs = Date.now() - q.sentAt;
  return q;
}

type Responses = { path: string; at: number; body: Record<string, unknown> }[];

/** The text of an ack's JSON body (`{"text": …}`), if it has one. */
function ackTextOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === 'string' ? parsed.text : undefined;
  } catch {
    return undefined;
  }
}

/** Settles what the double recorded for each ask: the data (card or link), the first thing told. */
function settleQuick(asks: QuickAsk[], calls: SlackRecord[], responses: Responses): void {
  for (const a of asks) {
    const card = calls.find(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.ok &&
        c.channel === a.channel &&
        !c.threadTs &&
        c.card === a.ticketId &&
        c.at >= a.sentAt,
    );
    // What a person reads: not the deletion of the command's "Working…" (no text).
    const mine = responses.filter(
      (r) => r.path === a.responsePath && r.at >= a.sentAt && !r.body.delete_original && r.body.text,
    );
    const link = mine.find((r) => /is already in this channel/.test(String(r.body.text)));
    const done = [card?.at, link?.at].filter((x): x is number => x !== undefined);
    if (done.length) a.doneAt = Math.min(...done);
    const first = mine[0];
    // An ack that says when the answer will come tells the person at once (Slack shows it).
    if (a.ackText && /about \d+ (s|min)/.test(a.ackText) && a.ackMs !== undefined) {
      a.toldAt = a.sentAt + a.ackMs;
      a.told = a.ackText.slice(0, 100);
    } else if (first && (card === undefined || first.at <= card.at)) {
      a.toldAt = first.at;
      a.told = String(first.body.text ?? '').slice(0, 100);
    } else if (card) {
      a.toldAt = card.at;
      a.told = 'the card';
    }
  }
}

/** The bot's platform read of each ask's ticket, from the simulator's log. */
function readsOf(asks: QuickAsk[], requests: SimRequest[], userId: number): void {
  for (const a of asks) {
    const read = requests.find(
      (r) =>
        r.userId === userId &&
        r.path === `/api/v3/tickets/${a.ticketId}` &&
        r.status !== 429 &&
        r.at >= a.sentAt &&
        r.at <= (a.doneAt ?? a.sentAt + askCapMs),
    );
    if (read) a.readAt = read.at;
  }
}

/**
 * The bot's requests counted in the platform's window at `at`: the simulator's fixed one-minute
 * window per user (src/sim/http.ts), opened by the first request after the last one ended; a refused
 * request (429) is not counted. Replayed from the simulator's log.
 */
function usedIn(requests: SimRequest[], userId: number, at: number): number {
  let start = Number.NEGATIVE_INFINITY;
  let count = 0;
  for (const r of requests) {
    if (r.userId !== userId || r.at > at) continue;
    if (r.at - start >= windowMs) {
      start = r.at;
      count = 0;
    }
    if (r.status !== 429) count++;
  }
  return at - start < windowMs ? count : 0;
}

/** The requests that opened a window of the platform's (as `usedIn` replays them). */
function windowOpeners(requests: SimRequest[], userId: number): Set<SimRequest> {
  const out = new Set<SimRequest>();
  let start = Number.NEGATIVE_INFINITY;
  for (const r of requests)
    if (r.userId === userId && r.at - start >= windowMs) {
      start = r.at;
      out.add(r);
    }
  return out;
}

/** Requests as `+0.3 s GET users/me 200`, from `t0`; `‖` before one that opened a window. */
const requestList = (rs: SimRequest[], t0: number, openers: Set<SimRequest> = new Set()) =>
  rs
    .map(
      (r) =>
        `${openers.has(r) ? '‖ ' : ''}${r.at >= t0 ? '+' : ''}${((r.at - t0) / 1000).toFixed(1)} s ${r.method} ${r.path.replace('/api/v3/', '')}${
          Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ''
        } ${r.status}`,
    )
    .join(', ');

/** One ask's figures: told, data, the platform read. */
const quickLine = (a: QuickAsk) =>
  `${a.label} (${a.verb} ${a.ticketId}${a.usedBefore !== undefined ? `, ${a.usedBefore}/10 of the platform's window used when sent` : ''}): told after ${
    a.toldAt === undefined ? 'nothing' : `${secs(a.toldAt - a.sentAt)} (${a.told})`
  } · data after ${a.doneAt === undefined ? `not within ${secs(askCapMs)}` : secs(a.doneAt - a.sentAt)} · platform read after ${
    a.readAt === undefined ? '—' : secs(a.readAt - a.sentAt)
  } · ack ${a.ackStatus} in ${a.ackMs} ms`;

const waitOf = (a: QuickAsk) => (a.doneAt === undefined ? Number.POSITIVE_INFINITY : a.doneAt - a.sentAt);
const toldOf = (a: QuickAsk) => (a.toldAt === undefined ? Number.POSITIVE_INFINITY : a.toldAt - a.sentAt);
const worst = (xs: number[]) => (xs.length ? Math.max(...xs) : Number.NaN);
const secsOr = (ms: number) => (Number.isFinite(ms) ? secs(ms) : Number.isNaN(ms) ? '—' : 'never');

interface StartResult {
  spec: LineSpec;
  onlyReset: boolean;
  /** The first process: its requests in the minute when stopped, how long the stop took. */
  usedAtStop: number;
  firstRanMs: number;
  stopMs: number;
  /** The second process: from its spawn to listening; the window's use then. */
  readyMs: number;
  usedAtReady: number;
  asks: QuickAsk[];
  firstRequests: string;
  secondRequests: string;
  problems: string[];
  dir: string;
}

/**
 * Line 6: a first bot process on the watched desk (one channel, webhooks) until it has made
 * REALTIME_PREVIOUS platform requests in the current minute, then SIGTERM and, once it has gone, a
 * second process on the same store with the same environment; a person's show at each offset after
 * the second is ready (listening), in one run.
 */
async function runStartLine(spec: LineSpec, onlyReset: boolean): Promise<StartResult> {
  const dir = mkdtempSync(
    join(tmpdir(), `confdesk-realtime-${spec.n}-${onlyReset ? 'reset' : 'remaining'}-`),
  );
  const procs: Proc[] = [];
  const problems: string[] = [];
  const channel = 'CRT1';
  try {
    const { simAt, slackAt, setup } = await startBackends(procs, dir, {
      simEnv: {
        REALTIME_TICKETS: String(ticketCount),
        REALTIME_AGENTS: String(agentCount),
        ...(onlyReset ? { REALTIME_ONLY_RESET_HEADER: '1' } : {}),
      },
    });
    const dataDir = join(dir, 'data');
    await watchEveryTicket({
      slackControl: slackAt.control,
      dataDir,
      tickets: setup.tickets,
      channelOf: () => channel,
      cardAgeS,
      person,
    });
    const sim = new SimRequests(simAt.control);
    const used = (at: number) => usedIn(sim.all, setup.adminUserId, at);
    const userId = setup.adminUserId;

    // ---- the first process, until it has used REALTIME_PREVIOUS of the window; then SIGTERM ----
    const firstAt = Date.now();
    const first = await startDeskBot(procs, dir, dataDir, setup, slackAt.api, true);
    const usedUntil = Date.now() + 120_000;
    while (Date.now() < usedUntil && alive(first.botProc)) {
      await sim.poll();
      if (used(Date.now()) >= previousUsed) break;
      await sleep(100);
    }
    const stopAt = Date.now();
    const usedAtStop = used(stopAt);
    if (usedAtStop < previousUsed)
      problems.push(`the first process made only ${usedAtStop} requests in a minute within 2 minutes`);
    await stopProc(first.botProc, 20_000);
    const stoppedAt = Date.now();
    if (first.botProc.child.exitCode !== 0)
      problems.push(
        `the first process exited with code ${first.botProc.child.exitCode} (signal ${first.botProc.child.signalCode})`,
      );

    // ---- the second process at once, on the same store and environment ----
    const secondAt = Date.now();
    const second = await startBot(procs, dir, {
      dataDir,
      setup,
      slackApi: slackAt.api,
      token: 'xoxb-realtime-bench',
      webhooks: true,
      env: { SHUTDOWN_TIMEOUT_S: '10' },
      signingSecret: first.signingSecret,
      webhookSecret: first.webhookSecret,
      log: 'bot2.log',
    });
    const readyAt = Date.now();
    await sim.poll();
    const usedAtReady = used(readyAt);

    // ---- the person's shows, one run: each a different ticket ----
    const pool = [...setup.tickets].sort(() => Math.random() - 0.5);
    const asks: QuickAsk[] = [];
    const sends = startOffsetsS.map(async (offsetS, i) => {
      await sleep(readyAt + offsetS * 1000 - Date.now());
      await sim.poll().catch(() => undefined);
      const usedBefore = used(Date.now());
      const a = await sendQuick(slackAt.control, second.botUrl, second.signingSecret, {
        label: `+${offsetS} s`,
        verb: 'show',
        ticketId: (pool[i] as { id: string }).id,
        channel,
        usedBefore,
      });
      asks.push(a);
    });
    const slack = new SlackCalls(slackAt.control);
    const lastSendAt = readyAt + Math.max(...startOffsetsS) * 1000;
    const capAt = lastSendAt + askCapMs;
    for (;;) {
      await sleep(500);
      await slack.poll();
      settleQuick(asks, slack.all, await getJson<Responses>(`${slackAt.control}/responses`));
      const settled = asks.length === startOffsetsS.length && asks.every((a) => a.doneAt !== undefined);
      if (settled || Date.now() > capAt || !alive(second.botProc)) break;
    }
    await Promise.all(sends);
    // A late private answer (a wait notice sent after the card) would not change the figures.
    if (!alive(second.botProc))
      problems.push(`the second process exited during the run:\n${second.botProc.output().slice(-3000)}`);

    await stopProc(second.botProc, 20_000);
    await sim.poll();
    await slack.poll();
    settleQuick(asks, slack.all, await getJson<Responses>(`${slackAt.control}/responses`));
    readsOf(asks, sim.all, userId);
    for (const a of asks) a.usedBefore = used(a.sentAt);
    const mine = sim.all.filter((r) => r.userId === userId);
    const openers = windowOpeners(sim.all, userId);
    if (keep)
      writeFileSync(
        join(dir, 'records.json'),
        JSON.stringify({
          setup,
          firstAt,
          stopAt,
          stoppedAt,
          secondAt,
          readyAt,
          requests: sim.all,
          asks,
          calls: slack.all,
          responses: await getJson<Responses>(`${slackAt.control}/responses`),
        }),
      );
    return {
      spec,
      onlyReset,
      usedAtStop,
      firstRanMs: stopAt - firstAt,
      stopMs: stoppedAt - stopAt,
      readyMs: readyAt - secondAt,
      usedAtReady,
      asks: asks.sort((a, b) => a.sentAt - b.sentAt),
      firstRequests: requestList(
        mine.filter((r) => r.at >= firstAt && r.at <= stoppedAt),
        firstAt,
        openers,
      ),
      secondRequests: requestList(
        mine.filter((r) => r.at >= secondAt && r.at <= Math.max(readyAt, ...asks.map((a) => a.doneAt ?? 0))),
        secondAt,
        openers,
      ),
      problems,
      dir,
    };
  } finally {
    for (const p of [...procs].reverse()) await stopProc(p, 20_000);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** A line's figures as a row of docs/benchmarks.md's table. */
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

function reportStart(r: StartResult): string[] {
  const variant = r.onlyReset ? 'only X-RateLimit-Reset' : 'X-RateLimit-Remaining';
  const full = r.asks.filter((a) => (a.usedBefore ?? 0) >= 10);
  const dataMax = worst(r.asks.map(waitOf));
  const toldFullMax = worst(full.map(toldOf));
  const out = [
    `Line ${r.spec.n} · the minute after a start · the simulator sends ${variant} · ${ticketCount} watched tickets, one channel, webhooks`,
    `  first process: stopped (SIGTERM) ${secs(r.firstRanMs)} after its spawn with ${r.usedAtStop}/10 of the window used; gone ${secs(r.stopMs)} later`,
    `  second process: listening ${secs(r.readyMs)} after its spawn (at once after the first had gone); ${r.usedAtReady}/10 of the platform's window used then`,
    ...r.asks.map((a) => `  person ${quickLine(a)}`),
    `  the first process's requests (from its spawn; ‖ opens a platform window): ${r.firstRequests || 'none'}`,
    `  the second's requests until the last answer (from its spawn): ${r.secondRequests || 'none'}`,
    `  targets: ${mark(dataMax <= 2_000)} data within 2 s after a process that used ${previousUsed} of 10 (max ${secsOr(dataMax)}) · ${
      full.length
        ? `${mark(toldFullMax <= 2_000)} told within 2 s when the window was full (${full.length} asks, max ${secsOr(toldFullMax)})`
        : 'no ask met a full window (10 of 10): told within 2 s not measured'
    }`,
    `  row: ${row([
      `${r.spec.n} after a start (${r.usedAtStop}/10 used), ${variant}`,
      ...r.asks.map(
        (a) =>
          `${a.label}: ${a.usedBefore}/10, told ${secsOr(toldOf(a))}, data ${secsOr(waitOf(a))}, read ${a.readAt === undefined ? '—' : secs(a.readAt - a.sentAt)}`,
      ),
    ])}`,
  ];
  for (const p of r.problems) out.push(`  problem: ${p}`);
  if (keep) out.push(`  kept: ${r.dir} (bot.log, bot2.log, sim.log, slack.log, data/, records.json)`);
  return out;
}

async function main(): Promise<void> {
  console.log(
    `Real-time desk (issue 28): bot, platform simulator (10 requests a minute per user) and Slack double (1 post a second per channel) in their own processes; speed 1; a person's /ticket show and Refresh every ${personEveryMs / 1000} s each; the cards ${cardAgeS / 60} min old`,
  );
  // Line 6 runs once per header variant, each a fresh set of processes.
  const runs = lines.flatMap((spec) =>
    spec.start ? startHeaders.map((h) => ({ spec, onlyReset: h === 'reset' })) : [{ spec, onlyReset: false }],
  );
  for (const { spec, onlyReset } of runs) {
    const started = Date.now();
    let out: string[];
    try {
      out = spec.start
        ? reportStart(await runStartLine(spec, onlyReset))
        : spec.people
          ? reportPeople(await runBurstLine(spec))
          : spec.burst
            ? reportBurst(await runBurstLine(spec))
            : report(await runLine(spec));
    } catch (error) {
      console.log(`Line ${spec.n}: could not run: ${(error as Error).stack ?? String(error)}`);
      continue;
    }
    for (const l of out) console.log(l);
    console.log(`  (line took ${secs(Date.now() - started)})`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
