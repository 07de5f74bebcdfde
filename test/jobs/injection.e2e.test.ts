import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { mrkdwnTexts } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 200 });

const evil = 'Printer <!channel> <@UEVIL> <#CEVIL> <https://evil.example|click me> &lt;';
const escapedEvil =
  'Printer &lt;!channel&gt; &lt;@UEVIL&gt; &lt;#CEVIL&gt; &lt;https://evil.example|click me&gt; &amp;lt;';
const forbidden = ['<!channel>', '<!here>', '<!everyone>', '<@UEVIL>', '<#CEVIL>', '<https://evil.example'];

describe('outside text through the poller and delivery', () => {
  it('reaches the thread, the broadcast and the refreshed card as text, never as a live token', async () => {
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1001',
    ) as SimTicket;
    await f.command('watch ACME-1001', people.admin.id, 'CJ1', '/ticket');
    await f.command('follow group:"Level 1" broadcast', people.admin.id, 'CJ2', '/ticket');
    const card = await eventually(async () => f.store.find(String(t.id), 'CJ1'));
    await eventually(async () => (await f.store.lastSeen(String(t.id)))?.state === t.state);

    // The requestor's side of the platform now holds the corpus: reference, subject, an event and its source.
    t.reference = evil;
    t.subject = `${evil} ${'<!here> & '.repeat(350)}`;
    t.requestor.name = '<@UEVIL>';
    f.platform.sim.state.addEvent(t, evil, '<!everyone> <https://evil.example|x>' as never);
    const from = t.state;
    f.platform.sim.state.setTicketState(t, from === 'open' ? 'inprogress' : 'open', 'agent');

    const line = await eventually(
      () =>
        f.slack.messages.find(
          (m) => m.channel === 'CJ1' && m.thread_ts === card.ts && m.text?.includes(escapedEvil),
        ),
      10_000,
    );
    expect(line.text).toContain('· &lt;!everyone&gt; &lt;https://evil.example|x&gt;');
    const broadcast = await eventually(
      () =>
        f.slack.messages.find((m) => m.channel === 'CJ2' && !m.thread_ts && m.text?.includes(' is now *')),
      10_000,
    );
    expect(broadcast.text).toBe(`${escapedEvil} is now *${t.state}* (was ${from}).`);
    const refreshed = await eventually(
      () =>
        f.slack.messages.find(
          (m) => m.channel === 'CJ1' && m.ts === card.ts && m.text?.includes(escapedEvil),
        ),
      10_000,
    );
    expect(refreshed.text).toContain(`${escapedEvil} &lt;!here&gt; &amp;`);
    expect(refreshed.text?.length).toBeLessThanOrEqual(4_000);

    expect(f.slack.violations).toEqual([]);
    const sent = f.slack.messages.flatMap((m) => mrkdwnTexts({ text: m.text, blocks: m.blocks }));
    for (const text of sent) for (const raw of forbidden) expect(text).not.toContain(raw);
  });

  it('echoes a reference the person typed as text when no ticket has it', async () => {
    const typed = '<!channel><https://evil.example|click_me>';
    const cmd = await f.command(`show ${typed}`, people.admin.id, 'CJ3', '/ticket');
    const answer = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(cmd.responseUrl).pathname && r.body.text),
    );
    expect(answer.body.text).toBe(
      'No ticket has the reference “&lt;!channel&gt;&lt;https://evil.example|click_me&gt;”.',
    );
    expect(f.slack.violations).toEqual([]);
  });

  it('names a ticket whose platform reference is INJ-<!here>-1 as text in its Delete prompt', async () => {
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1005',
    ) as SimTicket;
    await f.command('watch ACME-1005', people.admin.id, 'CJ4', '/ticket');
    const card = await eventually(async () => f.store.find(String(t.id), 'CJ4'));
    // Whoever created the ticket on the platform chose its reference.
    t.reference = 'INJ-<!here>-1';
    const click = buttonClick(f.slack, {
      user: people.admin.id,
      actionId: ids.actions.ticketMenu,
      value: '',
      channel: 'CJ4',
      ts: card.ts,
    });
    click.actions = [
      {
        type: 'overflow',
        action_id: ids.actions.ticketMenu,
        block_id: 'b',
        selected_option: { value: `delete:${t.id}` },
        action_ts: '1',
      },
    ] as never;
    await f.interact(click);
    const prompt = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('Delete INJ-')),
    );
    // The fallback text (what a notification shows) and the section both show it, escaped.
    expect(prompt.body.text).toBe('Delete INJ-&lt;!here&gt;-1?');
    const texts = mrkdwnTexts(prompt.body);
    expect(texts).toContain('Delete *INJ-&lt;!here&gt;-1*? It is removed from the video platform for good.');
    for (const text of texts) expect(text).not.toContain('<!here>');
    expect(f.slack.violations).toEqual([]);
  });
});
