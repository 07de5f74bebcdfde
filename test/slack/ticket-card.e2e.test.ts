import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { movesFor } from '../../src/domain/ticket-workflow.js';
import { ticketStates } from '../../src/platform/schemas.js';
import type { SimTicket } from '../../src/sim/model.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

const f = {} as BotFixture;
useBot(f);

const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;

/** `/ticket show <ref>` in a channel, as someone; resolves with the card message once posted. */
async function showCard(
  reference: string,
  channel: string,
  as: string = people.alice.id,
): Promise<SlackMessage> {
  const res = await f.command(`show ${reference}`, as, channel, '/ticket');
  expect(res.status).toBe(200);
  return eventually(() =>
    f.slack.messages.find(
      (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith(reference),
    ),
  );
}

const click = (card: SlackMessage, user: string, actionId: string, ticketId: number) =>
  f.interact(
    buttonClick(f.slack, { user, actionId, value: String(ticketId), channel: card.channel, ts: card.ts }),
  );

describe('the ticket card', () => {
  it('is posted by /ticket show with the ticket’s state, requestor, agent, group and join link', async () => {
    const card = await showCard('ACME-1001', 'CT1');
    const json = JSON.stringify(card.blocks);
    for (const text of [
      'Router does not boot',
      'Jane Doe',
      'jane.doe@example.com',
      'Alice Martin',
      'Level 1',
    ])
      expect(json).toContain(text);
    expect(json).toContain('"action_id":"ticket_join"');
    // The join links grant a role in the session: never in the channel, given privately on a click.
    expect(json).not.toContain('/assist/');
    expect(String(card.text)).not.toContain('/assist/');
    await click(card, people.alice.id, ids.actions.ticketJoin, ticket('ACME-1001').id);
    const links = await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? '').includes('/assist/')),
    );
    expect(links.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    await click(card, people.nobody.id, ids.actions.ticketJoin, ticket('ACME-1001').id);
    await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('has no account on the video platform')),
    );
    expect(f.slack.responses.filter((r) => JSON.stringify(r.body).includes('/assist/'))).toHaveLength(1);
  });

  it('offers each move of the table in each state, and each click moves the ticket and tells the thread', async () => {
    const card = await showCard('ACME-1001', 'CT2');
    const t = ticket('ACME-1001');
    let clicks = 0;
    for (const state of ticketStates) {
      for (const move of movesFor(state)) {
        t.state = state;
        t.agentId = 102; // bob: "Assign to me" by alice has something to change
        await click(card, people.alice.id, ids.actions.ticketRefresh, t.id);
        await eventually(() => String(card.text).endsWith(`: ${state}`));
        const offered = JSON.stringify(card.blocks);
        expect(offered).toContain(`ticket_move:${move.id}`);
        const thread = f.slack.messages.filter((m) => m.thread_ts === card.ts).length;
        await click(card, people.alice.id, `${ids.actions.ticketMove}:${move.id}`, t.id);
        await eventually(() => f.slack.messages.filter((m) => m.thread_ts === card.ts).length === thread + 1);
        if (move.to) expect(t.state).toBe(move.to);
        else expect(t.agentId).toBe(101);
        expect(card.text).toBe(`ACME-1001 — Router does not boot: ${t.state}`);
        const said = f.slack.messages.filter((m) => m.thread_ts === card.ts).at(-1);
        expect(said?.text).toContain('<@UALICE>');
        clicks++;
      }
    }
    expect(clicks).toBe(26);
  });

  it('refuses a move to someone outside the ticket’s agent, group and admins, and leaves the card alone', async () => {
    const card = await showCard('ACME-1004', 'CT3', people.admin.id);
    const t = ticket('ACME-1004');
    t.state = 'open';
    await click(card, people.admin.id, ids.actions.ticketRefresh, t.id);
    await eventually(() => String(card.text).endsWith(': open'));
    const before = JSON.stringify(card.blocks);
    await click(card, people.bob.id, `${ids.actions.ticketMove}:start`, t.id);
    const refusal = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('You cannot act on this ticket')),
    );
    expect(refusal.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(refusal.body.text).toContain('members of its group');
    expect(t.state).toBe('open');
    expect(JSON.stringify(card.blocks)).toBe(before);
    // Every move of the table, from every state it appears in, is refused to bob alike.
    let refused = f.slack.responses.filter((r) => String(r.body.text).startsWith('You cannot')).length;
    for (const state of ticketStates)
      for (const move of movesFor(state)) {
        t.state = state;
        await click(card, people.bob.id, `${ids.actions.ticketMove}:${move.id}`, t.id);
        refused++;
        await eventually(
          () =>
            f.slack.responses.filter((r) => String(r.body.text).startsWith('You cannot')).length === refused,
        );
        expect(t.state).toBe(state);
      }
    expect(t.agentId).toBe(103);
  });

  it('leaves the card as it was and says why when the platform refuses a move', async () => {
    const card = await showCard('ACME-1003', 'CT8');
    const t = ticket('ACME-1003');
    t.state = 'invited';
    await click(card, people.alice.id, ids.actions.ticketRefresh, t.id);
    await eventually(() => String(card.text).endsWith(': invited'));
    const before = JSON.stringify(card.blocks);
    f.platform.sim.setFaults({ failNext: 1, failNextStatus: 400, failNextMethod: 'PUT' });
    await click(card, people.alice.id, `${ids.actions.ticketMove}:start`, t.id);
    const said = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('Injected failure')),
    );
    expect(said.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(t.state).toBe('invited');
    expect(JSON.stringify(card.blocks)).toBe(before);
    f.platform.sim.setFaults({ failNextMethod: '' });
  });

  it('requires the platform admin role for everyone’s tickets, and membership for a group’s', async () => {
    const said = async (text: string, expected: string) => {
      const cmd = await f.command(text, people.bob.id, 'CT9', '/ticket');
      const path = new URL(cmd.responseUrl).pathname;
      await eventually(() =>
        f.slack.responses.find((r) => r.path === path && String(r.body.text).includes(expected)),
      );
    };
    await said('list all', 'for video platform admins');
    await said('list group Level 2', 'You cannot list this group’s tickets: only its members');
  });

  it('tells a person without a platform account how to get one', async () => {
    const card = await showCard('ACME-1002', 'CT4');
    await click(card, people.nobody.id, `${ids.actions.ticketMove}:assign`, ticket('ACME-1002').id);
    await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('has no account on the video platform')),
    );
  });

  it('refuses a move the ticket’s true state no longer offers, and shows that state', async () => {
    const card = await showCard('ACME-1002', 'CT5');
    const t = ticket('ACME-1002');
    t.state = 'done'; // changed elsewhere; the card still offers Start
    await click(card, people.alice.id, `${ids.actions.ticketMove}:start`, t.id);
    await eventually(() => f.slack.responses.find((r) => String(r.body.text).includes('is now *done*')));
    await eventually(() => String(card.text).endsWith(': done'));
    expect(t.state).toBe('done');
  });

  it('renders a state it does not know without crashing, offering only to take the ticket', async () => {
    const card = await showCard('ACME-1003', 'CT6');
    const t = ticket('ACME-1003');
    t.state = 'opened';
    await click(card, people.alice.id, ids.actions.ticketRefresh, t.id);
    await eventually(() => String(card.text).endsWith(': opened'));
    const moves = JSON.stringify(card.blocks).match(/ticket_move:\w+/g);
    expect(moves).toEqual(['ticket_move:assign']);
  });

  it('shown again in the same channel within the hour, is brought up to date and linked, not posted twice', async () => {
    const card = await showCard('ACME-1003', 'CT8');
    const t = ticket('ACME-1003');
    f.platform.sim.state.setTicketState(t, t.state === 'new' ? 'open' : 'new', 'agent');
    const updates = f.slack.callsOf('chat.update').filter((c) => c.args.ts === card.ts).length;
    expect((await f.command('show ACME-1003', people.alice.id, 'CT8', '/ticket')).status).toBe(200);
    const answer = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('ACME-1003 is already in this channel')),
    );
    // The link is Slack's permalink of the card; the person's "Looking up" message becomes it.
    expect(String(answer.body.text)).toContain(`/archives/CT8/p${card.ts.replace('.', '')}|its card>`);
    expect(answer.body.replace_original).toBe(true);
    expect(f.slack.messages.filter((m) => m.channel === 'CT8' && !m.thread_ts)).toHaveLength(1);
    // Brought up to date by the show itself (the scan may refresh it too, on its own time).
    expect(f.slack.callsOf('chat.update').filter((c) => c.args.ts === card.ts).length).toBeGreaterThan(
      updates,
    );
    expect(JSON.stringify(f.slack.messages.find((m) => m.ts === card.ts)?.blocks)).toContain(t.state);
    // A card deleted meanwhile is posted anew (the next show has nowhere to link to).
    f.slack.messages.splice(f.slack.messages.indexOf(card), 1);
    expect((await f.command('show ACME-1003', people.alice.id, 'CT8', '/ticket')).status).toBe(200);
    await eventually(() =>
      f.slack.messages.find((m) => m.channel === 'CT8' && !m.thread_ts && m.ts !== card.ts),
    );
  });

  it('answers the usage for what it does not know yet, and says when a reference does not exist', async () => {
    const usage = await f.command('frobnicate', people.alice.id, 'CT7', '/ticket');
    expect((usage.body as { text: string }).text).toContain('/ticket show');
    const missing = await f.command('show NOPE-1', people.alice.id, 'CT7', '/ticket');
    expect(missing.status).toBe(200);
    await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('No ticket has the reference “NOPE-1”')),
    );
  });
});

