import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { escapes } from './last-resort.js';

/*
 * The bot's Prometheus metrics, in a registry of their own (never prom-client's global
 * one: tests and several instances in one process would collide there). Each confdesk instance
 * reports through `metrics.workspace(teamId)`, which puts its Slack team id on every series as the
 * `workspace` label. Counters and histograms move as things happen; gauges that describe the store,
 * the rate budget or Slack's view of the token are read at scrape time from cheap in-process state
 * and one grouped store query per instance — a scrape never sends anything to the platform or Slack.
 */

/** The Slack surface a request came from (the `surface` label). */
export type SlackSurface = 'command' | 'action' | 'view' | 'shortcut' | 'event' | 'options';

/** The platform client's lanes (`platform/lane.ts`), repeated here: this floor imports nothing above it. */
export type MetricsLane = 'interactive' | 'background' | 'backfill';

/** How one platform request attempt ended (the `outcome` label). */
export type PlatformOutcome = 'ok' | '429' | '4xx' | '5xx' | 'timeout' | 'connection' | 'aborted';

/** What delivery did with one outbox item (the `outcome` label). */
export type DeliveryOutcome = 'delivered' | 'retry' | 'parked' | 'dead';

/** How a platform webhook delivery was answered (the `outcome` label). */
export type WebhookOutcome = 'accepted' | 'unauthorized' | 'invalid' | 'not_kept';

/** How a digest run ended: posted complete, posted with figures missing (tried again), or not posted. */
export type DigestOutcome = 'sent' | 'partial' | 'failed';

/** The outbox states that still wait for something (delivered items are history, not depth). */
export const waitingStates = ['pending', 'unknown', 'parked', 'dead'] as const;
export type WaitingState = (typeof waitingStates)[number];

/** The outbox's depth by state: how many items, and when the oldest of them was written. */
export type OutboxDepth = Record<WaitingState, { items: number; oldestAt: Date | undefined }>;

/** What an instance lets the scrape read (each optional): all in process or one grouped store query. */
export interface MetricsSources {
  /** The store's outbox by state (`Store.outboxDepth`). */
  outbox?: () => Promise<OutboxDepth>;
  /** The platform's rate budget: requests counted in the window now, the window's limit, queued requests. */
  budget?: {
    readonly perWindow: number;
    readonly used: number;
    readonly queued: Record<MetricsLane, number>;
    estimateWaitMs(lane: MetricsLane): number;
  };
  /** Whether Slack refuses the bot's token now (`SlackAccess.problem`). */
  tokenRefused?: () => boolean;
}

/** Distribution mode's workspaces as a scrape reads them: counts by state, and the failed ones. */
export type WorkspacesSource = () => {
  states: Record<string, number>;
  failed: { workspace: string; reason: string }[];
  /** The workspaces whose background jobs run on this replica (its share of them). */
  jobsHere: number;
};

/** What one confdesk instance reports; every call is a few map lookups, cheap on the ack path. */
export interface WorkspaceMetrics {
  /** A Slack request was acked `seconds` after Bolt received it. */
  ack(surface: SlackSurface, seconds: number): void;
  /** One platform request attempt ended (each attempt spends the budget). */
  platformRequest(lane: MetricsLane, outcome: PlatformOutcome, seconds: number): void;
  /** A platform request waited this long for the rate budget before it was sent. */
  budgetWait(lane: MetricsLane, seconds: number): void;
  /** A 429 (or Slack's `ratelimited`) came back from the platform or Slack. */
  rateLimited(side: 'platform' | 'slack'): void;
  /** A platform answer of `operation` was not the shape expected: its person was told the team knows. */
  platformNotUnderstood(operation: string): void;
  /** Delivery settled an outbox item. */
  delivery(outcome: DeliveryOutcome): void;
  /** Delivery found the message already in Slack (the ledger, or a card a person posted): not posted again. */
  duplicateAvoided(): void;
  /** The poller finished a change scan. */
  scan(seconds: number, ok: boolean): void;
  /** A platform webhook delivery was answered. */
  webhook(outcome: WebhookOutcome): void;
  /** A digest run ended. */
  digestRun(outcome: DigestOutcome): void;
  /** Lets the scrape read the instance's store, budget and token state (again: replaces). */
  watch(sources: MetricsSources): void;
  /** The instance stopped: its gauges leave the scrape (counters stay, as Prometheus expects). */
  close(): void;
}

const ackBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];
const requestBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const waitBuckets = [0, 0.1, 0.5, 1, 3, 6, 15, 30, 60, 120, 300];
const scanBuckets = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];

/** An outbox query answered within this long is reused by the other gauges of the same scrape. */
const snapshotMs = 1_000;

let processMetrics: Registry | undefined;

/**
 * The process's own metrics, prom-client's defaults (`process_…`: resident memory, CPU, open file
 * descriptors, start time; `nodejs_…`: heap, event-loop lag, GC, active handles): made once per
 * process, however many `Metrics` show them (distribution mode has one, a test process has many).
 * Each default starts a monitor of its own (an event-loop delay histogram, a GC observer), and one
 * registry given them twice throws on the duplicate names: every registry shows these same objects.
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/** prom-client's defaults that are gauges with a counter's `_total` suffix: not served (see below). */
const gaugesNamedLikeCounters = new Set([
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]);

/** The registry, every `confdesk_…` metric and the process's; create one per process (or per test). */
export class Metrics {
  readonly registry = new Registry();
  private readonly sources = new Map<string, MetricsSources>();
  private readonly snapshots = new Map<string, { at: number; depth: Promise<OutboxDepth | undefined> }>();
  private workspacesSource: WorkspacesSource | undefined;

  private readonly acks = this.histogram(
    'confdesk_slack_ack_duration_seconds',
    'Time from Bolt receiving a Slack request to its ack, by surface (Slack allows 3 s)',
    ['workspace', 'surface'],
    ackBuckets,
  );
  private readonly requests = new Counter({
    name: 'confdesk_platform_requests_total',
    help: 'Platform request attempts by lane and outcome (ok, 429, 4xx, 5xx, timeout, connection, aborted); each spends the rate budget',
    labelNames: ['workspace', 'lane', 'outcome'],
    registers: [this.registry],
  });
  private readonly requestSeconds = this.histogram(
    'confdesk_platform_request_duration_seconds',
    'Platform request attempts: time from sending to the answer headers, by lane',
    ['workspace', 'lane'],
    requestBuckets,
  );
  private readonly waits = this.histogram(
    'confdesk_platform_budget_wait_seconds',
    'Time a platform request waited in the rate budget queue before it was sent, by lane',
    ['workspace', 'lane'],
    waitBuckets,
  );
  private readonly limited = new Counter({
    name: 'confdesk_rate_limited_total',
    help: '429s (and Slack ratelimited answers) received, by side: platform or slack',
    labelNames: ['workspace', 'side'],
    registers: [this.registry],
  });
  private readonly notUnderstood = new Counter({
    name: 'confdesk_platform_answers_not_understood_total',
    help: 'Platform answers (2xx) not of the shape confdesk expects, by operation: the person was told the team has been told; the log has a warning with the field',
    labelNames: ['workspace', 'operation'],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'confdesk_outbox_deliveries_total',
    help: 'Outbox items settled by delivery, by outcome: delivered, retry (429, unknown outcome), parked (channel refuses the bot), dead (Slack refused it for good)',
    labelNames: ['workspace', 'outcome'],
    registers: [this.registry],
  });
  private readonly duplicates = new Counter({
    name: 'confdesk_outbox_duplicates_avoided_total',
    help: 'Outbox items found already posted in Slack (the ledger after an unknown outcome, or a card posted meanwhile): not posted twice',
    labelNames: ['workspace'],
    registers: [this.registry],
  });
  private readonly scans = this.histogram(
    'confdesk_poller_scan_duration_seconds',
    'Duration of the poller change scans, by outcome (ok, error)',
    ['workspace', 'outcome'],
    scanBuckets,
  );
  private readonly webhooks = new Counter({
    name: 'confdesk_webhook_deliveries_total',
    help: 'Platform webhook deliveries by answer: accepted (202), unauthorized (401), invalid (400), not_kept (500)',
    labelNames: ['workspace', 'outcome'],
    registers: [this.registry],
  });
  private readonly digests = new Counter({
    name: 'confdesk_digest_runs_total',
    help: 'Daily digest runs by outcome: sent, partial (posted with figures missing, tried again), failed (not posted)',
    labelNames: ['workspace', 'outcome'],
    registers: [this.registry],
  });

