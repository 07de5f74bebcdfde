import { describe, expect, it, vi } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackEphemeral, SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket, SimUser } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, people, secret, useBot } from '../helpers/bot.js';
import { sendSigned } from '../helpers/slack-requests.js';

/*
 * Emoji reactions, end to end: signed `reaction_added` events (as the Slack double answers a person's
 * reaction) into the real Bolt receiver, the platform simulator showing the ticket taken or moved, the
 * double showing what the reactor was told privately. HTTP mode, then Socket Mode once.
 */

type Json = Record<string, unknown>;

/** `check` passes within 10 s (a busy machine); answers what it returned. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

const simUser = (f: BotFixture, username: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === username) as SimUser;
const groupId = (f: BotFixture, name: string) =>
  [...f.platform.sim.state.groups.values()].find((g) => g.name === name)?.id as number;

let serial = 0;
/** A fresh ticket of Level 1 (bob's; alice is in the group), in `state`. */
function freshTicket(f: BotFixture, state: string): SimTicket {
  const bob = simUser(f, 'bob');
  const t = f.platform.sim.state.createTicket(bob, {
    reference: `RX-${++serial}`,
    subject: 'Reacted to',
    agentId: bob.id,
    groupId: groupId(f, 'Level 1'),
    emails: ['jane.doe@example.com'],
    phones: [],
    invite: false,
  });
  t.state = state;
  return t;
}

