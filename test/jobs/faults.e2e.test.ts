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
    // The watches are written to the store behind the bot's back (`f.store` is the store itself, not
    // the bot's writers' view of it): on the embedded store the bot hears only its own writes and an
    // idle bot asks the store once a heartbeat (5 minutes), so it is told, as another replica's write
    // would be. Untold, its scans started only if its first scan, made before the watches, happened to
    // post a card (a card's write wakes them), which a 503 of the first phase could prevent.
    const watches = await watchTickets(f.store, f.platform.sim);
    f.confdesk.jobs.wake({ job: 'poll' });
    const hook = { url: `${f.url}/webhooks/platform`, header: 'X-Webhook-Secret', secret: 'fault-hook' };
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
    const expected = [503, 429, undefined, undefined];
    for (const [p, phase] of phases.entries()) {
      Object.assign(faults, phase);
      // The last phase's events come by webhook (no platform request); the others through the scans
      // and timeline reads, which meet the platform's faults (the phase lasts until they do).
      const last = p === phases.length - 1;
      f.platform.sim.setWebhook(last ? hook : undefined);
      const from = f.platform.sim.requests.length;
      for (let k = 0; k < 8; k++) {
        const w = watches[(p * 8 + k) % watches.length] as Watch;
        f.platform.sim.state.addEvent(w.ticket, `fault.event${p}.${k}`, 'agent');
        f.slack.failNext('chat.postMessage', slackFaults[k % slackFaults.length] as SlackFault);
        await sleep(150);
      }
      const status = expected[p];
      // A phase lasts until its fault was met: with an error rate of 0.3 and a scan every second or
      // two, a loaded machine may need more than a few requests (each phase's fault is asserted here).
      if (status)
        expect(
          await until(() => f.platform.sim.requests.slice(from).some((r) => r.status === status), 40_000),
          `phase ${p}: ${f.platform.sim.requests.length - from} requests since it began (${JSON.stringify(
            f.platform.sim.requests
              .slice(from)
              .slice(-5)
              .map((r) => `${r.status} ${r.path}`),
          )})`,
        ).toBe(true);
      Object.assign(faults, { errorRate: 0, rateLimitStorm: false, hangRate: 0 });
    }
    expect(await until(() => allDelivered(f.slack, watches), 60_000)).toBe(true);
    await sleep(1_000);
    expect(exactlyOnce(f.slack, watches)).toEqual([]);
    // Faults did happen on both sides.
    expect(f.slack.callsOf('chat.postMessage').length).toBeGreaterThan(f.slack.messages.length);
    const failed = new Set(f.platform.sim.requests.map((r) => r.status).filter((s) => s >= 429));
    expect(failed.has(429) && [...failed].some((s) => s >= 500)).toBe(true);
  }, 240_000);

  it('a webhook flood costs no more than the scans it would take anyway, and a wrong secret is refused', async () => {
    const t = [...f.platform.sim.state.tickets.values()][0];
    if (!t) throw new Error('no ticket');
    const send = (secret: string, body: unknown) =>
      fetch(`${f.url}/webhooks/platform`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    const ticketHook = { event: 'update', time: 1, object: 'ticket', objectId: t.id, props: {} };
    // A timeline event's webhook that says too little to post from: its ticket must be read.
    const thinHook = (i: number) => ({
      event: 'create',
      time: Math.floor(Date.now() / 1000),
      object: 'conversationevent',
      objectId: `thin-${i}`,
      props: { ticketId: t.id },
    });
    expect(await send('not-the-secret', ticketHook)).toBe(401);
    const before = f.platform.sim.requests.length;
    const started = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => send('fault-hook', i % 2 ? ticketHook : thinHook(i))),
    );
    const floodS = (Date.now() - started) / 1000;
    expect(new Set(statuses)).toEqual(new Set([202]));
    // The read is what counts here, not its speed (a loaded machine took more than 5 s).
    const end = Date.now() + 20_000;
    while ((await f.store.backlogSize()).reads > 0 && Date.now() < end) await sleep(50);
    expect(await f.store.backlogSize()).toMatchObject({ reads: 0 });
    const spent = f.platform.sim.requests.slice(before);
    // 150 ticket webhooks that say nothing new cost nothing; 150 thin ones about one ticket, one
    // timeline read (they wait in the read backlog as one), a second read at most if the last ones
    // arrived while it was being read.
    const timelineReads = spent.filter((r) => r.path === `/api/v3/tickets/${t.id}/events`).length;
    expect(timelineReads).toBeGreaterThan(0);
    expect(timelineReads).toBeLessThanOrEqual(2);
    expect(spent.filter((r) => r.path === `/api/v3/tickets/${t.id}`).length).toBeLessThanOrEqual(1);
    // Scans go on at their own pace (every 10 intervals while webhooks arrive), not one per delivery.
    expect(spent.filter((r) => r.path === '/api/v3/tickets').length).toBeLessThanOrEqual(
      Math.ceil(floodS / 3) + 2,
    );
  });
});