  constructor() {
    const lanes = ['interactive', 'background', 'backfill'] as const;
    // Distribution mode's (`workspaces()`); absent from the scrape otherwise.
    const source = () => this.workspacesSource?.();
    new Gauge({
      name: 'confdesk_workspaces',
      help: 'Installed workspaces by state: running, starting, failed (named in confdesk_workspace_failed), not_set_up (waiting for their platform settings)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [state, count] of Object.entries(source()?.states ?? {})) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'confdesk_workspace_failed',
      help: '1 for each workspace that is not working, by reason: start (its store or jobs did not start; retried with backoff) or settings (its saved settings do not work)',
      labelNames: ['workspace', 'reason'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { workspace, reason } of source()?.failed ?? []) this.set({ workspace, reason }, 1);
      },
    });
    new Gauge({
      name: 'confdesk_workspaces_jobs_here',
      help: 'Workspaces whose background jobs (poll, read, deliver, digest) run on this replica: its share of them',
      registers: [this.registry],
      collect() {
        const here = source()?.jobsHere;
        if (here !== undefined) this.set(here);
      },
    });
    // The process's, not a workspace's: read from the last resort at scrape time.
    new Counter({
      name: 'confdesk_escaped_errors_total',
      help: 'Errors no handler caught, by kind: uncaughtException (confdesk then stops for its supervisor to restart it) or unhandledRejection (it stays up); 0 expected',
      labelNames: ['kind'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, count] of Object.entries(escapes)) this.inc({ kind }, count);
      },
    });
    this.sampled(
      'confdesk_outbox_items',
      'Outbox items waiting, by state: pending, unknown (outcome being checked), parked (channel refuses the bot), dead (dead letters)',
      async (set, workspace, s) => {
        const depth = await this.depth(workspace, s);
        for (const state of waitingStates) if (depth) set({ state }, depth[state].items);
      },
    );
    this.sampled(
      'confdesk_outbox_oldest_age_seconds',
      'Age of the oldest outbox item in each state (0 when none)',
      async (set, workspace, s) => {
        const depth = await this.depth(workspace, s);
        const now = Date.now();
        for (const state of waitingStates) {
          const at = depth?.[state].oldestAt;
          if (depth) set({ state }, at ? Math.max(0, (now - at.getTime()) / 1000) : 0);
        }
      },
    );
    this.sampled(
      'confdesk_platform_budget_used',
      'Platform requests counted in the rate window now',
      (set, _, s) => {
        if (s.budget) set({}, s.budget.used);
      },
    );
    this.sampled(
      'confdesk_platform_budget_limit',
      'Platform requests allowed per rate window (PLATFORM_RATE_LIMIT)',
      (set, _, s) => {
        if (s.budget) set({}, s.budget.perWindow);
      },
    );
    this.sampled(
      'confdesk_platform_budget_queued',
      'Platform requests waiting for the rate budget now, by lane',
      (set, _, s) => {
        for (const lane of lanes) if (s.budget) set({ lane }, s.budget.queued[lane]);
      },
    );
    this.sampled(
      'confdesk_platform_budget_wait_estimate_seconds',
      'How long a platform request asked now would wait for the rate budget, by lane',
      (set, _, s) => {
        for (const lane of lanes) if (s.budget) set({ lane }, s.budget.estimateWaitMs(lane) / 1000);
      },
    );
    this.sampled(
      'confdesk_slack_token_dead',
      '1 while Slack refuses the bot token (revoked, uninstalled…): ticket events and digests are paused',
      (set, _, s) => {
        if (s.tokenRefused) set({}, s.tokenRefused() ? 1 : 0);
      },
    );
    // Beside confdesk's own, under their usual names (no clash: those all start with confdesk_), so
    // the dashboards and alerts written for any Node service work unchanged.
    // Except prom-client's three gauges named like counters (`nodejs_active_handles_total`, …), which
    // `promtool check metrics` rejects: their per-type series (`nodejs_active_handles{type}`) stay,
    // and sum to the same value.
    const shared = processRegistry();
    for (const { name } of shared.getMetricsAsArray()) {
      if (gaugesNamedLikeCounters.has(name)) continue;
      const metric = shared.getSingleMetric(name);
      if (metric) this.registry.registerMetric(metric);
    }
  }

  /** The instance serving Slack team `workspace` (its id; '' when there is only one). */
  workspace(workspace: string): WorkspaceMetrics {
    const w = { workspace };
    return {
      ack: (surface, seconds) => this.acks.observe({ workspace, surface }, seconds),
      platformRequest: (lane, outcome, seconds) => {
        this.requests.inc({ workspace, lane, outcome });
        this.requestSeconds.observe({ workspace, lane }, seconds);
      },
      budgetWait: (lane, seconds) => this.waits.observe({ workspace, lane }, seconds),
      rateLimited: (side) => this.limited.inc({ workspace, side }),
      platformNotUnderstood: (operation) => this.notUnderstood.inc({ workspace, operation }),
      delivery: (outcome) => this.deliveries.inc({ workspace, outcome }),
      duplicateAvoided: () => this.duplicates.inc(w),
      scan: (seconds, ok) => this.scans.observe({ workspace, outcome: ok ? 'ok' : 'error' }, seconds),
      webhook: (outcome) => this.webhooks.inc({ workspace, outcome }),
      digestRun: (outcome) => this.digests.inc({ workspace, outcome }),
      watch: (sources) => {
        this.sources.set(workspace, sources);
        this.snapshots.delete(workspace);
      },
      close: () => {
        this.sources.delete(workspace);
        this.snapshots.delete(workspace);
      },
    };
  }

  /**
   * Distribution mode's workspaces, read at each scrape: how many in each state (running, starting,
   * failed, not_set_up), and each failed one by name, with why (start: its store or jobs did not
   * start, retried with backoff; settings: its saved settings do not work, its admin saves new ones).
   */
  workspaces(read: WorkspacesSource): void {
    this.workspacesSource = read;
  }

  /** The Prometheus text exposition of every metric (what `GET /metrics` answers). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * The outbox depth of an instance, one query per scrape (both outbox gauges read it). A store that
   * does not answer leaves the gauges out for that instance rather than failing the whole scrape.
   */
  private depth(workspace: string, s: MetricsSources): Promise<OutboxDepth | undefined> {
    if (!s.outbox) return Promise.resolve(undefined);
    const kept = this.snapshots.get(workspace);
    if (kept && Date.now() - kept.at < snapshotMs) return kept.depth;
    const depth = s.outbox().catch(() => undefined);
    this.snapshots.set(workspace, { at: Date.now(), depth });
    return depth;
  }

  /**
   * A gauge read at scrape time: `read` sets each watched instance's values (its `workspace` label
   * added); instances no longer watched leave the output.
   */
  private sampled(
    name: string,
    help: string,
    read: (
      set: (labels: Record<string, string>, value: number) => void,
      workspace: string,
      s: MetricsSources,
    ) => Promise<void> | void,
  ): void {
    const sources = this.sources;
    new Gauge({
      name,
      help,
      // Every label a sampled gauge uses; prom-client checks them against this list.
      labelNames: ['workspace', 'state', 'lane'],
      registers: [this.registry],
      async collect() {
        this.reset();
        await Promise.all(
          [...sources].map(([workspace, s]) =>
            read((labels, value) => this.set({ workspace, ...labels }, value), workspace, s),
          ),
        );
      },
    });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: L[], buckets: number[]) {
    return new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}

/**
 * `GET /metrics` for a Bolt custom route: with a `token`, only `Authorization: Bearer <token>`
 * (compared in constant time) gets the metrics, anything else a 401; without one, anyone who reaches
 * the port does (METRICS=on, for a private network).
 */
export function metricsHandler(metrics: Metrics, token: string | undefined) {
  const expected = token === undefined ? undefined : Buffer.from(`Bearer ${token}`);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="confdesk"' })
          .end('unauthorized\n');
        return;
      }
    }
    metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  };
}