describe('creating a ticket', () => {
  type Json = Record<string, unknown>;
  const lastView = () => [...f.slack.views.values()].at(-1)?.view as Json;
  const openForm = async (text: string) => {
    const updates = f.slack.callsOf('views.update').length;
    await f.command(text, people.admin.id, 'CNEW', '/ticket');
    // A "Loading…" modal opens at once; the form replaces it once the groups and agents are read.
    await eventually(() => f.slack.callsOf('views.update').length > updates);
    const form = lastView();
    expect(form.callback_id).toBe(ids.views.ticketForm);
    return form;
  };

  it('opens the form from /ticket, creates the ticket with exactly what was given, and posts its card', async () => {
    const form = await openForm('');
    // The agent is preselected: the person, by their platform user, under their name.
    const agentBlock = (form.blocks as Json[]).find((b) => b.block_id === 'agent') as Json;
    expect(agentBlock.element).toMatchObject({
      type: 'external_select',
      action_id: ids.options.agents,
      initial_option: { value: '100', text: { text: 'Ada Admin (admin)' } },
    });
    // The agent and group menus are type-ahead, answered by the options handler.
    const agents = optionsOf((await f.interact(suggestion(people.admin.id, ids.options.agents, 'ali'))).body);
    expect(agents.map((o) => o.text.text)).toContain('Alice Martin (alice)');
    const groups = optionsOf(
      (await f.interact(suggestion(people.admin.id, ids.options.groups, 'level'))).body,
    );
    const level1 = groups.find((o) => o.text.text === 'Level 1') as unknown as Json;
    const values = formState(form, {
      emails: 'jane.doe@example.com',
      phones: '+33 6 12 34 56 78',
      subject: 'Printer on fire',
      groupId: { selected_option: level1 },
      country: 'fr',
    });
    const res = await f.interact(submission(form, people.admin.id, values));
    expect((res.body as Json).response_action).toBe('update');
    const post = await eventually(() =>
      f.platform.sim.requests.find(
        (r) => r.method === 'POST' && r.path === '/api/v3/tickets' && r.query.subject === 'Printer on fire',
      ),
    );
    expect(post.query).toMatchObject({
      email: 'jane.doe@example.com',
      phone: '+33612345678',
      groupId: String(level1.value),
      agent: '100',
      duration: '30',
      country: 'FR',
      invite: 'true',
    });
    const card = await eventually(() =>
      f.slack.messages.find((m) => m.channel === 'CNEW' && String(m.text).includes('Printer on fire')),
    );
    expect(JSON.stringify(card.blocks)).toContain('ticket_move:');
    await eventually(() =>
      f.slack.callsOf('views.update').find((c) => JSON.stringify(c.args.view).includes('follows it')),
    );
  });

  it('answers every broken rule under its input and creates nothing', async () => {
    const form = await openForm('');
    const before = f.platform.sim.requests.filter(
      (r) => r.method === 'POST' && r.path === '/api/v3/tickets',
    ).length;
    const res = await f.interact(
      submission(
        form,
        people.admin.id,
        formState(form, { emails: 'support@acme.example', phones: '0612', country: 'XX', duration: '0' }),
      ),
    );
    const body = res.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(Object.keys(body.errors).sort()).toEqual(['country', 'duration', 'emails', 'phones']);
    expect(body.errors.emails).toMatch(/shared mailboxes/);
    const none = await f.interact(submission(form, people.admin.id, formState(form, {})));
    expect((none.body as { errors: Record<string, string> }).errors.emails).toMatch(
      /at least one e-mail or phone/,
    );
    expect(
      f.platform.sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/tickets').length,
    ).toBe(before);
  });

  it('prefills the form from /ticket new <e-mail> <phone> <subject>', async () => {
    const form = await openForm(
      'new <mailto:li.wei@example.com|li.wei@example.com> +14155550100 Boiler makes noise',
    );
    const json = JSON.stringify(form);
    expect(json).toContain('"initial_value":"li.wei@example.com"');
    expect(json).toContain('"initial_value":"+14155550100"');
    expect(json).toContain('"initial_value":"Boiler makes noise"');
  });

  it('opens the form from a message, with the message and a link back as description', async () => {
    const updates = f.slack.callsOf('views.update').length;
    await f.interact({
      type: 'message_action',
      callback_id: ids.shortcuts.ticketFromMessage,
      trigger_id: 'trigger-msg',
      user: { id: people.admin.id },
      team: { id: f.slack.teamId },
      channel: { id: 'CMSG' },
      message_ts: '1700000000.000100',
      message: { type: 'message', text: 'My screen is black since this morning', ts: '1700000000.000100' },
      response_url: f.slack.responseUrl(),
      token: 'legacy',
    });
    await eventually(() => f.slack.callsOf('views.update').length > updates);
    const json = JSON.stringify(lastView());
    expect(json).toContain('My screen is black since this morning');
    expect(json).toContain('archives/CMSG/p1700000000000100');
    expect(json).toContain('"initial_conversation":"CMSG"');
  });
});

