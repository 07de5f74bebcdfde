import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Metrics, type OutboxDepth } from '../../src/observability/metrics.js';
import { RateBudget } from '../../src/platform/rate-budget.js';
import { openStore } from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

const backends = storeBackends('metrics store gauges');

describe.each(backends)('the outbox gauges, read from the store at scrape time ($name)', ({ options }) => {
  it('say how many items wait in each state and how old the oldest is', async () => {
    const written = new Date(Date.now() - 90_000);
    const store = await openStore({ ...options(), now: () => written });
    await store.advance([
      { ticketId: '1', eventId: 'a', channel: 'C1', payload: {} },
      { ticketId: '1', eventId: 'b', channel: 'C1', payload: {} },
      { ticketId: '2', eventId: 'c', channel: 'C2', payload: {} },
    ]);
    const [first] = await store.claim('w', 1, 60_000);
    await store.settle(first as NonNullable<typeof first>, { status: 'dead', reason: 'msg_too_long' });
    const metrics = new Metrics();
    metrics.workspace('T1').watch({ outbox: () => store.outboxDepth() });
    const text = await metrics.text();
    expect(text).toContain('confdesk_outbox_items{workspace="T1",state="pending"} 2');
    expect(text).toContain('confdesk_outbox_items{workspace="T1",state="dead"} 1');
    expect(text).toContain('confdesk_outbox_items{workspace="T1",state="parked"} 0');
    const age = Number(
      /confdesk_outbox_oldest_age_seconds\{workspace="T1",state="pending"\} (\S+)/.exec(text)?.[1],
    );
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);
    expect(text).toContain('confdesk_outbox_oldest_age_seconds{workspace="T1",state="unknown"} 0');
    await store.close();
  });
});

describe('the metrics of several instances in one process', () => {
  const depth = (pending: number): OutboxDepth => ({
    pending: { items: pending, oldestAt: new Date() },
    unknown: { items: 0, oldestAt: undefined },
    parked: { items: 0, oldestAt: undefined },
    dead: { items: 0, oldestAt: undefined },
  });

  it('label each with its workspace, ask each store once a scrape, and drop a stopped one’s gauges', async () => {
    const metrics = new Metrics();
    const asked = { T1: 0, T2: 0 };
    const t1 = metrics.workspace('T1');
    const t2 = metrics.workspace('T2');
    const budget = new RateBudget({ perWindow: 10 });
    t1.watch({
      outbox: async () => {
        asked.T1++;
        return depth(3);
      },
      budget,
      tokenRefused: () => true,
    });
    t2.watch({
      outbox: async () => {
        asked.T2++;
        return depth(5);
      },
      tokenRefused: () => false,
    });
    await budget.acquire('interactive');
    t1.platformRequest('interactive', 'ok', 0.2);
    t2.platformRequest('background', '429', 0.1);
    t2.delivery('dead');
    let text = await metrics.text();
    expect(asked).toEqual({ T1: 1, T2: 1 }); // two gauges, one query each
    expect(text).toContain('confdesk_outbox_items{workspace="T1",state="pending"} 3');
    expect(text).toContain('confdesk_outbox_items{workspace="T2",state="pending"} 5');
    expect(text).toContain('confdesk_slack_token_dead{workspace="T1"} 1');
    expect(text).toContain('confdesk_slack_token_dead{workspace="T2"} 0');
    expect(text).toContain('confdesk_platform_budget_used{workspace="T1"} 1');
    expect(text).toContain('confdesk_platform_budget_limit{workspace="T1"} 10');
    expect(text).not.toContain('confdesk_platform_budget_limit{workspace="T2"}');
    expect(text).toContain(
      'confdesk_platform_requests_total{workspace="T1",lane="interactive",outcome="ok"} 1',
    );
    expect(text).toContain(
      'confdesk_platform_requests_total{workspace="T2",lane="background",outcome="429"} 1',
    );
    expect(text).toContain('confdesk_outbox_deliveries_total{workspace="T2",outcome="dead"} 1');
    // T2 stops: its gauges leave, its counters stay (Prometheus counters never go back).
    t2.close();
    text = await metrics.text();
    expect(text).not.toContain('confdesk_outbox_items{workspace="T2"');
    expect(text).not.toContain('confdesk_slack_token_dead{workspace="T2"}');
    expect(text).toContain('confdesk_outbox_deliveries_total{workspace="T2",outcome="dead"} 1');
    expect(text).toContain('confdesk_outbox_items{workspace="T1",state="pending"} 3');
    budget.close();
  });

  it('leave out the outbox gauges of a store that does not answer, and serve the rest', async () => {
    const metrics = new Metrics();
    metrics.workspace('T1').watch({
      outbox: () => Promise.reject(new Error('connection refused')),
      tokenRefused: () => false,
    });
    const text = await metrics.text();
    expect(text).not.toContain('confdesk_outbox_items{');
    expect(text).toContain('confdesk_slack_token_dead{workspace="T1"} 0');
  });

  it('keep two registries apart (tests, several bots in one process)', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.workspace('T1').rateLimited('slack');
    expect(await a.text()).toContain('confdesk_rate_limited_total{workspace="T1",side="slack"} 1');
    expect(await b.text()).not.toContain('confdesk_rate_limited_total{');
  });

  it('show the process’s own metrics in each registry, collected once for the process (no duplicate registration)', async () => {
    const a = new Metrics();
    const b = new Metrics();
    // The same metric object in both: one event-loop monitor, one GC observer for the process.
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds'])
      expect(a.registry.getSingleMetric(name)).toBe(b.registry.getSingleMetric(name));
    const [ta, tb] = await Promise.all([a.text(), b.text()]);
    for (const text of [ta, tb]) {
      expect(text).toMatch(/^process_resident_memory_bytes [1-9]\d*$/m);
      expect(text).toMatch(/^nodejs_heap_size_used_bytes [1-9]\d*$/m);
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    }
    const started = (text: string) => /^process_start_time_seconds (\d+)$/m.exec(text)?.[1];
    expect(started(ta)).toBe(started(tb));
  });
});

describe('the documented metrics', () => {
  it('are the registry’s: every confdesk_… name in the README, docs/ and docs/alerts.yml exists, and docs/observability.md lists each', () => {
    // The process_… and nodejs_… ones are prom-client's defaults, documented by prom-client.
    const names = new Metrics().registry
      .getMetricsAsArray()
      .map((m) => m.name)
      .filter((name) => name.startsWith('confdesk_'));
    const page = readFileSync('docs/observability.md', 'utf8');
    // Not metrics: a message's metadata type, and the prefix of workspace schemas.
    const notMetrics = /^confdesk_(ticket_event|ws_)/;
    const mentioned = (text: string) =>
      [...text.matchAll(/confdesk_[a-z_]*[a-z]/g)]
        .map((m) => m[0].replace(/_(bucket|count|sum)$/, ''))
        .filter((name) => !notMetrics.test(name));
    const documents = ['README.md', ...readdirSync('docs').map((f) => `docs/${f}`)].filter((f) =>
      /\.(md|yml)$/.test(f),
    );
    for (const file of documents)
      for (const name of mentioned(readFileSync(file, 'utf8')))
        expect(names, `${file}: ${name}`).toContain(name);
    for (const name of names) expect(page, name).toContain(`\`${name}\``);
  });
});
