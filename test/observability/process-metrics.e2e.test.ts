import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
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

  // Prometheus's own tool (Debian's prometheus package: `npm test`'s pretest installs it where it can,
  // scripts/ensure-promtool.mjs): the rules are valid, they fire as meant on series shaped as the
  // bot's, and a real bot's /metrics passes its linter.
  const promtool = process.env.CONFDESK_PROMTOOL || '/usr/bin/promtool';
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
      `docs/alerts.yml: the promtool checks are SKIPPED: no ${promtool} (npm test installs Debian's prometheus package when run as root; or set CONFDESK_PROMTOOL).`,
    );
  const promtoolRun = (args: string[], input?: string) => {
    try {
      const out = execFileSync(promtool, args, { encoding: 'utf8', input, stdio: 'pipe' });
      return { code: 0, out };
    } catch (e) {
      const { status, stdout, stderr } = e as { status: number; stdout: string; stderr: string };
      return { code: status, out: `${stdout}${stderr}` };
    }
  };

  it.runIf(hasPromtool)('passes promtool check rules', () => {
    const checked = promtoolRun(['check', 'rules', 'docs/alerts.yml']);
    expect(checked, checked.out).toMatchObject({ code: 0 });
    expect(checked.out).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it.runIf(hasPromtool)('fires as meant under promtool test rules (and a wrong expectation fails)', () => {
    const rule = (name: string) => rules.find((r) => r.alert === name) as Rule;
    const tests = {
      rule_files: [resolve('docs/alerts.yml')],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            { series: 'confdesk_outbox_items{state="dead",workspace="T1"}', values: '0 0 2 2 2' },
            { series: 'confdesk_slack_token_dead{workspace="T1"}', values: '0 0 1 1 1' },
            // A pending item ageing a minute a minute: over 600 s from minute 11, firing 5 min later.
            {
              series: 'confdesk_outbox_oldest_age_seconds{state="pending",workspace="T1"}',
              values: '0+60x20',
            },
            // Five starts in five minutes: a crash loop.
            { series: 'process_start_time_seconds{instance="bot:3000"}', values: '100 200 300 400 500 500' },
          ],
          alert_rule_test: [
            { eval_time: '1m', alertname: 'ConfdeskDeadLetters', exp_alerts: [] },
            {
              eval_time: '3m',
              alertname: 'ConfdeskDeadLetters',
              exp_alerts: [
                {
                  exp_labels: { severity: 'warning', state: 'dead', workspace: 'T1' },
                  exp_annotations: {
                    summary: 'confdesk (T1): 2 ticket events set aside (dead letters)',
                    description: rule('ConfdeskDeadLetters').annotations.description,
                  },
                },
              ],
            },
            {
              eval_time: '3m',
              alertname: 'ConfdeskSlackTokenDead',
              exp_alerts: [
                {
                  exp_labels: { severity: 'critical', workspace: 'T1' },
                  exp_annotations: {
                    summary: rule('ConfdeskSlackTokenDead').annotations.summary.replace(
                      '{{ $labels.workspace }}',
                      'T1',
                    ),
                    description: rule('ConfdeskSlackTokenDead').annotations.description,
                  },
                },
              ],
            },
            { eval_time: '15m', alertname: 'ConfdeskOutboxStuck', exp_alerts: [] },
            {
              eval_time: '16m',
              alertname: 'ConfdeskOutboxStuck',
              exp_alerts: [
                {
                  exp_labels: { severity: 'warning', workspace: 'T1' },
                  exp_annotations: {
                    summary: 'confdesk (T1): a ticket event has waited 16m 0s to reach Slack',
                    description: rule('ConfdeskOutboxStuck').annotations.description,
                  },
                },
              ],
            },
            { eval_time: '3m', alertname: 'ConfdeskRestarting', exp_alerts: [] },
            {
              eval_time: '5m',
              alertname: 'ConfdeskRestarting',
              exp_alerts: [
                {
                  exp_labels: { severity: 'critical', instance: 'bot:3000' },
                  exp_annotations: {
                    summary: 'confdesk (bot:3000): restarted 4 times in the last hour',
                    description: rule('ConfdeskRestarting').annotations.description,
                  },
                },
              ],
            },
          ],
        },
      ],
    };
    const dir = mkdtempSync(join(tmpdir(), 'confdesk-promtool-'));
    try {
      const file = join(dir, 'alerts.test.yml');
      writeFileSync(file, stringifyYaml(tests));
      const passed = promtoolRun(['test', 'rules', file]);
      expect(passed, passed.out).toMatchObject({ code: 0 });
      expect(passed.out).toContain('SUCCESS');
      // The check can fail: the dead letters expected one evaluation too early.
      const early = structuredClone(tests);
      early.tests[0]?.alert_rule_test.splice(0, 1);
      const first = early.tests[0]?.alert_rule_test[0] as { eval_time: string };
      first.eval_time = '1m';
      writeFileSync(file, stringifyYaml(early));
      const failed = promtoolRun(['test', 'rules', file]);
      expect(failed.code, failed.out).toBe(1);
      expect(failed.out).toContain('alertname: ConfdeskDeadLetters');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(hasPromtool)('a real bot’s /metrics passes promtool check metrics', async () => {
    const bot = await startBot({ metrics: {} });
    try {
      const text = await scrapeOf(bot.url)();
      const checked = promtoolRun(['check', 'metrics'], text);
      expect(checked, checked.out).toEqual({ code: 0, out: '' });
      // The active handles are still there, by type (their sum is the gauge left out).
      expect(text).toMatch(/^nodejs_active_handles\{type="\w+"\} [1-9]/m);
      // The check can fail: a counter without its _total suffix is named.
      const wrong = promtoolRun(
        ['check', 'metrics'],
        '# HELP bad_count a counter\n# TYPE bad_count counter\nbad_count 1\n',
      );
      expect(wrong.code).not.toBe(0);
      expect(wrong.out).toContain('bad_count');
    } finally {
      await bot.close();
    }
  });
});
