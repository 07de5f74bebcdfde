import { describe, expect, it } from 'vitest';
import type { SlackFault } from '../../src/dev/slack-double.js';
import { type BotFixture, useBot } from '../helpers/bot.js';
import {
  allDelivered,
  exactlyOnce,
  sleep,
  until,
  type Watch,
  watchTickets,
} from '../helpers/event-stream.js';

/**
 * The whole path (poller, webhooks, outbox, delivery) while the platform answers 5xx, 429 storms and
 * never answers at all, and Slack answers 429, 5xx and loses answers: nothing lost, nothing twice.
 */
const f = {} as BotFixture;
useBot(f, {
  pollIntervalMs: 300,
  webhookSecret: 'fault-hook',
  client: { timeouts: { headersMs: 400 }, maxAttempts: 2 },
});

describe('ticket events under faults', () => {
  it('are all delivered exactly once through platform 5xx/429/timeouts and Slack 429/5xx/lost answers', async () => {
    const watches = await watchTickets(f.store, f.platform.sim);
    f.platform.sim.setWebhook({
      url: `${f.url}/webhooks/platform`,
      header: 'X-Webhook-Secret',
      secret: 'fault-hook',
    });
    const faults = f.platform.sim.faults;
    const phases: Partial<typeof faults>[] = [
      { errorRate: 0.3, errorStatus: 503 },
      { rateLimitStorm: true, stormResetSeconds: 1 },
      { hangRate: 0.3 },
      { errorRate: 0.3, errorStatus: 500 },
    ];
    const slackFaults: SlackFault[] = [
      { kind: 'rate_limited', retryAfter: 1 },
      { kind: 'http', status: 503 },
      { kind: 'lost_response' },
    ];
    for (const [p, phase] of phases.entries()) {
      Object.assign(faults, phase);
      for (let k = 0; k < 8; k++) {
        const w = watches[(p * 8 + k) % watches.length] as Watch;
        f.platform.sim.state.addEvent(w.ticket, `fault.event${p}.${k}`, 'agent');
        f.slack.failNext('chat.postMessage', slackFaults[k % slackFaults.length] as SlackFault);
        await sleep(150);
      }
      Object.assign(faults, { errorRate: 0, rateLimitStorm: false, hangRate: 0 });
    }
    expect(await until(() => allDelivered(f.slack, watches), 60_000)).toBe(true);
    await sleep(1_000);
    expect(exactlyOnce(f.slack, watches)).toEqual([]);
    // Faults did happen on both sides.
    expect(f.slack.callsOf('chat.postMessage').length).toBeGreaterThan(f.slack.messages.length);
    const failed = new Set(f.platform.sim.requests.map((r) => r.status).filter((s) => s >= 429));
    expect(failed.has(429) && [...failed].some((s) => s >= 500)).toBe(true);
  }, 90_000);

  it('a webhook flood costs one look a second at most, and a wrong secret is refused', async () => {
    const t = [...f.platform.sim.state.tickets.values()][0];
    if (!t) throw new Error('no ticket');
    const body = JSON.stringify({ event: 'update', time: 1, object: 'ticket', objectId: t.id, props: {} });
    const send = (secret: string) =>
      fetch(`${f.url}/webhooks/platform`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
        body,
      }).then((r) => r.status);
    expect(await send('not-the-secret')).toBe(401);
    const before = f.platform.sim.requests.length;
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 300 }, () => send('fault-hook')));
    const floodS = (Date.now() - started) / 1000;
    expect(new Set(statuses)).toEqual(new Set([202]));
    await sleep(1_500);
    // The poller's replica scans at once (one list request), another would read the ticket alone.
    const reads = f.platform.sim.requests
      .slice(before)
      .filter((r) => r.path === '/api/v3/tickets' || r.path === `/api/v3/tickets/${t.id}`);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(floodS) + 2);
  });
});
