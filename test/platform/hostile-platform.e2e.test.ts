import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { noHostility } from '../../src/sim/server.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';
import { type Canary, startCanary } from '../helpers/canary.js';

/*
 * A hostile platform through the real bot: a person's click makes the bot fetch what the platform
 * points to (an export's url, a download's redirect). The canary on loopback stands for this host's
 * network and must see nothing; the person gets a clear sentence; nothing lands in Slack; the next
 * request is served.
 */

const f = {} as BotFixture;
// A short body deadline: a trickling answer is given up within seconds, not the default 30 s.
useBot(f, { client: { timeouts: { bodyMs: 1_000 }, maxAttempts: 2 } });
let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(() => canary.close());
afterEach(() => {
  f.platform.sim.setHostility(noHostility);
  expect(canary.connections, 'the canary saw a connection').toBe(0);
  expect(canary.requests).toEqual([]);
});

type Json = Record<string, unknown>;
const refusal = /pointed confdesk to an address it does not fetch from/;
const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as { id: number };
const filesIn = (channel: string) =>
  f.slack.messages.filter((m) => m.channel === channel && (m.metadata as Json | undefined)?.files).length;

async function showCard(reference: string, channel: string): Promise<SlackMessage> {
  await f.command(`show ${reference}`, people.admin.id, channel, '/ticket');
  return eventually(() =>
    f.slack.messages.find(
      (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith(reference),
    ),
  );
}

function menu(card: SlackMessage, choice: string, ticketId: number) {
  const payload = buttonClick(f.slack, {
    user: people.admin.id,
    actionId: ids.actions.ticketMenu,
    value: '',
    channel: card.channel,
    ts: card.ts,
  });
  payload.actions = [
    {
      type: 'overflow',
      action_id: ids.actions.ticketMenu,
      block_id: 'b',
      selected_option: { value: `${choice}:${ticketId}` },
      action_ts: '1',
    },
  ] as never;
  return f.interact(payload);
}

/** Exports the card's ticket through its menu and form; answers the form's view id. */
async function exportFrom(card: SlackMessage, ticketId: number): Promise<string> {
  const opens = f.slack.callsOf('views.open').length;
  await menu(card, 'export', ticketId);
  await eventually(() => f.slack.callsOf('views.open').length > opens);
  const stored = [...f.slack.views.values()].at(-1);
  const form = stored?.view as Json;
  expect(form.callback_id).toBe(ids.views.ticketExport);
  await f.interact(submission(form, people.admin.id, formState(form, {})));
  return stored?.id as string;
}
const viewText = (id: string) => JSON.stringify(f.slack.views.get(id)?.view);

describe('a hostile platform, through a person’s clicks', () => {
  it('an export whose url points inside is refused: the person is told, nothing is posted, the next export works', async () => {
    const card = await showCard('ACME-1001', 'CH1');
    const t = ticket('ACME-1001');
    for (const url of [`${canary.url}/latest/meta-data/`, `http://localhost:${canary.port}/x`]) {
      f.platform.sim.setHostility({ exportUrl: url });
      const form = await exportFrom(card, t.id);
      await eventually(() => /The export failed/.test(viewText(form)));
      expect(viewText(form)).toMatch(refusal);
    }
    expect(filesIn('CH1')).toBe(0);
    f.platform.sim.setHostility(noHostility);
    const form = await exportFrom(card, t.id);
    await eventually(() => filesIn('CH1') === 1);
    await eventually(() => !viewText(form).includes('hourglass') && !/failed/.test(viewText(form)));
  });

  it('a ticket’s media whose download redirects inside is refused, and tells the person', async () => {
    const card = await showCard('ACME-1004', 'CH2');
    f.platform.sim.setHostility({ redirectDownloads: `${canary.url}/media`, withoutLength: true });
    await menu(card, 'media', ticket('ACME-1004').id);
    const list = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('Media of ACME-1004')),
    );
    const post = (list.body.blocks as Json[])
      .map((b) => b.accessory as Json | undefined)
      .find(Boolean) as Json;
    const told = f.slack.responses.length;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: post.action_id as string,
        value: post.value as string,
        channel: 'CH2',
        ephemeral: true,
      }),
    );
    const answer = await eventually(() =>
      f.slack.responses.slice(told).find((r) => refusal.test(JSON.stringify(r.body))),
    );
    expect(answer.body.response_type ?? 'ephemeral').toBe('ephemeral');
    expect(filesIn('CH2')).toBe(0);
  });

  it('answers too large or trickling are told in words, and the next request is served', async () => {
    const replyAfter = (from: number, text: string) =>
      eventually(
        () => f.slack.responses.slice(from).find((r) => JSON.stringify(r.body).includes(text)),
        10_000,
      );
    f.platform.sim.setHostility({ hugeJsonBytes: 9 * 1024 * 1024 });
    let from = f.slack.responses.length;
    await f.command('list', people.alice.id, 'CH3');
    expect((await replyAfter(from, 'larger than 8 MB')).body.response_type).toBe('ephemeral');
    f.platform.sim.setHostility({ trickleMs: 50 });
    from = f.slack.responses.length;
    await f.command('list', people.alice.id, 'CH3');
    await replyAfter(from, 'took too long');
    f.platform.sim.setHostility(noHostility);
    from = f.slack.responses.length;
    await f.command('list', people.alice.id, 'CH3');
    await replyAfter(from, 'Upcoming conferences');
  });
});