describe('the ticket card’s menu', () => {
  type Json = Record<string, unknown>;
  const menu = (card: SlackMessage, user: string, choice: string, ticketId: number) => {
    const payload = buttonClick(f.slack, {
      user,
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
  };

  it('posts the ticket’s timeline in the card’s thread', async () => {
    const card = await showCard('ACME-1004', 'CM1', people.admin.id);
    await menu(card, people.admin.id, 'timeline', ticket('ACME-1004').id);
    const timeline = await eventually(() =>
      f.slack.messages.find((m) => m.thread_ts === card.ts && String(m.text).startsWith('Timeline')),
    );
    const json = JSON.stringify(timeline.blocks);
    expect(json).toContain('ticket.new');
    expect(json).toContain('media.pictureTaken');
    expect(json).toMatch(/<!date\^\d+\^/);
  });

  it('edits only the fields that changed, updates the card in place and tells the thread', async () => {
    const card = await showCard('ACME-1002', 'CM2', people.bob.id);
    const t = ticket('ACME-1002');
    const opens = f.slack.callsOf('views.open').length;
    await menu(card, people.bob.id, 'edit', t.id);
    await eventually(() => f.slack.callsOf('views.open').length > opens);
    const form = await eventually(() => {
      const v = [...f.slack.views.values()].at(-1)?.view as Json;
      return v.callback_id === ids.views.ticketEdit && v;
    });
    expect(JSON.stringify(form)).toContain('"initial_value":"Boiler error E42"');
    await f.interact(submission(form, people.bob.id, formState(form, { subject: 'Boiler error E43' })));
    const put = await eventually(() =>
      f.platform.sim.requests.find(
        (r) => r.method === 'PUT' && r.path === `/api/v3/tickets/${t.id}` && r.query.subject,
      ),
    );
    expect(put.query).toEqual({ subject: 'Boiler error E43' });
    await eventually(() => JSON.stringify(card.blocks).includes('Boiler error E43'));
    await eventually(() =>
      f.slack.messages.find(
        (m) => m.thread_ts === card.ts && String(m.text).includes('edited the ticket: subject'),
      ),
    );
  });

  it('deletes after a private prompt whose button asks for confirmation', async () => {
    const card = await showCard('ACME-1006', 'CM3', people.bob.id);
    const t = ticket('ACME-1006');
    await menu(card, people.bob.id, 'delete', t.id);
    const prompt = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('Delete ACME-1006')),
    );
    const del = (prompt.body.blocks as Json[]).flatMap(
      (b) => (b.elements as Json[] | undefined) ?? [],
    )[0] as Json;
    expect(del.confirm).toBeDefined();
    await f.interact(
      buttonClick(f.slack, {
        user: people.bob.id,
        actionId: ids.actions.ticketDelete,
        value: del.value as string,
        channel: 'CM3',
        ephemeral: true,
      }),
    );
    await eventually(() => t.deleted !== undefined);
    await eventually(() => JSON.stringify(card.blocks).includes('Deleted by <@UBOB>'));
  });

  it('lists the ticket’s media privately and streams one into the card’s thread (files upload v2)', async () => {
    const card = await showCard('ACME-1004', 'CM5', people.admin.id);
    const t = ticket('ACME-1004');
    await menu(card, people.admin.id, 'media', t.id);
    const list = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('Media of ACME-1004')),
    );
    expect(list.body.response_type).toBe('ephemeral');
    const post = (list.body.blocks as Json[])
      .map((b) => b.accessory as Json | undefined)
      .find(Boolean) as Json;
    expect(String(post.action_id)).toMatch(/^ticket_media_post:/);
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: post.action_id as string,
        value: post.value as string,
        channel: 'CM5',
        ephemeral: true,
      }),
    );
    const shared = await eventually(() =>
      f.slack.messages.find(
        (m) => m.channel === 'CM5' && m.thread_ts === card.ts && (m.metadata as Json | undefined)?.files,
      ),
    );
    expect(shared.text).toContain('<@UADMIN> shared a file');
    const fileId = ((shared.metadata as Json).files as string[])[0] as string;
    const uploaded = f.slack.uploads.get(fileId);
    const media = [...f.platform.sim.state.medias.values()].find((m) => m.ticketId === t.id);
    expect(uploaded?.bytes?.length).toBe(f.platform.sim.state.mediaSize(media as never));
  });

  it('exports the ticket with its timeline into the card’s thread', async () => {
    const card = await showCard('ACME-1001', 'CM6', people.admin.id);
    const t = ticket('ACME-1001');
    const opens = f.slack.callsOf('views.open').length;
    await menu(card, people.admin.id, 'export', t.id);
    await eventually(() => f.slack.callsOf('views.open').length > opens);
    const form = [...f.slack.views.values()].at(-1)?.view as Json;
    expect(form.callback_id).toBe(ids.views.ticketExport);
    await f.interact(
      submission(
        form,
        people.admin.id,
        formState(form, {
          format: { selected_option: { value: 'csv', text: { type: 'plain_text', text: 'CSV' } } },
        }),
      ),
    );
    const request = await eventually(() =>
      f.platform.sim.requests.find((r) => r.method === 'POST' && r.path === `/api/v3/tickets/${t.id}/export`),
    );
    expect(request.query).toMatchObject({ format: 'csv', timeline: 'true' });
    const shared = await eventually(() =>
      f.slack.messages.find(
        (m) => m.channel === 'CM6' && m.thread_ts === card.ts && (m.metadata as Json | undefined)?.files,
      ),
    );
    const bytes = f.slack.uploads
      .get(((shared.metadata as Json).files as string[])[0] as string)
      ?.bytes?.toString();
    expect(bytes).toContain('field,value');
    expect(bytes).toContain('ticket.new');
    expect(shared.text).toContain('exported the ticket');
  });

  it('refuses Edit and Delete to someone outside the ticket’s agent, group and admins', async () => {
    const card = await showCard('ACME-1005', 'CM4', people.admin.id);
    const t = ticket('ACME-1005');
    for (const choice of ['edit', 'delete']) await menu(card, people.bob.id, choice, t.id);
    await eventually(
      () =>
        f.slack.responses.filter((r) => /You cannot (edit|delete) this ticket/.test(String(r.body.text)))
          .length >= 2,
    );
    expect(t.deleted).toBeUndefined();
  });
});

