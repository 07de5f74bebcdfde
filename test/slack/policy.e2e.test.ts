import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { type Action, decide, type Person, policy, type Subject } from '../../src/domain/policy.js';
import type { SimUser } from '../../src/sim/model.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';
import { suggestion } from '../helpers/suggest.js';

/*
 * The authorization matrix, generated from the policy table: every action of `policy` × every kind of
 * person, done as that person would, with signed requests through the real receiver against the
 * simulator. Who may is worked out from the table and the simulator's own records (not from the bot's
 * identity code); a refusal must say the table's sentence and leave the platform untouched: no write,
 * and no read beyond finding out who the person is and the object asked about.
 */

const f = {} as BotFixture;
useBot(f);
beforeAll(() => {
  f.slack.addUser(carol);
});

type Json = Record<string, unknown>;
const carol = { id: 'UCAROL', email: 'carol@acme.example', tz: 'Europe/Paris' };
/** admin (admin), alice (agent, Level 1), bob (agent, Level 1), carol (agent, Level 2), nobody (no account). */
const everyone = [people.admin, people.alice, people.bob, carol, people.nobody] as const;
type Who = (typeof everyone)[number];

const simUser = (username: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === username) as SimUser;
const level1 = () =>
  [...f.platform.sim.state.groups.values()].find((g) => g.name === 'Level 1')?.id as number;

/** The person as the policy sees them, from the simulator's records. */
function personOf(who: Who): Person {
  const u = [...f.platform.sim.state.users.values()].find((x) => x.email === who.email);
  return {
    slackId: who.id,
    account: u && {
      id: String(u.id),
      role: u.role,
      email: u.email ?? '',
      groupIds: u.groups.map(String),
    },
  };
}

let serial = 0;
/** A fresh ticket of Level 1 whose agent is alice, in the state `new`. */
function freshTicket() {
  const alice = simUser('alice');
  return f.platform.sim.state.createTicket(alice, {
    reference: `POL-${++serial}`,
    subject: 'Policy check',
    agentId: alice.id,
    groupId: level1(),
    emails: ['jane.doe@example.com'],
    phones: [],
    invite: false,
  });
}
const ticketSubject = (t: { agentId?: number | undefined; groupId?: number | undefined }): Subject => ({
  kind: 'ticket',
  agentId: t.agentId === undefined ? undefined : String(t.agentId),
  groupId: t.groupId === undefined ? undefined : String(t.groupId),
});

/** A fresh conference moderated by carol, with alice as its only participant. */
function freshConference() {
  const c = f.platform.sim.state.createConference(simUser('carol'), {
    name: `Policy ${++serial}`,
    participants: ['alice@acme.example'],
    startTime: Date.now() + 3_600_000,
    invite: false,
  });
  const subject: Subject = {
    kind: 'conference',
    moderatorId: String(c.moderatorId),
    participants: c.participants,
  };
  return { id: String(c.id), subject };
}