/** `/ticket show <ref>` by the admin in `channel`: resolves with the card once posted. */
async function cardOf(f: BotFixture, t: SimTicket, channel: string): Promise<SlackMessage> {
  await f.command(`show ${t.reference}`, people.admin.id, channel, '/ticket');
  return eventually(() => {
    const card = f.slack.messages.find(
      (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith(t.reference as string),
    );
    expect(card).toBeDefined();
    return card as SlackMessage;
  });
}

/** Turns the channel's reactions on, as alice; resolves once the channel has them. */
async function reactionsOn(f: BotFixture, channel: string): Promise<void> {
  const res = await f.command('follow reactions', people.alice.id, channel, '/ticket');
  expect(res.status).toBe(200);
  await eventually(() =>
    expect(
      f.slack.responses.some((r) => JSON.stringify(r.body).includes(`<#${channel}> now act on tickets`)),
    ).toBe(true),
  );
  expect((await f.store.subscriptionsOf(channel)).map((s) => s.kind)).toEqual(['reactions']);
}

const ephemeralsOf = (f: BotFixture, user: string, channel: string): SlackEphemeral[] =>
  f.slack.ephemerals.filter((e) => e.user === user && e.channel === channel);

describe('reactions over HTTP', () => {
  const f = {} as BotFixture;
  useBot(f);

  it('🎫 offers a private Create ticket; its click opens the form with the message’s text and permalink', async () => {
    await reactionsOn(f, 'CRX1');
    const m = f.slack.postAsUser(people.bob.id, 'CRX1', 'The printer on floor 2 is on fire <!channel>');
    const res = await f.event(f.slack.react(people.alice.id, 'CRX1', m.ts, 'ticket'));
    expect(res.status).toBe(200);
    const offer = await eventually(() => {
      const e = ephemeralsOf(f, people.alice.id, 'CRX1').find((x) =>
        JSON.stringify(x.blocks).includes(ids.actions.reactionTicket),
      );
      expect(e).toBeDefined();
      return e as SlackEphemeral;
    });
    // Only the reactor sees it; the channel got no message from the reaction.
    expect(f.slack.messages.filter((x) => x.channel === 'CRX1' && x.user === f.slack.botUserId)).toEqual([]);
    const button = (offer.blocks as { elements?: { value?: string }[] }[])[1]?.elements?.[0];
    const clicked = buttonClick(f.slack, {
      user: people.alice.id,
      actionId: ids.actions.reactionTicket,
      value: String(button?.value),
      channel: 'CRX1',
      ephemeral: true,
    });
    // The click's trigger is alice's: the form opens for her.
    f.slack.registerTrigger(clicked.trigger_id, people.alice.id);
    await f.interact(clicked);
    const form = await eventually(() => {
      const v = f.slack.modals(people.alice.id).at(-1)?.view as Json | undefined;
      expect(v?.callback_id).toBe(ids.views.ticketForm);
      return JSON.stringify(v);
    });
    expect(form).toContain('The printer on floor 2 is on fire <!channel>');
    expect(form).toContain(`From Slack: https://double.slack.test/archives/CRX1/p${m.ts.replace('.', '')}`);
    expect(f.slack.callsOf('conversations.replies').at(-1)?.args).toMatchObject({
      channel: 'CRX1',
      ts: m.ts,
    });
  });

  it('👀 on a card makes the reactor its agent: the simulator shows it, the card and its thread say it', async () => {
    await reactionsOn(f, 'CRX2');
    const t = freshTicket(f, 'open');
    const card = await cardOf(f, t, 'CRX2');
    await f.event(f.slack.react(people.alice.id, 'CRX2', card.ts, 'eyes'));
    await eventually(() =>
      expect(f.platform.sim.state.tickets.get(t.id)?.agentId).toBe(simUser(f, 'alice').id),
    );
    await eventually(() =>
      expect(
        f.slack.messages.some(
          (x) =>
            x.channel === 'CRX2' &&
            x.thread_ts === card.ts &&
            String(x.text).includes(`<@${people.alice.id}>`),
        ),
      ).toBe(true),
    );
    expect(ephemeralsOf(f, people.alice.id, 'CRX2')).toEqual([]);
  });

  it('✅ moves a card in progress to done; on an open one it changes nothing and tells the moves the card offers', async () => {
    await reactionsOn(f, 'CRX3');
    const busy = freshTicket(f, 'inprogress');
    const busyCard = await cardOf(f, busy, 'CRX3');
    await f.event(f.slack.react(people.alice.id, 'CRX3', busyCard.ts, 'white_check_mark'));
    await eventually(() => expect(f.platform.sim.state.tickets.get(busy.id)?.state).toBe('done'));
    const open = freshTicket(f, 'open');
    const openCard = await cardOf(f, open, 'CRX3');
    const writes = () => f.platform.sim.requests.filter((r) => r.method !== 'GET').length;
    const before = writes();
    await f.event(f.slack.react(people.alice.id, 'CRX3', openCard.ts, 'white_check_mark'));
    const said = await eventually(() => {
      const e = ephemeralsOf(f, people.alice.id, 'CRX3').at(-1);
      expect(e?.text).toContain('only from *inprogress*');
      return String(e?.text);
    });
    expect(said).toContain('“Start”');
    expect(f.platform.sim.state.tickets.get(open.id)?.state).toBe('open');
    expect(writes()).toBe(before);
  });

  it('a reaction by someone without the right is refused privately and changes nothing', async () => {
    await reactionsOn(f, 'CRX4');
    const t = freshTicket(f, 'inprogress');
    const card = await cardOf(f, t, 'CRX4');
    await f.event(f.slack.react(people.nobody.id, 'CRX4', card.ts, 'white_check_mark'));
    await eventually(() =>
      expect(ephemeralsOf(f, people.nobody.id, 'CRX4').at(-1)?.text).toContain(
        'no account on the video platform',
      ),
    );
    expect(f.platform.sim.state.tickets.get(t.id)?.state).toBe('inprogress');
  });

  it('nothing in a channel that did not turn reactions on, nor for the bot’s own reaction', async () => {
    const t = freshTicket(f, 'inprogress');
    const card = await cardOf(f, t, 'CRXOFF');
    const m = f.slack.postAsUser(people.bob.id, 'CRXOFF', 'help');
    const calls = f.slack.calls.length;
    await f.event(f.slack.react(people.alice.id, 'CRXOFF', card.ts, 'white_check_mark'));
    await f.event(f.slack.react(people.alice.id, 'CRXOFF', m.ts, 'ticket'));
    await reactionsOn(f, 'CRX5');
    const t5 = freshTicket(f, 'inprogress');
    const card5 = await cardOf(f, t5, 'CRX5');
    const requests = f.platform.sim.requests.length;
    await f.event(f.slack.react(f.slack.botUserId, 'CRX5', card5.ts, 'white_check_mark'));
    await new Promise((r) => setTimeout(r, 300));
    expect(f.platform.sim.state.tickets.get(t.id)?.state).toBe('inprogress');
    expect(f.platform.sim.state.tickets.get(t5.id)?.state).toBe('inprogress');
    expect(f.slack.ephemerals.filter((e) => e.channel === 'CRXOFF' || e.channel === 'CRX5')).toEqual([]);
    // None of the three reactions was answered, even privately.
    expect(f.slack.calls.slice(calls).filter((c) => c.method === 'chat.postEphemeral')).toEqual([]);
    // The bot's own reaction read and wrote nothing on the platform.
    expect(
      f.platform.sim.requests.slice(requests).filter((r) => r.path.startsWith('/api/v3/tickets')),
    ).toEqual([]);
  });

  it('Slack’s retry of the same event (same event_id, X-Slack-Retry-Num) acts once', async () => {
    await reactionsOn(f, 'CRX6');
    const t = freshTicket(f, 'open');
    const card = await cardOf(f, t, 'CRX6');
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: f.slack.teamId,
      api_app_id: 'A1',
      event_id: 'EvRETRIED01',
      event_time: Math.floor(Date.now() / 1000),
      event: f.slack.react(people.alice.id, 'CRX6', card.ts, 'eyes'),
    });
    const first = await sendSigned(f.url, secret, body, 'application/json');
    const retry = await sendSigned(f.url, secret, body, 'application/json');
    expect([first.status, retry.status]).toEqual([200, 200]);
    await eventually(() =>
      expect(f.platform.sim.state.tickets.get(t.id)?.agentId).toBe(simUser(f, 'alice').id),
    );
    await new Promise((r) => setTimeout(r, 300));
    const puts = f.platform.sim.requests.filter(
      (r) => r.method === 'PUT' && r.path === `/api/v3/tickets/${t.id}`,
    );
    expect(puts).toHaveLength(1);
    // A second take would have been told "already the agent".
    expect(ephemeralsOf(f, people.alice.id, 'CRX6')).toEqual([]);
  });
});

describe('reactions in Socket Mode', () => {
  const f = {} as BotFixture;
  useBot(f, { socket: true });

  it('👀 over the socket takes the ticket', async () => {
    await reactionsOn(f, 'CRXS');
    const t = freshTicket(f, 'open');
    const card = await cardOf(f, t, 'CRXS');
    const ack = await f.event(f.slack.react(people.alice.id, 'CRXS', card.ts, 'eyes'));
    expect(ack.status).toBe(200);
    await eventually(() =>
      expect(f.platform.sim.state.tickets.get(t.id)?.agentId).toBe(simUser(f, 'alice').id),
    );
  });
});
