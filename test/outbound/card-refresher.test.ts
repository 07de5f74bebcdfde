import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message } from '../../src/blocks/kit.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import { CardMemo, CardRefresher } from '../../src/outbound/card-refresher.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { type TicketRecord, ticketRecord } from '../../src/platform/schemas.js';

/**
 * The cards' background updates against the Slack double (real HTTP): coalesced to the latest
 * version per ticket, within Slack's pace for chat.update, a 429 waited out without losing the
 * ticket, and only cards that would show something else.
 */
let slack: SlackDouble;
beforeAll(async () => {
  slack = await new SlackDouble().start();
});
afterAll(() => slack.stop());

const record = (id: number, state: string, second: number): TicketRecord =>
  ticketRecord.parse({ id, state, modified: new Date(Date.UTC(2026, 10, 26, 12, 0, second)).toISOString() });

/** A refresher on a clock each sleep moves, with one card per ticket posted in `channel` first. */
async function refresher(
  channel: string,
  tickets: number[],
  o: { perMinute?: number; onSleep?: (ms: number) => Promise<void> } = {},
) {
  let now = 0;
  const client = deliveryClient({ token: 'xoxb-cards', apiUrl: slack.apiUrl });
  const cards = new Map<string, { ticketId: string; channel: string; ts: string }>();
  for (const id of tickets) {
    const posted = await client.chat.postMessage({ channel, text: `card ${id}` });
    cards.set(String(id), { ticketId: String(id), channel, ts: posted.ts as string });
  }
  const sleeps: number[] = [];
  const memo = new CardMemo();
  const r = new CardRefresher({
    slack: client,
    store: { forTicket: async (id) => (cards.has(id) ? [cards.get(id) as never] : []) },
    memo,
    render: async (t) => message(md`ticket ${String(t.id)} is ${t.state ?? ''}`, []),
    logger: createLogger('silent'),
    updatesPerMinute: o.perMinute ?? 60,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      await o.onSleep?.(ms);
      now += ms;
    },
  });
  let runs = 0;
  r.whenChanged(() => runs++);
  const updates = () =>
    slack
      .callsOf('chat.update')
      .filter((c) => c.args.channel === channel)
      .map((c) => String(c.args.text));
  return { r, memo, cards, updates, sleeps, at: () => now, triggered: () => runs };
}

describe('the card refresher', () => {
  it('updates a card once with the latest of the versions that waited (an older one arriving late loses)', async () => {
    const t = await refresher('CREF1', [1]);
    await t.r.changed(record(1, 'open', 1), false);
    await t.r.changed(record(1, 'inprogress', 2), false);
    await t.r.changed(record(1, 'done', 3), false);
    await t.r.changed(record(1, 'inprogress', 2), false); // a late webhook of an older version
    expect(t.triggered()).toBe(4);
    expect(t.r.waiting).toBe(1);
    await t.r.run();
    expect(t.updates()).toEqual(['ticket 1 is done']);
    expect(t.r.waiting).toBe(0);
  });

  it('goes at Slack’s pace for chat.update: a burst of 5, then one a gap, oldest change first', async () => {
    const ids = [11, 12, 13, 14, 15, 16, 17, 18];
    const t = await refresher('CREF2', ids, { perMinute: 60 });
    for (const id of ids) await t.r.changed(record(id, 'open', 1), false);
    await t.r.run();
    expect(t.updates()).toEqual(ids.map((id) => `ticket ${id} is open`));
    // Five at once, then a second apart (60 a minute): 3 s for the three beyond the burst.
    expect(t.sleeps).toHaveLength(3);
    expect(t.at()).toBeCloseTo(3_000, -1);
  });

  it('waits out a 429 without losing the ticket; a newer version that comes meanwhile is the one shown', async () => {
    let newer: (() => Promise<void>) | undefined;
    const t = await refresher('CREF3', [21], { onSleep: async () => newer?.() });
    newer = () => t.r.changed(record(21, 'inprogress', 2), false);
    const shown = () => slack.messages.find((m) => m.ts === t.cards.get('21')?.ts)?.text;
    slack.failNext('chat.update', { kind: 'rate_limited', retryAfter: 2 });
    await t.r.changed(record(21, 'open', 1), false);
    await t.r.run();
    // The refused call, then (after Slack's 2 s) the version that came while it waited.
    expect(t.updates()).toEqual(['ticket 21 is open', 'ticket 21 is inprogress']);
    expect(shown()).toBe('ticket 21 is inprogress');
    expect(t.at()).toBeGreaterThanOrEqual(2_000);
    expect(t.r.waiting).toBe(0);
  });

  it('leaves a card that already shows the version, and (after a start) cards this process never rendered', async () => {
    const t = await refresher('CREF4', [31, 32]);
    await t.r.changed(record(31, 'open', 1), false);
    await t.r.run();
    await t.r.changed(record(31, 'open', 1), false); // the scan finds the version the webhook told
    await t.r.changed(record(32, 'open', 1), true); // first sight after a start: card 32 is not known here
    await t.r.run();
    expect(t.updates()).toEqual(['ticket 31 is open']);
    expect(t.memo.knows(t.cards.get('32') as never)).toBe(false);
  });
});