describe('/ticket list', () => {
  type Json = Record<string, unknown>;
  const reply = (responseUrl: string) =>
    eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(responseUrl).pathname && r.body.blocks),
    );

  it('pages through the person’s tickets matching a search, and Show posts a card', async () => {
    for (let i = 0; i < 12; i++)
      await f.platform.client.createTicket({
        emails: ['pat.kim@example.com'],
        subject: `Paged ${i}`,
        agent: '100',
      });
    const cmd = await f.command('list Paged', people.admin.id, 'CL1', '/ticket');
    expect(cmd.body).toMatchObject({ response_type: 'ephemeral' });
    const first = await reply(cmd.responseUrl);
    expect(JSON.stringify(first.body.blocks)).toContain('1–10 of 12');
    const elements = (first.body.blocks as Json[]).flatMap((b) => [
      ...((b.elements as Json[] | undefined) ?? []),
      ...(b.accessory ? [b.accessory as Json] : []),
    ]);
    const next = elements.find((e) => e.action_id === `${ids.actions.ticketPage}:next`) as Json;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: next.action_id as string,
        value: next.value as string,
        channel: 'CL1',
        ephemeral: true,
      }),
    );
    await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? []).includes('11–12 of 12')),
    );
    const show = elements.find((e) => String(e.action_id).startsWith(`${ids.actions.ticketShow}:`)) as Json;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: show.action_id as string,
        value: show.value as string,
        channel: 'CL1',
        ephemeral: true,
      }),
    );
    await eventually(() =>
      f.slack.messages.find((m) => m.channel === 'CL1' && String(m.text).includes('Paged')),
    );
  });

  it('filters by group name, and names the groups when one does not exist', async () => {
    const cmd = await f.command('list group level 2', people.admin.id, 'CL2', '/ticket');
    const page = JSON.stringify((await reply(cmd.responseUrl)).body.blocks);
    expect(page).toContain('ACME-1005');
    expect(page).not.toContain('ACME-1001');
    const missing = await f.command('list group Nope', people.admin.id, 'CL2', '/ticket');
    await eventually(() =>
      f.slack.responses.find(
        (r) =>
          r.path === new URL(missing.responseUrl).pathname &&
          String(r.body.text).includes('Groups: Level 1, Level 2'),
      ),
    );
  });

  it('answers what to fix for a bad filter, at once', async () => {
    const bad = await f.command('list since:2026-13-01', people.admin.id, 'CL3', '/ticket');
    expect((bad.body as Json).text).toContain('since: takes a date written YYYY-MM-DD');
  });
});

