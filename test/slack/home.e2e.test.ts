import { beforeAll, describe, expect, it } from 'vitest';
import { homeLimits } from '../../src/blocks/home.js';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit } from '../../src/blocks/limits.js';
import { movesFor } from '../../src/domain/ticket-workflow.js';
import type { SimUser } from '../../src/sim/model.js';
import {
  type BotFixture,
  botNow,
  buttonClick,
  eventually,
  people,
  useBot,
  viewClick,
} from '../helpers/bot.js';

const f = {} as BotFixture;
/** Under a loaded CI machine a Home's publish can take seconds: waits are generous. */
const soon = <T>(check: () => T | undefined | false | Promise<T | undefined | false>) =>
  eventually(check, 15_000);
useBot(f);

const simUser = (email: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.email === email) as SimUser;

/** Opens a person's Home and waits for the view that shows `until` (the fresh one, after the kept one). */
async function openHome(user: string, until: (json: string) => boolean) {
  await f.event({ type: 'app_home_opened', user, tab: 'home', channel: 'D1' });
  return eventually(() => {
    const home = f.slack.homes.get(user);
    const json = JSON.stringify(home ?? {});
    return home && until(json) ? { home, json } : undefined;
  }, 15_000);
}

const homeClick = (user: string, actionId: string, value: string) =>
  f.interact(viewClick(f.slack, { user, actionId, value, view: { id: `VHOME${user}`, type: 'home' } }));

/** The tickets Alice's Home shows, in its order (read from its move buttons). */
const shownTickets = () => [
  ...new Set(
    [...JSON.stringify(f.slack.homes.get(people.alice.id)).matchAll(/ticket_move:\w+:(\d+)/g)].map((m) =>
      Number(m[1]),
    ),
  ),
];
let firstTicket = 0;

/** The first move Home offers for a ticket (its state's first), and the state it leads to. */
function firstMoveOf(id: number, json = JSON.stringify(f.slack.homes.get(people.alice.id))) {
  const found = new RegExp(`ticket_move:(\\w+):${id}"`).exec(json)?.[1];
  return {
    id: found,
    to: movesFor(f.platform.sim.state.tickets.get(id)?.state).find((m) => m.id === found)?.to,
  };
}

beforeAll(() => {
  // A busy agent: 500 tickets and 200 upcoming conferences of her own.
  const { state } = f.platform.sim;
  const alice = simUser(people.alice.email);
  for (let i = 0; i < 500; i++) {
    state.createTicket(alice, {
      emails: ['pat@example.com'],
      phones: [],
      subject: `Busy ${i}`,
      reference: `BUSY-${i}`,
      agentId: alice.id,
      invite: false,
    });
  }
  for (let i = 0; i < 200; i++)
    state.createConference(alice, {
      name: `Standup ${i}`,
      participants: [people.alice.email],
      startTime: botNow.getTime() + (i + 1) * 3_600_000,
      invite: false,
    });
});

