import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

const f = {} as BotFixture;
useBot(f);

const waitNotices = () =>
  f.slack.responses.filter((r) => String(r.body.text).includes('this will take about'));

describe('a person at a button while the platform’s rate budget is held', () => {
  it('is told privately how long it will take, then gets the result', async () => {
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1001',
    ) as SimTicket;
    expect((await f.command('show ACME-1001', people.alice.id, 'CW1', '/ticket')).status).toBe(200);
    const card = await eventually(() =>
      f.slack.messages.find(
        (m) => m.channel === 'CW1' && !m.thread_ts && String(m.text).startsWith('ACME-1001'),
      ),
    );
    const updatesBefore = f.slack.callsOf('chat.update').length;
    // A 429 announced a 5 s wait: a click now waits that long.
    f.platform.client.budget.pauseFor(5_000);
    const clickedAt = Date.now();
    await f.interact(
      buttonClick(f.slack, {
        user: people.alice.id,
        actionId: ids.actions.ticketRefresh,
        value: String(t.id),
        channel: (card as SlackMessage).channel,
        ts: (card as SlackMessage).ts,
      }),
    );
    const notice = await eventually(() => waitNotices()[0], 2_000);
    expect(String(notice.body.text)).toMatch(/^Loading the ticket… .*about [45] s\./);
    expect(notice.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    // The card is refreshed once the wait is over, not before.
    await eventually(() => f.slack.callsOf('chat.update').length > updatesBefore, 10_000);
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(4_500);
  });

  it('says nothing extra when the wait is short', async () => {
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1002',
    ) as SimTicket;
    expect((await f.command('show ACME-1002', people.admin.id, 'CW2', '/ticket')).status).toBe(200);
    const card = await eventually(() =>
      f.slack.messages.find(
        (m) => m.channel === 'CW2' && !m.thread_ts && String(m.text).startsWith('ACME-1002'),
      ),
    );
    const before = waitNotices().length;
    const updatesBefore = f.slack.callsOf('chat.update').length;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.ticketRefresh,
        value: String(t.id),
        channel: card.channel,
        ts: card.ts,
      }),
    );
    await eventually(() => f.slack.callsOf('chat.update').length > updatesBefore, 5_000);
    expect(waitNotices().length).toBe(before);
  });
});
