import { describe, expect, it } from 'vitest';
import { buildConferenceForm } from '../../../src/blocks/conference-form.js';
import { ids } from '../../../src/blocks/ids.js';
import { handleConferenceForm } from '../../../src/slack/views/conference-form.js';
import { formState } from '../../helpers/form-state.js';
import {
  conferenceDeps,
  type FakeSlack,
  fakeSlack,
  slackRefusal,
  submitted,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The conference form's submission: rule breaks inline at once; otherwise a working view, the
 * conference created (its card posted) or saved (its card updated), and the outcome in the modal.
 */
const platform = usePlatform();

const f = ids.conferenceForm;
const conference = (name: string) =>
  [...platform.sim.state.conferences.values()].find((c) => c.name === name);

function form(mode: 'create' | 'edit', changes: Record<string, string>) {
  const view = buildConferenceForm({
    locale: 'en',
    mode,
    values: { channel: 'C1', participants: [], people: [] },
    metadata: '',
  });
  return formState(view as unknown as Record<string, unknown>, changes);
}

const outcome = async (slack: FakeSlack) => JSON.stringify((await viewUpdates(slack))[0]);

describe('creating a conference', () => {
  it('answers a form without participants inline, creating nothing', async () => {
    const slack = fakeSlack();
    const { deps } = conferenceDeps(platform.client, slack);
    const { args, acks } = submitted(slack, {
      user: people.alice.id,
      values: form('create', { [f.name]: 'Nobody' }),
    });
    await handleConferenceForm(deps)(args);
    expect(acks.given).toEqual([
      { response_action: 'errors', errors: { [f.participants]: expect.stringContaining('at least one') } },
    ]);
    expect(conference('Nobody')).toBeUndefined();
  });

  it('creates it, posts its card in the channel and shows the outcome', async () => {
    const slack = fakeSlack();
    const { deps, published } = conferenceDeps(platform.client, slack);
    const values = form('create', { [f.name]: 'Retro', [f.participants]: 'bob@acme.example' });
    const { args, acks } = submitted(slack, { user: people.alice.id, values, metadata: '{"mode":"create"}' });
    await handleConferenceForm(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    expect(await outcome(slack)).toContain('Retro');
    expect(conference('Retro')?.participants).toContain('bob@acme.example');
    expect(published).toEqual([
      { what: 'postConferenceCard', args: ['C1', expect.objectContaining({ name: 'Retro' })] },
    ]);
  });

  it('says how to invite the bot when it may not post the card, the conference kept', async () => {
    const slack = fakeSlack();
    const { deps } = conferenceDeps(platform.client, slack);
    deps.publisher.postConferenceCard = async () => {
      throw slackRefusal('channel_not_found');
    };
    const values = form('create', { [f.name]: 'Uncarded', [f.participants]: 'bob@acme.example' });
    await handleConferenceForm(deps)(submitted(slack, { user: people.alice.id, values }).args);
    expect(await outcome(slack)).toContain('/invite');
    expect(conference('Uncarded')).toBeDefined();
  });

  it('brings a person without an account the form back with the reason', async () => {
    const slack = fakeSlack();
    const { deps, published } = conferenceDeps(platform.client, slack);
    const values = form('create', { [f.name]: 'Not mine', [f.participants]: 'bob@acme.example' });
    await handleConferenceForm(deps)(submitted(slack, { user: people.nobody.id, values }).args);
    const shown = await outcome(slack);
    expect(shown).toContain('Nothing was saved');
    expect(shown).toContain(ids.views.conferenceForm);
    expect(conference('Not mine')).toBeUndefined();
    expect(published).toEqual([]);
  });
});

describe('editing a conference', () => {
  const edit = (name: string) =>
    JSON.stringify({
      mode: 'edit',
      conferenceId: String(conference(name)?.id),
      channel: 'C1',
      ts: '1700000000.000100',
    });

  it('saves it for its moderator and updates its card in place', async () => {
    const slack = fakeSlack();
    const { deps, published } = conferenceDeps(platform.client, slack);
    const values = form('edit', { [f.name]: 'Weekly support sync', [f.message]: 'Bring your numbers' });
    await handleConferenceForm(deps)(
      submitted(slack, { user: people.admin.id, values, metadata: edit('Weekly support sync') }).args,
    );
    await outcome(slack);
    expect(conference('Weekly support sync')?.message).toBe('Bring your numbers');
    expect(published).toEqual([
      {
        what: 'showConferenceCard',
        args: [
          { channel: 'C1', ts: '1700000000.000100' },
          expect.objectContaining({ name: 'Weekly support sync' }),
        ],
      },
    ]);
  });

  it('brings a participant who is not its moderator the form back, nothing saved', async () => {
    const slack = fakeSlack();
    const { deps, published } = conferenceDeps(platform.client, slack);
    const values = form('edit', { [f.name]: 'Hijacked' });
    await handleConferenceForm(deps)(
      submitted(slack, { user: people.alice.id, values, metadata: edit('Weekly support sync') }).args,
    );
    expect(await outcome(slack)).toContain('only its moderator');
    expect(conference('Hijacked')).toBeUndefined();
    expect(published).toEqual([]);
  });
});
