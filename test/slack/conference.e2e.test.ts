import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';

type Json = Record<string, unknown>;
const f = {} as BotFixture;
useBot(f);

const lastView = () => {
  const call = f.slack.callsOf('views.open').at(-1);
  const id = (call && [...f.slack.views.values()].at(-1)?.id) as string;
  return f.slack.views.get(id)?.view as Json;
};
const simRequests = (method: string, path: string) =>
  f.platform.sim.requests.filter((r) => r.method === method && r.path === path);
const elementsOf = (blocks: unknown) =>
  ((blocks as Json[] | undefined) ?? [])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements as Json[]);
const buttonsOf = (m: SlackMessage | Json) => elementsOf(m.blocks).map((e) => e.action_id);
const cardOf = (name: string) =>
  f.slack.messages.find((m) =>
    (m.blocks as Json[] | undefined)?.some((b) => JSON.stringify(b).includes(name)),
  );

describe('/conference, end to end through the signed HTTP receiver', () => {
  it('opens the form, creates from it (start time converted to UTC Z), posts the card, edits it in place, deletes it', async () => {
    // 1. The command opens the form at once, aimed at the channel it was typed in.
    const cmd = await f.command('');
    expect(cmd.status).toBe(200);
    const form = await eventually(() => f.slack.callsOf('views.open').length > 0 && lastView());
    expect(form.callback_id).toBe(ids.views.conferenceForm);
    expect(JSON.stringify(form)).toContain('"initial_conversation":"C1"');

    // 2. Submitting it: the person picks 2027-04-02 16:30 in the picker (Slack sends unix seconds).
    const start = Date.parse('2027-04-02T14:30:00Z') / 1000;
    const values = formState(form, {
      participants: 'jane.doe@example.com, +33 6 12 34 56 78',
      people: { selected_users: [people.bob.id] },
      name: 'Weekly sync',
      startTime: { selected_date_time: start },
      duration: '45',
      reminder: '10',
      language: { selected_option: { value: 'fr', text: { type: 'plain_text', text: 'Français' } } },
      options: { selected_options: [{ value: 'moderation' }, { value: 'invite' }] },
      scope: { selected_options: [{ value: 'sso' }] },
    });
    const submitted = await f.interact(submission(form, people.admin.id, values));
    expect(submitted.status).toBe(200);
    expect((submitted.body as Json).response_action).toBe('update');

    // 3. The platform got exactly these query parameters.
    const post = await eventually(() => simRequests('POST', '/api/v3/conferences')[0]);
    expect(post.query).toMatchObject({
      participants: 'jane.doe@example.com,+33612345678,bob@acme.example',
      name: 'Weekly sync',
      startTime: '2027-04-02T14:30:00Z',
      duration: '45',
      reminder: '10',
      language: 'fr',
      moderation: 'true',
      open: 'false',
      invite: 'true',
      moderator: '100',
      scope: 'sso',
    });

    // 4. The card: name, time token, duration, participants, moderator, Join/Edit/Delete.
    const card = await eventually(() => cardOf('Weekly sync'));
    expect(card.channel).toBe('C1');
    const cardJson = JSON.stringify(card.blocks);
    expect(cardJson).toContain(`<!date^${start}^`);
    expect(cardJson).toContain('45 min');
    expect(cardJson).toContain('bob@acme.example');
    expect(cardJson).toContain('admin');
    expect(buttonsOf(card)).toEqual([
      ids.actions.conferenceJoin,
      ids.actions.conferenceMedia,
      ids.actions.conferenceEdit,
      ids.actions.conferenceDelete,
    ]);
    // The join link is given on a click, privately, to those who may join: not in the channel.
    const join = elementsOf(card.blocks)[0] as Json;
    expect(join.url).toBeUndefined();
    expect(JSON.stringify(card)).not.toContain('/join/');
    await f.interact(
      buttonClick(f.slack, {
        user: people.bob.id, // a participant
        actionId: ids.actions.conferenceJoin,
        value: String(join.value),
        channel: 'C1',
        ts: card.ts,
      }),
    );
    const link = await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? '').includes('/join/')),
    );
    expect(link.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(JSON.stringify(link.body.blocks)).toMatch(/"url":"http:\/\/127\.0\.0\.1:\d+\/join\//);
    const result = await eventually(() =>
      f.slack.callsOf('views.update').find((c) => JSON.stringify(c.args.view).includes('is planned')),
    );
    expect(JSON.stringify(result.args.view)).toContain('<#C1>');
    const conferenceId = String(
      (
        await eventually(() =>
          [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Weekly sync'),
        )
      ).id,
    );

    // 5. Edit from the card: the form comes prefilled; saving PUTs and updates the card in place.
    const opens = f.slack.callsOf('views.open').length;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.conferenceEdit,
        value: conferenceId,
        channel: 'C1',
        ts: card.ts,
      }),
    );
    await eventually(() => f.slack.callsOf('views.open').length > opens);
    const editForm = lastView();
    expect(editForm.callback_id).toBe(ids.views.conferenceForm);
    expect(JSON.stringify(editForm)).toContain('"initial_value":"Weekly sync"');
    const edited = formState(editForm, { name: 'Weekly sync (moved)', duration: '60' });
    const saved = await f.interact(submission(editForm, people.admin.id, edited));
    expect((saved.body as Json).response_action).toBe('update');
    const put = await eventually(() => simRequests('PUT', `/api/v3/conferences/${conferenceId}`)[0]);
    expect(put.query).toMatchObject({
      name: 'Weekly sync (moved)',
      duration: '60',
      startTime: '2027-04-02T14:30:00Z',
    });
    expect(put.query).not.toHaveProperty('service_key');
    await eventually(() => JSON.stringify(card.blocks).includes('Weekly sync (moved)'));
    expect(f.slack.callsOf('chat.update').at(-1)?.args).toMatchObject({ channel: 'C1', ts: card.ts });
    expect(f.slack.messages.filter((m) => JSON.stringify(m.blocks).includes('Weekly sync')).length).toBe(1);

    // 6. Delete (after Slack's confirmation dialog, which the card's button carries).
    const del = elementsOf(card.blocks).find((e) => e.action_id === ids.actions.conferenceDelete);
    expect(del?.confirm).toBeDefined();
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.conferenceDelete,
        value: conferenceId,
        channel: 'C1',
        ts: card.ts,
      }),
    );
    await eventually(() => simRequests('DELETE', `/api/v3/conferences/${conferenceId}`).length === 1);
    expect(f.platform.sim.state.conferences.has(Number(conferenceId))).toBe(false);
    await eventually(() => JSON.stringify(card.blocks).includes('Deleted by <@UADMIN>'));
    expect(buttonsOf(card)).toEqual([]);
  });

  it('creates directly from complete text, reading the time in the person’s zone (New York, EDT)', async () => {
    const text =
      '<mailto:jane.doe@example.com|jane.doe@example.com> +33612345678 <@UBOB|bob> tomorrow 3pm 45m "Design review"';
    const cmd = await f.command(text, people.alice.id, 'C2');
    expect(cmd.status).toBe(200);
    expect(cmd.body).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('Creating') });
    const post = await eventually(() =>
      simRequests('POST', '/api/v3/conferences').find((r) => r.query.name === 'Design review'),
    );
    // Friday 26 March 2027 in New York; tomorrow 3pm EDT (UTC-4) is 19:00 UTC.
    expect(post.query).toMatchObject({
      participants: 'jane.doe@example.com,+33612345678,bob@acme.example',
      startTime: '2027-03-27T19:00:00Z',
      duration: '45',
      moderator: '101',
      invite: 'true',
    });
    const card = await eventually(() => cardOf('Design review'));
    expect(card.channel).toBe('C2');
    // The "Working…" reply is removed once the card is there.
    await eventually(() =>
      f.slack.responses.find(
        (r) => r.path.endsWith(cmd.responseUrl.split('/').at(-1) as string) && r.body.delete_original,
      ),
    );
  });

  it('opens the form prefilled with what it understood when the text is incomplete, and says what it did not', async () => {
    const opens = f.slack.callsOf('views.open').length;
    const cmd = await f.command('jane.doe@example.com mon 09:30 1h30 frobnicate', people.admin.id);
    expect(cmd.status).toBe(200);
    expect(cmd.body).toBeNull();
    await eventually(() => f.slack.callsOf('views.open').length > opens);
    const form = JSON.stringify(lastView());
    expect(form).toContain('jane.doe@example.com');
    expect(form).toContain('"initial_value":"90"');
    // Monday 29 March 2027 09:30 in Paris is CEST (DST began on the 28th): 07:30 UTC.
    expect(form).toContain(`"initial_date_time":${Date.parse('2027-03-29T07:30:00Z') / 1000}`);
    expect(form).toContain('frobnicate');
  });

  it('answers the form’s rule breaks inline, under each input, and creates nothing', async () => {
    await f.command('');
    const form = await eventually(() => lastView());
    const before = simRequests('POST', '/api/v3/conferences').length;
    const values = formState(form, {
      participants: 'jane.doe@example.com, not-a-number',
      name: 'x',
      password: 'abc',
      message: 'm'.repeat(301),
      reminder: '90',
      service_key: 'NOT-A-KEY',
      startTime: { selected_date_time: Date.parse('2027-03-20T10:00:00Z') / 1000 },
    });
    const res = await f.interact(submission(form, people.admin.id, values));
    const body = res.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(Object.keys(body.errors).sort()).toEqual(
      ['message', 'name', 'participants', 'password', 'reminder', 'service_key', 'startTime'].sort(),
    );
    expect(body.errors.participants).toContain('not-a-number');
    expect(body.errors.password).toMatch(/digits/);
    expect(simRequests('POST', '/api/v3/conferences').length).toBe(before);
  });

  it('gives the form back with everything typed when a picked Slack person has no e-mail', async () => {
    await f.command('');
    const form = await eventually(() => lastView());
    const values = formState(form, {
      participants: 'jane.doe@example.com',
      name: 'Keep my input',
      people: { selected_users: [people.nomail.id] },
    });
    await f.interact(submission(form, people.admin.id, values));
    const back = await eventually(() =>
      f.slack.callsOf('views.update').find((c) => JSON.stringify(c.args.view).includes('Keep my input')),
    );
    const view = JSON.stringify(back.args.view);
    expect(view).toContain('<@UNOMAIL> has no e-mail in Slack');
    expect(view).toContain('jane.doe@example.com');
  });

  it('tells a person without a platform account what to do, with a button back to the form', async () => {
    const cmd = await f.command('jane.doe@example.com now', people.nobody.id);
    expect(cmd.status).toBe(200);
    const reply = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('nobody@example.com')),
    );
    expect(reply.body.text).toContain('has no account on the video platform');
    expect(JSON.stringify(reply.body.blocks)).toContain(ids.actions.conferenceOpenForm);
  });

  it('gives the exact fix when the bot is not in the channel, and still shows the created conference', async () => {
    f.slack.notInChannel.add('CPRIVATE');
    await f.command('jane.doe@example.com tomorrow 9am "Private sync"', people.admin.id, 'CPRIVATE');
    const reply = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('/invite @confdesk')),
    );
    expect(reply.body.text).toContain('<#CPRIVATE>');
    expect(JSON.stringify(reply.body.blocks)).toContain('Private sync');
    expect(
      simRequests('POST', '/api/v3/conferences').filter((r) => r.query.name === 'Private sync').length,
    ).toBe(1);
  });

  it('refuses Edit and Delete to someone who is neither the moderator nor an admin, ephemerally', async () => {
    await f.command('jane.doe@example.com tomorrow 11am "Alice only"', people.alice.id, 'C3');
    const card = await eventually(() => cardOf('Alice only'));
    const id = String(
      [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Alice only')?.id,
    );
    const opens = f.slack.callsOf('views.open').length;
    for (const actionId of [ids.actions.conferenceEdit, ids.actions.conferenceDelete]) {
      await f.interact(
        buttonClick(f.slack, { user: people.bob.id, actionId, value: id, channel: 'C3', ts: card.ts }),
      );
    }
    const refusals = await eventually(() => {
      const r = f.slack.responses.filter((x) =>
        /^You cannot (edit|delete) this conference: only its moderator/.test(String(x.body.text)),
      );
      return r.length === 2 && r;
    });
    for (const r of refusals)
      expect(r.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(f.slack.callsOf('views.open').length).toBe(opens);
    expect(f.platform.sim.state.conferences.has(Number(id))).toBe(true);
    expect(JSON.stringify(card.blocks)).not.toContain('Deleted');
  });

  it('lists a conference’s recordings and snapshots from its card', async () => {
    const incident = [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Incident review');
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: ids.actions.conferenceMedia,
        value: String(incident?.id),
        channel: 'C1',
        ts: '1.1',
      }),
    );
    const list = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).startsWith('Recordings &amp; snapshots')),
    );
    expect(list.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(list.body.blocks)).toMatch(/🎬/);
  });

  it('lists the person’s conferences page by page, and shows one', async () => {
    for (let i = 0; i < 12; i++)
      await f.platform.client.createConference({
        participants: ['jane.doe@example.com'],
        name: `Planning ${String(i).padStart(2, '0')}`,
        moderator: '100',
        startTime: new Date(Date.now() + (i + 1) * 86_400_000),
      });
    const cmd = await f.command('list Planning');
    expect(cmd.body).toMatchObject({ response_type: 'ephemeral' });
    const first = await eventually(() =>
      f.slack.responses.find((r) => String(r.body.text).includes('matching “Planning”')),
    );
    const firstJson = JSON.stringify(first.body.blocks);
    expect(firstJson).toContain('1–10 of 12');
    const next = elementsOf(first.body.blocks)[0] as Json;
    expect(next.action_id).toBe(`${ids.actions.conferencePage}:next`);
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: next.action_id as string,
        value: next.value as string,
        channel: 'C1',
        ephemeral: true,
      }),
    );
    const second = await eventually(() =>
      f.slack.responses.find((r) => JSON.stringify(r.body.blocks ?? []).includes('11–12 of 12')),
    );
    expect(second.body.replace_original).toBe(true);

    const incident = [...f.platform.sim.state.conferences.values()].find((c) => c.name === 'Incident review');
    const shown = await f.command(`show ${incident?.roomName}`);
    expect(shown.status).toBe(200);
    const details = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(shown.responseUrl).pathname && r.body.blocks),
    );
    expect(details.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(details.body.blocks)).toContain(`Conference ${incident?.id}`);
  });

  it('pages through a long participant list in /conference show', async () => {
    const participants = Array.from({ length: 150 }, (_, i) => `guest.${i}@example.com`);
    const created = await f.platform.client.createConference({
      participants,
      name: 'Town hall',
      moderator: '100',
    });
    const shown = await f.command(`show ${created.id}`);
    const first = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(shown.responseUrl).pathname && r.body.blocks),
    );
    expect(JSON.stringify(first.body.blocks)).toContain('Participants 1–100 of 150');
    const more = elementsOf(first.body.blocks).find((e) => String(e.action_id).endsWith(':next')) as Json;
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: more.action_id as string,
        value: more.value as string,
        channel: 'C1',
        ephemeral: true,
      }),
    );
    const second = await eventually(() =>
      f.slack.responses.find((r) =>
        JSON.stringify(r.body.blocks ?? []).includes('Participants 101–150 of 150'),
      ),
    );
    expect(second.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(JSON.stringify(second.body.blocks)).toContain('guest.149@example.com');
  });

  it('publishes the App Home, and opens the form from its button and from the global shortcut', async () => {
    await f.event({ type: 'app_home_opened', user: people.alice.id, channel: 'D1', tab: 'home' });
    const home = await eventually(() => f.slack.callsOf('views.publish').at(-1));
    expect(home.args.user_id).toBe(people.alice.id);
    expect(JSON.stringify(home.args.view)).toContain(ids.actions.conferenceNew);
    const opens = f.slack.callsOf('views.open').length;
    await f.interact(
      buttonClick(f.slack, {
        user: people.alice.id,
        actionId: ids.actions.conferenceNew,
        value: '',
        channel: 'D1',
      }),
    );
    await f.interact({
      type: 'shortcut',
      callback_id: ids.shortcuts.conferenceNew,
      trigger_id: 'trigger-shortcut',
      user: { id: people.alice.id },
      team: { id: f.slack.teamId },
      token: 'legacy',
    });
    await eventually(() => f.slack.callsOf('views.open').length === opens + 2);
    for (const call of f.slack.callsOf('views.open').slice(opens))
      expect((call.args.view as Json).callback_id).toBe(ids.views.conferenceForm);
  });

  it('answers help, and the usage for a subcommand it cannot read', async () => {
    const help = await f.command('help');
    expect(help.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('/conference list'),
    });
    const bad = await f.command('show');
    expect((bad.body as Json).text).toContain('needs one conference id or room name');
    expect((bad.body as Json).text).toContain('/conference help');
  });
});

describe('/conference admin settings with one workspace (issue 23)', () => {
  it('says the settings come from the environment, and opens nothing', async () => {
    const views = f.slack.views.size;
    const r = await f.command('admin settings');
    expect(JSON.stringify(r.body)).toContain('serves one workspace: its settings come from its environment');
    expect(f.slack.views.size).toBe(views);
  });
});
