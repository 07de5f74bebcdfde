import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type BotFixture, startBot, useBot } from '../helpers/bot.js';

/*
 * The process's own metrics (prom-client's defaults) in a real bot's `GET /metrics`, with values that
 * match what Node says of this very process (the bot runs in it); two bots in one process; and
 * docs/alerts.yml checked against what a scrape really exports.
 */

/** The value of the series `name` with no labels, in a Prometheus text exposition. */
function value(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`no ${name} in the scrape`);
  return Number(m[1]);
}

/** Every metric family a scrape declares, with its type (`# TYPE name type`). */
const families = (text: string) =>
  new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]));

const scrapeOf = (url: string) => async () => {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};

describe('the process metrics of a real bot', () => {
  const f = {} as BotFixture;
  useBot(f, { metrics: {} });

  it('are served beside confdesk’s own, with sane values', async () => {
    const scrape = scrapeOf(f.url);
    const first = await scrape();
    expect(first).toContain('# TYPE confdesk_outbox_items gauge');
    // The event-loop lag is measured by the scrape itself (a setImmediate): the next one shows it.
    const text = await scrape();
    const rss = value(text, 'process_resident_memory_bytes');
    const ours = process.memoryUsage().rss;
    expect(rss).toBeGreaterThan(ours / 2);
    expect(rss).toBeLessThan(ours * 2);
    const heapUsed = value(text, 'nodejs_heap_size_used_bytes');
    expect(heapUsed).toBeGreaterThan(1024 * 1024);
    expect(heapUsed).toBeLessThanOrEqual(value(text, 'nodejs_heap_size_total_bytes'));
    const cpu = value(text, 'process_cpu_user_seconds_total');
    expect(cpu).toBeGreaterThan(0);
    expect(cpu).toBeGreaterThanOrEqual(value(first, 'process_cpu_user_seconds_total'));
    expect(cpu).toBeLessThanOrEqual(process.cpuUsage().user / 1e6);
    const lag = value(text, 'nodejs_eventloop_lag_seconds');
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThan(1);
    const p99 = value(text, 'nodejs_eventloop_lag_p99_seconds');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThan(1);
    const startedAt = Date.now() / 1000 - process.uptime();
    expect(Math.abs(value(text, 'process_start_time_seconds') - startedAt)).toBeLessThan(5);
    expect(families(text).get('nodejs_gc_duration_seconds')).toBe('histogram');
  });

  it('do not clash when a second bot with metrics starts in the same process', async () => {
    const other = await startBot({ metrics: {} });
    try {
      const [a, b] = await Promise.all([scrapeOf(f.url)(), scrapeOf(other.url)()]);
      // One set for the process: both answer the same start time, and each its own workspace.
      expect(value(b, 'process_start_time_seconds')).toBe(value(a, 'process_start_time_seconds'));
      expect(value(b, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(b).toContain(`confdesk_slack_token_dead{workspace="${other.slack.teamId}"} 0`);
    } finally {
      await other.close();
    }
  });
});

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description?: string };
}

/** PromQL's words that are not metric names. */
const keywords = new Set([
  ...['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan'],
  ...['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'],
]);

/** The metric names an expression reads: label matchers, ranges, groupings and functions left out. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((m) => m[1] as string)
    .filter((word) => !keywords.has(word.toLowerCase()));
}

describe('docs/alerts.yml', () => {
  const doc = parseYaml(readFileSync('docs/alerts.yml', 'utf8')) as { groups: { rules: Rule[] }[] };
  const rules = doc.groups.flatMap((g) => g.rules);

  it('is YAML of Prometheus rules: each named once, with an expression, a severity and a summary', () => {
    expect(rules.length).toBeGreaterThanOrEqual(11);
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
    for (const r of rules) {
      expect(r.alert, JSON.stringify(r)).toMatch(/^Confdesk[A-Z]\w+$/);
      expect(typeof r.expr, r.alert).toBe('string');
      expect(['info', 'warning', 'critical'], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      if (r.for !== undefined) expect(r.for, r.alert).toMatch(/^\d+[smh]$/);
    }
    for (const name of ['ConfdeskMemoryHigh', 'ConfdeskRestarting', 'ConfdeskEventLoopLag'])
      expect(rules.map((r) => r.alert)).toContain(name);
  });

  it('names only metrics a real bot’s /metrics exports', async () => {
    const bot = await startBot({ metrics: {} });
    try {
      const exported = families(await scrapeOf(bot.url)());
      for (const r of rules) {
        const names = metricsOf(r.expr);
        expect(names, `${r.alert} reads no metric: ${r.expr}`).not.toEqual([]);
        for (const name of names) {
          // A histogram's series are its family's name with _bucket, _sum or _count.
          const family = name.replace(/_(bucket|sum|count)$/, '');
          const known = exported.has(name) || (family !== name && exported.get(family) === 'histogram');
          expect(known, `${r.alert}: ${name} is not in /metrics`).toBe(true);
        }
      }
    } finally {
      await bot.close();
    }
  });

  // Prometheus's own checker, where it is installed (Debian's prometheus package ships it): the
  // expressions are valid PromQL. Without it, the checks above still run.
  const promtool = process.env.CONFDESK_PROMTOOL || 'promtool';
  const hasPromtool = (() => {
    try {
      execFileSync(promtool, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (!hasPromtool)
    console.warn(
      `docs/alerts.yml: promtool check rules SKIPPED: no ${promtool} (it comes with Debian's prometheus package; or set CONFDESK_PROMTOOL).`,
    );
  it.runIf(hasPromtool)('passes promtool check rules', () => {
    const out = execFileSync(promtool, ['check', 'rules', 'docs/alerts.yml'], { encoding: 'utf8' });
    expect(out).toContain(`SUCCESS: ${rules.length} rules found`);
  });
});