describe('channel subscriptions', () => {
  type Json = Record<string, unknown>;
  const answer = async (text: string, channel = 'CS1') => {
    const cmd = await f.command(text, people.alice.id, channel, '/ticket');
    const path = new URL(cmd.responseUrl).pathname;
    return eventually(() =>
      f.slack.responses.find((r) => r.path === path && r.body.replace_original === true),
    );
  };

  it('watches a ticket (posting its card when the channel has none), once, and unwatches it', async () => {
    const watched = await answer('watch ACME-1003');
    expect(watched.body.text).toContain('now watches ACME-1003');
    const t = ticket('ACME-1003');
    expect(await f.store.find(String(t.id), 'CS1')).toBeDefined();
    expect((await f.store.subscriptionsOf('CS1')).map((s) => [s.kind, s.ticketId])).toEqual([
      ['watch', String(t.id)],
    ]);
    expect((await answer('watch ACME-1003')).body.text).toContain('already watches');
    expect((await answer('unwatch ACME-1003')).body.text).toContain('no longer watches ACME-1003');
    expect(await f.store.subscriptionsOf('CS1')).toEqual([]);
  });

  it('follows new tickets with a filter, says what is wrong with a bad one, lists and removes subscriptions', async () => {
    const followed = await answer('follow group:"Level 1" states:open,inprogress broadcast', 'CS2');
    expect(followed.body.text).toContain('group: Level 1 · states: open, inprogress · broadcast');
    const [sub] = await f.store.subscriptionsOf('CS2');
    expect(sub?.filter).toEqual({
      group: 'Level 1',
      groupId: '10',
      states: ['open', 'inprogress'],
      broadcast: true,
    });
    expect((await answer('follow states:bogus', 'CS2')).body.text).toContain('Unknown state: bogus');
    expect((await answer('follow group:Nope', 'CS2')).body.text).toContain('No group is named “Nope”');
    await answer('watch ACME-1001', 'CS2');
    const list = await answer('subscriptions', 'CS2');
    const json = JSON.stringify(list.body.blocks);
    expect(json).toContain('ACME-1001');
    expect(json).toContain('group: Level 1');
    const remove = (list.body.blocks as Json[])
      .map((b) => b.accessory as Json | undefined)
      .find(Boolean) as Json;
    await f.interact(
      buttonClick(f.slack, {
        user: people.alice.id,
        actionId: remove.action_id as string,
        value: remove.value as string,
        channel: 'CS2',
        ephemeral: true,
      }),
    );
    await eventually(async () => (await f.store.subscriptionsOf('CS2')).length === 1);
  });
});