/** What the person was told after an action: every reply, view and message that followed it. */
async function toldAfter(act: () => Promise<unknown>, user: string): Promise<string> {
  const marks = {
    responses: f.slack.responses.length,
    messages: f.slack.messages.length,
    opens: f.slack.callsOf('views.open').length,
    updates: f.slack.callsOf('views.update').length,
    publishes: f.slack.callsOf('views.publish').length,
    ephemerals: f.slack.callsOf('chat.postEphemeral').length,
  };
  const since = () => [
    ...f.slack.responses.slice(marks.responses).map((r) => r.body),
    ...f.slack.messages
      .slice(marks.messages)
      .filter((m) => String(m.text).includes(`<@${user}>`) || String(m.text).startsWith('Timeline of')),
    ...f.slack.callsOf('views.open').slice(marks.opens),
    ...f.slack.callsOf('views.update').slice(marks.updates),
    ...f.slack.callsOf('views.publish').slice(marks.publishes),
    ...f.slack.callsOf('chat.postEphemeral').slice(marks.ephemerals),
  ];
  // A "Working…"/"Loading…" step is not an answer: wait for what comes after it.
  const working =
    /(Working|Looking up|Loading|Creating|Saving|Exporting|Deleting|Searching|Sending|Opening)[^"]*…/;
  const ack = await act();
  const acked = ack && typeof ack === 'object' && 'body' in ack ? (ack as { body: unknown }).body : undefined;
  const answered = (x: unknown) => !working.test(JSON.stringify(x));
  // Answered in the ack itself (help, inline form errors).
  if (acked && answered(acked) && /"(errors|text)"/.test(JSON.stringify(acked))) return JSON.stringify(acked);
  await eventually(() => since().some(answered), 8_000);
  await new Promise((r) => setTimeout(r, 100)); // what the same answer sends alongside (modal + ephemeral)
  return JSON.stringify([acked, ...since()]);
}

const command =
  (who: Who, name: '/conference' | '/ticket', text: string, channel = 'CPOL') =>
  () =>
    f.command(text, who.id, channel, name);
const click = (who: Who, actionId: string, value: string, where: { channel: string; ts?: string }) => () =>
  f.interact(
    buttonClick(f.slack, {
      user: who.id,
      actionId,
      value,
      ephemeral: true,
      channel: where.channel,
      ...(where.ts ? { ts: where.ts } : {}),
    }),
  );

/** A click on a fresh conference's card button. */
async function onConferenceCard(who: Who, actionId: string) {
  const c = freshConference();
  return { subject: c.subject, act: click(who, actionId, c.id, { channel: 'CPOL' }) };
}

/** A ticket's card posted by the admin (who may), for the doors that are buttons on it. */
async function cardOf(reference: string): Promise<SlackMessage> {
  await f.command(`show ${reference}`, people.admin.id, 'CPOL', '/ticket');
  return eventually(() =>
    f.slack.messages.find(
      (m) => m.channel === 'CPOL' && !m.thread_ts && String(m.text).startsWith(reference),
    ),
  );
}
async function onCard(who: Who, actionId: string) {
  const t = freshTicket();
  const card = await cardOf(t.reference as string);
  return { subject: ticketSubject(t), act: click(who, actionId, String(t.id), card) };
}
async function menu(who: Who, entry: string) {
  const t = freshTicket();
  const card = await cardOf(t.reference as string);
  const payload = buttonClick(f.slack, {
    user: who.id,
    actionId: ids.actions.ticketMenu,
    value: '',
    channel: card.channel,
    ts: card.ts,
    ephemeral: true,
  });
  (payload as Json).actions = [
    {
      type: 'overflow',
      action_id: ids.actions.ticketMenu,
      block_id: 'b',
      selected_option: { value: `${entry}:${t.id}`, text: { type: 'plain_text', text: entry } },
      action_ts: '1',
    },
  ];
  return { subject: ticketSubject(t), act: () => f.interact(payload) };
}

/** A form opened by the admin (who may), then submitted as `who`: a forged submission is the worst case. */
async function formOpenedByAdmin(name: '/conference' | '/ticket') {
  const updates = f.slack.callsOf('views.update').length;
  const opens = f.slack.callsOf('views.open').length;
  await f.command('', people.admin.id, 'CPOL', name);
  const form = await eventually(() => {
    const v = [...f.slack.views.values()].at(-1)?.view as Json | undefined;
    const fresh = f.slack.callsOf('views.open').length > opens;
    const ready = name === '/conference' || f.slack.callsOf('views.update').length > updates;
    return fresh && ready && v && v.callback_id !== ids.views.working && v;
  });
  return form as Json;
}

interface Door {
  /** What the action is about (the policy's subject), and the action done as `who`. */
  setup(who: Who): Promise<{ subject?: Subject; act: () => Promise<unknown>; also?: Action[] }>;
}

// issue 22: people
/** A modal of the People screens, as the double holds it, for a forged click or submission in it. */
function peopleModal(callbackId: string, privateMetadata = '') {
  const id = `VPOL${++serial}`;
  const view = { id, type: 'modal', callback_id: callbackId, private_metadata: privateMetadata, blocks: [] };
  f.slack.views.set(id, { id, view });
  return view;
}
const typed = (value: string) => ({ value: { type: 'plain_text_input', value } });
/** A click on a person's row menu in the People browser (carol's row). */
function personMenuClick(who: Who, entry: 'show' | 'reset') {
  const view = peopleModal(ids.views.peopleBrowser, '{"q":"","o":0}');
  const userId = simUser('carol').id;
  const payload = buttonClick(f.slack, {
    user: who.id,
    actionId: ids.actions.personMenu,
    value: '',
    channel: 'CPOL',
  });
  (payload as Json).view = { ...view, hash: 'h' };
  (payload as Json).actions = [
    {
      type: 'overflow',
      action_id: `${ids.actions.personMenu}:${userId}`,
      block_id: 'b',
      selected_option: { value: `${entry}:${userId}`, text: { type: 'plain_text', text: entry } },
      action_ts: '1',
    },
  ];
  return { act: () => f.interact(payload) };
}

/** One door per action of the table: the compiler makes sure a new action gets one. */
const doors: Record<Action, Door> = {
  help: { setup: async (who) => ({ act: command(who, '/conference', 'help') }) },
  'conference.create': {
    setup: async (who) => ({
      act: command(who, '/conference', `jane.doe@example.com tomorrow 3pm "Planned by ${who.id}"`),
    }),
  },
  'conference.moderate-other': {
    setup: async (who) => {
      const form = await formOpenedByAdmin('/conference');
      const other = who.id === people.alice.id ? people.bob : people.alice;
      const values = formState(form, {
        participants: 'jane.doe@example.com',
        moderator: { selected_user: other.id },
      });
      return {
        subject: {
          kind: 'moderator',
          moderatorId: String(simUser(other === people.bob ? 'bob' : 'alice').id),
        },
        also: ['conference.create'],
        act: () => f.interact(submission(form, who.id, values)),
      };
    },
  },
  'conference.list': { setup: async (who) => ({ act: command(who, '/conference', 'list') }) },
  'conference.see': {
    setup: async (who) => {
      const c = freshConference();
      return { subject: c.subject, act: command(who, '/conference', `show ${c.id}`) };
    },
  },
  'conference.join': { setup: (who) => onConferenceCard(who, ids.actions.conferenceJoin) },
  'conference.media': { setup: (who) => onConferenceCard(who, ids.actions.conferenceMedia) },
  'conference.edit': { setup: (who) => onConferenceCard(who, ids.actions.conferenceEdit) },
  'conference.delete': { setup: (who) => onConferenceCard(who, ids.actions.conferenceDelete) },
  'ticket.create': {
    setup: async (who) => {
      const form = await formOpenedByAdmin('/ticket');
      // The agent menu is a type-ahead: the person picks themselves (a value the options answer).
      const own = personOf(who).account?.id;
      const values = formState(form, {
        emails: 'jane.doe@example.com',
        subject: `Created by ${who.id}`,
        agent: own
          ? { selected_option: { value: own, text: { type: 'plain_text', text: who.id } } }
          : undefined,
      });
      return { act: () => f.interact(submission(form, who.id, values)) };
    },
  },
  'ticket.assign': {
    setup: async (who) => {
      const form = await formOpenedByAdmin('/ticket');
      const group = { value: String(level1()), text: { type: 'plain_text', text: 'Level 1' } };
      const values = formState(form, {
        emails: 'jane.doe@example.com',
        subject: `Assigned by ${who.id}`,
        groupId: { selected_option: group },
        // The admin's form preselects the admin as agent: someone else, for everyone but the admin.
      });
      return {
        subject: { kind: 'group', groupId: String(group.value) },
        also: ['ticket.create'],
        act: () => f.interact(submission(form, who.id, values)),
      };
    },
  },
  'ticket.see': {
    setup: async (who) => {
      const t = freshTicket();
      return { subject: ticketSubject(t), act: command(who, '/ticket', `show ${t.reference}`) };
    },
  },
  'ticket.join': { setup: (who) => onCard(who, ids.actions.ticketJoin) },
  'ticket.move': { setup: (who) => onCard(who, `${ids.actions.ticketMove}:accept`) },
  'ticket.edit': { setup: (who) => menu(who, 'edit') },
  'ticket.delete': { setup: (who) => menu(who, 'delete') },
  'ticket.export': { setup: (who) => menu(who, 'export') },
  'ticket.timeline': { setup: (who) => menu(who, 'timeline') },
  'ticket.media': { setup: (who) => menu(who, 'media') },
  'ticket.watch': {
    setup: async (who) => {
      const t = freshTicket();
      return { subject: ticketSubject(t), act: command(who, '/ticket', `watch ${t.reference}`) };
    },
  },
  'ticket.list-mine': { setup: async (who) => ({ act: command(who, '/ticket', 'list') }) },
  'ticket.list-group': {
    setup: async (who) => ({
      subject: { kind: 'group', groupId: String(level1()) },
      also: ['ticket.list-mine'],
      act: command(who, '/ticket', 'list group Level 1'),
    }),
  },
  'ticket.list-all': {
    setup: async (who) => ({ also: ['ticket.list-mine'], act: command(who, '/ticket', 'list all') }),
  },
  'ticket.follow-group': {
    setup: async (who) => ({
      subject: { kind: 'group', groupId: String(level1()) },
      act: command(who, '/ticket', 'follow group:"Level 1"', `CF${++serial}`),
    }),
  },
  'ticket.follow-all': {
    setup: async (who) => ({ act: command(who, '/ticket', 'follow type:support', `CF${++serial}`) }),
  },
  'subscription.list': { setup: async (who) => ({ act: command(who, '/ticket', 'subscriptions') }) },
  // issue 37: reactions
  'channel.reactions': {
    setup: async (who) => ({ act: command(who, '/ticket', 'follow reactions', `CR${++serial}`) }),
  },
  'subscription.remove': {
    setup: async (who) => {
      const channel = `CS${++serial}`;
      const id = `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
      await f.store.addSubscription({
        id,
        channel,
        kind: 'follow',
        ticketId: undefined,
        filter: { type: 'support' },
        createdBy: people.bob.id,
      });
      return {
        subject: { kind: 'subscription', createdBy: people.bob.id },
        act: click(who, `${ids.actions.ticketUnsubscribe}:${id}`, id, { channel }),
      };
    },
  },
  'digest.set': {
    setup: async (who) => ({ act: command(who, '/conference', 'digest at 9:00', `CD${++serial}`) }),
  },
  'digest.list': { setup: async (who) => ({ act: command(who, '/conference', 'digest list') }) },
  'digest.remove': {
    setup: async (who) => {
      const channel = `CD${++serial}`;
      await f.store.addDigestSchedule({
        id: `00000000-0000-4000-9000-${String(serial).padStart(12, '0')}`,
        channel,
        zone: 'Europe/Paris',
        time: '09:00',
        weekdays: [1, 2, 3, 4, 5],
        createdBy: people.admin.id,
      });
      return { act: command(who, '/conference', 'digest off', channel) };
    },
  },
  'digest.preview': { setup: async (who) => ({ act: command(who, '/conference', 'digest now') }) },
  // issue 22: pickers
  'directory.search': {
    setup: async (who) => ({ act: () => f.interact(suggestion(who.id, ids.options.agents, 'a')) }),
  },
  'identity.link': {
    setup: async (who) => ({
      // Links bob to his own account (what e-mail matching finds anyway): the other tests see no change.
      act: command(who, '/conference', `admin link <@${people.bob.id}> bob`),
    }),
  },
  'admin.doctor': { setup: async (who) => ({ act: command(who, '/conference', 'admin doctor') }) },
  // issue 22: people
  'people.list': { setup: async (who) => ({ act: command(who, '/conference', 'admin people') }) },
  'people.see': { setup: async (who) => personMenuClick(who, 'show') },
  'people.create': {
    setup: async (who) => {
      const view = peopleModal(ids.views.personCreate);
      const values = {
        username: typed(`policy${++serial}`),
        user_password: typed('Policy-Secret-1'),
        email: typed(`policy${serial}@acme.example`),
      };
      return { act: () => f.interact(submission(view, who.id, values)) };
    },
  },
  'people.edit': {
    setup: async (who) => {
      const view = peopleModal(ids.views.personEdit, JSON.stringify({ u: String(simUser('carol').id) }));
      const values = { jobTitle: typed(`Edited by ${who.id}`) };
      return { act: () => f.interact(submission(view, who.id, values)) };
    },
  },
  'people.delete': {
    setup: async (who) => {
      const doomed = f.platform.sim.state.addUser({
        enterpriseId: 1,
        username: `doomed${++serial}`,
        password: 'x',
        email: `doomed${serial}@acme.example`,
        cellPhone: undefined,
        firstName: 'Doomed',
        lastName: String(serial),
        role: 'agent',
        groups: [],
      });
      const view = peopleModal(ids.views.personDelete, JSON.stringify({ u: String(doomed.id) }));
      return { act: () => f.interact(submission(view, who.id, {})) };
    },
  },
  'groups.list': { setup: async (who) => ({ act: command(who, '/conference', 'admin groups') }) },
  'password.reset-own': { setup: async (who) => ({ act: command(who, '/conference', 'password') }) },
  'password.reset-any': {
    setup: async (who) => ({
      act: command(who, '/conference', `password ${who.id === carol.id ? 'alice' : 'carol'}`),
    }),
  },
  'home.view': {
    setup: async (who) => ({
      act: () => f.event({ type: 'app_home_opened', user: who.id, tab: 'home', channel: 'D1' }),
    }),
  },
  'outbox.requeue': {
    setup: async (who) => ({ act: click(who, ids.actions.homeRequeueDead, '', { channel: 'D1' }) }),
  },
  'home.new-conference': {
    setup: async (who) => ({ act: click(who, ids.actions.conferenceNew, '', { channel: 'D1' }) }),
  },
  'reminders.set': {
    setup: async (who) => ({ act: click(who, ids.actions.reminderLead, '15', { channel: 'D1' }) }),
  },
  // issue 22: media
  'media.list': { setup: async (who) => ({ act: command(who, '/conference', 'media') }) },
  'media.list-all': {
    setup: async (who) => ({ also: ['media.list'], act: command(who, '/conference', 'media user:all') }),
  },
  'media.see': { setup: (who) => mediaRow(who, 'show') },
  'media.edit': { setup: (who) => mediaRow(who, 'edit') },
  'media.delete': { setup: (who) => mediaRow(who, 'delete') },
  'media.share': { setup: (who) => mediaRow(who, 'share') },
};

/** A fresh media of carol's (group Level 2), and a library row's menu entry on it, as `who`, in a library modal. */
async function mediaRow(who: Who, verb: string) {
  const carolUser = simUser('carol');
  const m = f.platform.sim.state.addMedia({
    enterpriseId: 1,
    userId: carolUser.id,
    type: 'snapshot',
    title: `Policy media ${++serial}`,
    format: 'image/png',
    content: { kind: 'bytes', data: Buffer.from('png') },
  });
  const library = { type: 'modal', callback_id: ids.views.mediaLibrary, private_metadata: '{"q":"","o":0}' };
  const viewId = f.slack.pushModal(who.id, {
    ...library,
    title: { type: 'plain_text', text: 'Media library' },
  });
  const payload = buttonClick(f.slack, {
    user: who.id,
    actionId: ids.actions.mediaRow,
    value: '',
    channel: 'CPOL',
  });
  Object.assign(payload as Json, {
    container: { type: 'view', view_id: viewId },
    view: { id: viewId, hash: 'h', ...library },
    actions: [
      {
        type: 'overflow',
        action_id: `${ids.actions.mediaRow}:${m.id}`,
        block_id: 'b',
        selected_option: { value: `${verb}:${m.id}`, text: { type: 'plain_text', text: verb } },
        action_ts: '1',
      },
    ],
  });
  const subject: Subject = { kind: 'media', ownerId: String(carolUser.id), groupId: String(m.groupId) };
  return { subject, act: () => f.interact(payload) };
}

/** Reads the bot may make to refuse: who the person is (identity) and the object asked about. */
const decisionRead =
  /^\/api\/v3\/(users\/(id|me)|enterprises\/\d+\/(users|groups)|groups|tickets\/\d+|tickets|conferences\/\d+|medias\/\d+)$/;

describe('the authorization matrix, generated from the policy table', () => {
  it('covers every action of the table', () => {
    expect(Object.keys(doors).sort()).toEqual(Object.keys(policy).sort());
  });

  for (const action of Object.keys(policy) as Action[])
    for (const who of everyone)
      it(`${action} as ${who.id}: allowed exactly when the table says, refused with its sentence and no platform write`, async () => {
        const { subject, act, also = [] } = await doors[action].setup(who);
        const person = personOf(who);
        const decisions = [...also, action].map((a) => decide(a, person, a === action ? subject : undefined));
        const refusal = decisions.find((d) => !d.allowed);
        const logFrom = f.platform.sim.requests.length;
        const told = await toldAfter(act, who.id);
        const requests = f.platform.sim.requests.slice(logFrom);
        if (!refusal) {
          expect(told).not.toContain('You cannot');
          // Those without an account are told how to get one wherever they may look (App Home).
          if (person.account) expect(told).not.toContain('has no account on the video platform');
          return;
        }
        if (!person.account) expect(told).toContain('has no account on the video platform');
        else expect(told).toContain(JSON.stringify((refusal as { why: string }).why).slice(1, -1));
        expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);
        expect(requests.filter((r) => !decisionRead.test(r.path)).map((r) => r.path)).toEqual([]);
        // Lists of tickets are read only to find the one asked about, by its reference.
        for (const r of requests.filter((x) => x.path === '/api/v3/tickets'))
          expect(r.query.reference).toBeDefined();
      });
});
