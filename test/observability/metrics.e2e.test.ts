import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { runInLane } from '../../src/platform/lane.js';
import { type BotFixture, buttonClick, eventually, people, startBot, useBot } from '../helpers/bot.js';

/** One series of the Prometheus text: its name and labels. */
type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition (comments skipped). */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1] as string, labels, value: Number(m[3]) };
    });
}

/** The sum of the series named `name` that carry every label of `labels` (absent: 0). */
const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);

const token = 'metrics-e2e-token-0123456789';

describe('GET /metrics behind METRICS_TOKEN', () => {
  const f = {} as BotFixture;
  useBot(f, { metrics: { token }, webhookSecret: 'hook-secret' });
  const scrape = async () => {
    const res = await fetch(`${f.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return parse(await res.text());
  };
  /** What moved between two scrapes, for one series (or the sum of several). */
  const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) =>
    sum(after, name, { workspace: f.slack.teamId, ...labels }) -
    sum(before, name, { workspace: f.slack.teamId, ...labels });

  it('answers 401 without the bearer token or with another, and the Prometheus text with it', async () => {
    const get = (authorization?: string) =>
      fetch(`${f.url}/metrics`, authorization ? { headers: { authorization } } : {});
    for (const wrong of [
      undefined,
      `Bearer ${token.slice(0, -1)}X`,
      `Bearer ${token}x`,
      token,
      'Basic Zm9vOmJhcg==',
    ])
      expect((await get(wrong)).status).toBe(401);
    const res = await get(`Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'confdesk_slack_ack_duration_seconds',
      'confdesk_platform_requests_total',
      'confdesk_outbox_items',
      'confdesk_outbox_oldest_age_seconds',
      'confdesk_slack_token_dead',
    ])
      expect(text).toContain(`# HELP ${name} `);
    // The gauges read at scrape time carry the instance's workspace, every waiting state present.
    const samples = parse(text);
    expect(sum(samples, 'confdesk_outbox_items', { workspace: f.slack.teamId, state: 'pending' })).toBe(0);
    expect(sum(samples, 'confdesk_platform_budget_limit', { workspace: f.slack.teamId })).toBe(10_000);
    expect(sum(samples, 'confdesk_slack_token_dead', { workspace: f.slack.teamId })).toBe(0);
  });

  it('counts platform requests by lane and outcome, their wait for the budget, and the platform’s 429', async () => {
    const before = await scrape();
    const client = f.platform.client;
    f.platform.sim.setFaults({ failNext: 1, failNextStatus: 429 });
    await client.getMe(undefined, { fresh: true }); // a 429, then (after its 1 s pause) an answer
    await runInLane('background', () => client.getMe(undefined, { fresh: true }));
    const after = await scrape();
    const requests = 'confdesk_platform_requests_total';
    expect(moved(before, after, requests, { lane: 'interactive', outcome: '429' })).toBe(1);
    expect(moved(before, after, requests, { lane: 'interactive', outcome: 'ok' })).toBe(1);
    expect(moved(before, after, requests, { lane: 'background', outcome: 'ok' })).toBe(1);
    expect(moved(before, after, requests)).toBe(3);
    expect(moved(before, after, 'confdesk_rate_limited_total', { side: 'platform' })).toBe(1);
    expect(moved(before, after, 'confdesk_rate_limited_total', { side: 'slack' })).toBe(0);
    const waits = 'confdesk_platform_budget_wait_seconds';
    expect(moved(before, after, `${waits}_count`, { lane: 'interactive' })).toBe(2);
    expect(moved(before, after, `${waits}_count`, { lane: 'background' })).toBe(1);
    // The retry waited out the 429's pause (1 s without a reset header) in the budget's queue.
    expect(moved(before, after, `${waits}_sum`, { lane: 'interactive' })).toBeGreaterThanOrEqual(0.9);
    expect(moved(before, after, `${waits}_bucket`, { lane: 'interactive', le: '0.1' })).toBe(1);
  });

  it('times the ack of a slash command and of a click, by surface', async () => {
    const before = await scrape();
    expect((await f.command('help')).status).toBe(200);
    const click = buttonClick(f.slack, {
      user: people.admin.id,
      actionId: ids.actions.ticketJoinLink,
      value: 'x',
      channel: 'C1',
    });
    expect((await f.interact(click)).status).toBe(200);
    const after = await scrape();
    const acks = 'confdesk_slack_ack_duration_seconds';
    expect(moved(before, after, `${acks}_count`, { surface: 'command' })).toBe(1);
    expect(moved(before, after, `${acks}_count`, { surface: 'action' })).toBe(1);
    expect(moved(before, after, `${acks}_count`, { surface: 'view' })).toBe(0);
    // Acked well within Slack's 3 s (a loopback request: under half a second each).
    expect(moved(before, after, `${acks}_bucket`, { surface: 'command', le: '0.5' })).toBe(1);
    expect(moved(before, after, `${acks}_sum`)).toBeGreaterThan(0);
    expect(moved(before, after, `${acks}_sum`)).toBeLessThan(1);
  });

  it('counts deliveries, a duplicate the ledger avoided, Slack’s 429 and a dead letter; the outbox gauges follow', async () => {
    const before = await scrape();
    const status = async (ticketId: string) => (await f.store.outboxOf(ticketId))[0]?.status;
    const item = (ticketId: string, channel: string) => ({
      ticketId,
      eventId: `ev-${ticketId}`,
      channel,
      payload: { eventName: 'metrics.event' },
    });
    // Posted, but the answer is lost: looked for, found, not posted again.
    f.slack.failNext('chat.postMessage', { kind: 'lost_response' });
    await f.store.advance([item('901', 'CM1')]);
    await eventually(async () => (await status('901')) === 'delivered', 10_000);
    // Slack answers 429: nothing posted, posted after Retry-After.
    f.slack.failNext('chat.postMessage', { kind: 'rate_limited', retryAfter: 1 });
    await f.store.advance([item('902', 'CM2')]);
    await eventually(async () => (await status('902')) === 'delivered', 10_000);
    // Refused for good: a dead letter.
    f.slack.failNext('chat.postMessage', { kind: 'error', error: 'msg_too_long' });
    await f.store.advance([item('903', 'CM3')]);
    await eventually(async () => (await status('903')) === 'dead', 10_000);
    const after = await scrape();
    const deliveries = 'confdesk_outbox_deliveries_total';
    expect(moved(before, after, deliveries, { outcome: 'delivered' })).toBe(2);
    expect(moved(before, after, deliveries, { outcome: 'retry' })).toBe(2);
    expect(moved(before, after, deliveries, { outcome: 'dead' })).toBe(1);
    expect(moved(before, after, deliveries, { outcome: 'parked' })).toBe(0);
    expect(moved(before, after, 'confdesk_outbox_duplicates_avoided_total')).toBe(1);
    expect(moved(before, after, 'confdesk_rate_limited_total', { side: 'slack' })).toBe(1);
    expect(f.slack.messages.filter((m) => m.channel === 'CM1')).toHaveLength(1);
    // The gauges, read from the store at scrape time.
    expect(moved(before, after, 'confdesk_outbox_items', { state: 'dead' })).toBe(1);
    expect(sum(after, 'confdesk_outbox_items', { workspace: f.slack.teamId, state: 'pending' })).toBe(0);
    const age = sum(after, 'confdesk_outbox_oldest_age_seconds', {
      workspace: f.slack.teamId,
      state: 'dead',
    });
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(60);
  });

  it('counts the platform’s webhook deliveries by answer', async () => {
    const before = await scrape();
    const post = (secret: string, body: unknown) =>
      fetch(`${f.url}/webhooks/platform`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
        body: JSON.stringify(body),
      });
    const delivery = { event: 'update', time: 1, object: 'ticket', objectId: 1, props: {} };
    expect((await post('wrong-secret', delivery)).status).toBe(401);
    expect((await post('hook-secret', { hello: 'world' })).status).toBe(400);
    expect((await post('hook-secret', delivery)).status).toBe(202);
    expect((await post('hook-secret', delivery)).status).toBe(202);
    const after = await scrape();
    const webhooks = 'confdesk_webhook_deliveries_total';
    expect(moved(before, after, webhooks, { outcome: 'unauthorized' })).toBe(1);
    expect(moved(before, after, webhooks, { outcome: 'invalid' })).toBe(1);
    expect(moved(before, after, webhooks, { outcome: 'accepted' })).toBe(2);
  });

  // Last: the refusal pauses this bot's delivery for a minute.
  it('says the token is dead once Slack refuses it', async () => {
    f.slack.failNext('chat.postMessage', { kind: 'error', error: 'token_revoked' });
    await f.store.advance([
      { ticketId: '904', eventId: 'ev-904', channel: 'CM4', payload: { eventName: 'metrics.event' } },
    ]);
    const dead = async () =>
      sum(await scrape(), 'confdesk_slack_token_dead', { workspace: f.slack.teamId }) === 1;
    await eventually(dead, 10_000);
    expect(f.confdesk.slackAccess.problem()).toContain('token_revoked');
  });
});

describe('GET /metrics switched on without a token (METRICS=on), and off', () => {
  it('serves anyone with METRICS=on, with the poller’s scans timed; answers 404 when off', async () => {
    const on = await startBot({ metrics: {}, pollIntervalMs: 60_000 });
    const off = await startBot();
    try {
      const scans = await eventually(async () => {
        const res = await fetch(`${on.url}/metrics`);
        expect(res.status).toBe(200);
        const n = sum(parse(await res.text()), 'confdesk_poller_scan_duration_seconds_count', {
          workspace: on.slack.teamId,
          outcome: 'ok',
        });
        return n >= 1 && n;
      }, 10_000);
      expect(scans).toBe(1);
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      expect(
        (await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(404);
    } finally {
      await on.close();
      await off.close();
    }
  });
});