describe('App Home', () => {
  it('shows an agent with 500 tickets and 200 conferences the first few of each, within Slack’s limits', async () => {
    const { home, json } = await openHome(
      people.alice.id,
      (j) => j.includes('Standup') && j.includes('Busy') && !j.includes('Loading'),
    );
    expect(checkBlockKit(home, 'home')).toEqual([]);
    expect(json.match(/"action_id":"conference_join(_link)?:/g)?.length).toBe(homeLimits.conferences);
    expect(json).toContain('More in `/conference list`');
    expect(json).toContain('More in `/ticket list`');
    expect(json).toContain(`ticket_move:accept:`);
    // Her account and role; no enterprise overview for an agent.
    expect(json).toContain('alice@acme.example');
    expect(json).not.toContain('Your enterprise');
    // Her tools: the media library and her own password, not the admins' People and Groups.
    expect(json).toContain(`"action_id":"${ids.actions.mediaOpen}"`);
    expect(json).toContain(`"action_id":"${ids.actions.passwordResetOwn}"`);
    expect(json).not.toContain(`"action_id":"${ids.actions.peopleOpen}"`);
    expect(shownTickets()).toHaveLength(homeLimits.tickets);
    firstTicket = shownTickets()[0] as number;
  });

  it('shows no reminder settings where reminders are off (REMINDER_INTERVAL=0, as in this bot)', async () => {
    const { json } = await openHome(people.alice.id, (j) => j.includes('"type":"home"'));
    expect(json).not.toContain('home_reminders');
    expect(json).not.toContain('Conference reminders');
  });

  it('costs no platform read when opened again within the minute', async () => {
    const from = f.platform.sim.requests.length;
    const published = f.slack.callsOf('views.publish').length;
    await f.event({ type: 'app_home_opened', user: people.alice.id, tab: 'home', channel: 'D1' });
    await soon(() => f.slack.callsOf('views.publish').length > published);
    await new Promise((r) => setTimeout(r, 300));
    expect(f.platform.sim.requests.slice(from).map((r) => r.path)).toEqual([]);
  });

  it('moves a ticket from Home through the card’s route, and shows its new state there', async () => {
    const move = firstMoveOf(firstTicket);
    const res = await homeClick(
      people.alice.id,
      `${ids.actions.ticketMove}:${move.id}:${firstTicket}`,
      String(firstTicket),
    );
    expect(res.status).toBe(200);
    await soon(() => f.platform.sim.state.tickets.get(firstTicket)?.state === move.to);
    // Home is published again from the change: the ticket now offers the moves of its new state.
    await soon(() => firstMoveOf(firstTicket).id !== move.id);
    expect(firstMoveOf(firstTicket).id).toBe(movesFor(move.to)[0]?.id);
  });

  it('refreshes Home when someone else moves the ticket on its card in a channel', async () => {
    const id = shownTickets()[1] as number;
    const ref = f.platform.sim.state.tickets.get(id)?.reference as string;
    const before = firstMoveOf(id).id;
    await f.command(`show ${ref}`, people.admin.id, 'CHOME', '/ticket');
    const card = await soon(() =>
      f.slack.messages.find((m) => m.channel === 'CHOME' && String(m.text).startsWith(ref)),
    );
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: `${ids.actions.ticketMove}:${before}`,
        value: String(id),
        channel: 'CHOME',
        ts: card.ts,
      }),
    );
    await soon(() => firstMoveOf(id).id !== before);
  });

  it('shows a change the platform reports (a scan’s or webhook’s version) on the Homes that list the ticket', async () => {
    const id = shownTickets()[3] as number;
    const sim = f.platform.sim.state;
    const ticket = sim.tickets.get(id);
    if (!ticket) throw new Error('no ticket');
    const before = firstMoveOf(id).id;
    sim.setTicketState(ticket, 'inprogress', 'agent');
    // What the poller and the webhooks hand the publisher: the ticket's new record.
    const record = await f.platform.client.getTicket({ ticketId: String(id) });
    const published = f.slack.callsOf('views.publish').length;
    await f.confdesk.deps.publisher.ticketChanged({ ticket: record, previous: undefined });
    await soon(() => firstMoveOf(id).id !== before);
    expect(f.slack.callsOf('views.publish').length).toBe(published + 1);
  });

  it('refuses a move from Home to someone outside the ticket’s team, and changes nothing', async () => {
    const id = shownTickets()[2] as number;
    const before = f.platform.sim.state.tickets.get(id)?.state;
    const dms = f.slack.messages.filter((m) => m.channel === people.bob.id).length;
    await homeClick(people.bob.id, `${ids.actions.ticketMove}:${firstMoveOf(id).id}:${id}`, String(id));
    // Home clicks have no response_url: the refusal goes to the person's DM with the bot.
    const told = await soon(() => f.slack.messages.filter((m) => m.channel === people.bob.id)[dms]);
    expect(String(told.text)).toContain('You cannot');
    expect(f.platform.sim.state.tickets.get(id)?.state).toBe(before);
  });

  it('lists the subscriptions a person set up, removes one with Remove, and keeps others’ from a forged click', async () => {
    await f.store.addSubscription({
      id: '5d9e2c1a-0000-4000-8000-000000000001',
      channel: 'CSUBS',
      kind: 'follow',
      ticketId: undefined,
      filter: { search: 'router' },
      createdBy: people.alice.id,
    });
    f.slack.homes.delete(people.alice.id);
    const { json } = await openHome(people.alice.id, (j) => j.includes('CSUBS'));
    expect(json).toContain(`${ids.actions.homeSubscriptionRemove}:5d9e2c1a-0000-4000-8000-000000000001`);
    // Bob forges Alice's subscription id: it is not his, nothing is removed.
    await homeClick(
      people.bob.id,
      ids.actions.homeSubscriptionRemove,
      '5d9e2c1a-0000-4000-8000-000000000001',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await f.store.subscriptionsBy(people.alice.id)).toHaveLength(1);
    await homeClick(
      people.alice.id,
      ids.actions.homeSubscriptionRemove,
      '5d9e2c1a-0000-4000-8000-000000000001',
    );
    await soon(async () => (await f.store.subscriptionsBy(people.alice.id)).length === 0);
    await soon(() => !JSON.stringify(f.slack.homes.get(people.alice.id)).includes('CSUBS'));
  });

  it('shows a conference planned from Slack on the Homes it concerns', async () => {
    await openHome(people.alice.id, (j) => j.includes('Standup'));
    const res = await f.command(
      `${people.alice.email} today 11:30 30m "Fresh plan"`,
      people.admin.id,
      'CHOMECONF',
    );
    expect(res.status).toBe(200);
    await soon(() => JSON.stringify(f.slack.homes.get(people.alice.id)).includes('Fresh plan'));
  });

  it('shows an admin the enterprise at a glance and the doctor’s verdict', async () => {
    const { json } = await openHome(
      people.admin.id,
      (j) => j.includes('Your enterprise') && j.includes('doctor finds'),
    );
    const users = [...f.platform.sim.state.users.values()].filter(
      (u) => u.enterpriseId === 1 && !u.deleted,
    ).length;
    expect(json).toContain(`*Users*\\n${users}`);
    for (const tool of [ids.actions.peopleOpen, ids.actions.groupsOpen, ids.actions.mediaOpen])
      expect(json).toContain(`"action_id":"${tool}"`);
  });

  it('shows an admin the dead letters and requeues them on a click; an agent’s click changes nothing', async () => {
    await f.store.advance([{ ticketId: '77', eventId: 'dead-1', channel: 'CDEAD', payload: {} }]);
    const [item] = await f.store.claim('home-test', 1, 60_000);
    if (!item) throw new Error('nothing claimed');
    await f.store.settle(item, { status: 'dead', reason: 'not_in_channel' });
    f.slack.homes.delete(people.admin.id);
    await openHome(people.admin.id, (j) => j.includes(ids.actions.homeRequeueDead));
    const dms = f.slack.messages.filter((m) => m.channel === people.alice.id).length;
    await homeClick(people.alice.id, ids.actions.homeRequeueDead, '');
    await soon(() => f.slack.messages.filter((m) => m.channel === people.alice.id)[dms]);
    expect(await f.store.deadLetterCount()).toBe(1);
    await homeClick(people.admin.id, ids.actions.homeRequeueDead, '');
    await soon(async () => (await f.store.deadLetterCount()) === 0);
    await soon(
      () => !JSON.stringify(f.slack.homes.get(people.admin.id)).includes(ids.actions.homeRequeueDead),
    );
  });

  it('is written in each person’s Slack language: French for a fr-FR person, English for an en-US one', async () => {
    // Bob's platform account, under a Slack id whose profile says French.
    f.slack.addUser({ id: 'UBOBFR', email: people.bob.email, locale: 'fr-FR' });
    f.slack.addUser({ id: 'UBOBEN', email: people.bob.email, locale: 'en-US' });
    const fr = await openHome(
      'UBOBFR',
      (j) => j.includes('Vos tickets ouverts') && !j.includes('Chargement'),
    );
    expect(fr.json).toContain('Planifiez des visioconférences');
    expect(fr.json).toContain('Vos prochaines conférences');
    expect(fr.json).toContain('"text":"Nouvelle conférence"');
    expect(fr.json).toContain('trouvé par votre e-mail Slack');
    expect(fr.json).not.toContain('Your open tickets');
    expect(fr.json).not.toContain('New conference');
    const en = await openHome('UBOBEN', (j) => j.includes('Your open tickets') && !j.includes('Loading'));
    expect(en.json).toContain('"text":"New conference"');
    expect(en.json).toContain('found by your Slack e-mail');
    expect(en.json).not.toContain('Vos tickets ouverts');
  });

  it('shows a person without a platform account how to get one, and nothing else of the platform', async () => {
    const { json } = await openHome(people.nobody.id, (j) => j.includes('confdesk'));
    expect(json).toContain('has no account on the video platform');
    expect(json).not.toContain('Your open tickets');
    expect(json).not.toContain(ids.actions.conferenceNew);
  });
});
