import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { buildPersonForm } from '../../../src/blocks/people.js';
import type { PeopleDeps } from '../../../src/slack/deps.js';
import {
  handlePeopleBrowserSubmit,
  handlePersonCreate,
  handlePersonDelete,
  handlePersonEdit,
} from '../../../src/slack/views/people.js';
import { formState } from '../../helpers/form-state.js';
import {
  type FakeSlack,
  fakeSlack,
  services,
  submitted,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The People screens' submissions: rule breaks answered inline in the ack, nothing sent; otherwise a
 * "working" view in the ack, the platform's answer in its place, and the browser under it refreshed.
 */
const platform = usePlatform();
beforeAll(() => {
  // Before any list of the enterprise's users: the client keeps that list a while.
  platform.sim.state.addUser({
    enterpriseId: 1,
    username: 'temp',
    password: 'x',
    email: 'temp@acme.example',
    cellPhone: undefined,
    firstName: 'Tem',
    lastName: 'Porary',
    role: 'agent',
    groups: [],
  });
});

function world() {
  const slack = fakeSlack();
  const deps: PeopleDeps = services(platform.client, slack);
  return { slack, deps };
}

const user = (username: string) =>
  [...platform.sim.state.users.values()].find((u) => u.username === username && !u.deleted);
const browser = { id: 'VBROWSER', q: '', o: 0 };
const createForm = buildPersonForm({ locale: 'en', mode: 'create', values: {} }) as unknown as Record<
  string,
  unknown
>;
const editForm = buildPersonForm({
  locale: 'en',
  mode: 'edit',
  values: {},
  metadata: '',
  who: 'x',
}) as unknown as Record<string, unknown>;

/** The views.update calls on `viewId`, once the work after the ack made `count` of them. */
const updatesOf = async (slack: FakeSlack, viewId: string, count = 1) =>
  JSON.stringify(await viewUpdates(slack, { viewId, count }));

describe('the browser’s Search button', () => {
  it('acks with a working view, then shows what the box finds', async () => {
    const { slack, deps } = world();
    const values = { [ids.people.search]: { [ids.actions.peopleSearch]: { value: ' carol ' } } };
    const { args, acks } = submitted(slack, { user: people.admin.id, values });
    await handlePeopleBrowserSubmit(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    const page = await updatesOf(slack, 'VFORM');
    expect(page).toContain('Carol');
    expect(page).not.toContain('Alice');
  });

  it('shows an agent the refusal in the modal', async () => {
    const { slack, deps } = world();
    const { args } = submitted(slack, { user: people.alice.id });
    await handlePeopleBrowserSubmit(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('list the platform’s users');
  });
});

describe('the create form', () => {
  const typed = (changes: Record<string, string>) => formState(createForm, changes);

  it('answers rule breaks inline in the ack and creates nothing', async () => {
    const { slack, deps } = world();
    const users = platform.sim.state.users.size;
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: typed({ [ids.people.username]: 'two words', [ids.people.email]: 'not-an-email' }),
    });
    await handlePersonCreate(deps)(args);
    expect(acks.given).toEqual([
      {
        response_action: 'errors',
        errors: expect.objectContaining({
          [ids.people.username]: expect.any(String),
          [ids.people.password]: expect.any(String),
          [ids.people.email]: expect.any(String),
        }),
      },
    ]);
    expect(platform.sim.state.users.size).toBe(users);
    // Only the admin's language was asked (their profile), nothing else.
    expect(slack.calls.filter((c) => c.method !== 'users.info')).toEqual([]);
  });

  it('creates the user, shows the outcome without the password, and refreshes the browser under it', async () => {
    const { slack, deps } = world();
    const { args } = submitted(slack, {
      user: people.admin.id,
      metadata: JSON.stringify({ b: browser }),
      values: typed({
        [ids.people.username]: 'dora',
        [ids.people.password]: 'S3cret pass!',
        [ids.people.email]: 'dora@acme.example',
        [ids.people.firstName]: 'Dora',
      }),
    });
    await handlePersonCreate(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('dora');
    expect(user('dora')).toMatchObject({ email: 'dora@acme.example', password: 'S3cret pass!' });
    expect(await updatesOf(slack, 'VBROWSER')).toContain('Dora');
    expect(JSON.stringify(slack.calls)).not.toContain('S3cret');
  });

  it('brings an agent the form back with the reason, what was typed kept but the password', async () => {
    const { slack, deps } = world();
    const { args } = submitted(slack, {
      user: people.alice.id,
      values: typed({
        [ids.people.username]: 'eve',
        [ids.people.password]: 'hunter22',
        [ids.people.email]: 'eve@acme.example',
      }),
    });
    await handlePersonCreate(deps)(args);
    const form = await updatesOf(slack, 'VFORM');
    expect(form).toContain('Nothing was created');
    expect(form).toContain('create platform users');
    expect(form).toContain('eve@acme.example');
    expect(form).not.toContain('hunter22');
    expect(user('eve')).toBeUndefined();
  });
});

describe('the edit form', () => {
  it('answers a value out of its range inline, saving nothing', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      metadata: JSON.stringify({ u: String(user('bob')?.id) }),
      values: formState(editForm, { [ids.people.audioOnly]: '2' }),
    });
    await handlePersonEdit(deps)(args);
    expect(acks.given).toEqual([
      { response_action: 'errors', errors: { [ids.people.audioOnly]: 'Give 0 (no) or 1 (yes).' } },
    ]);
    // Only the admin's language was asked (their profile), nothing else.
    expect(slack.calls.filter((c) => c.method !== 'users.info')).toEqual([]);
  });

  it('saves the fields given and shows the outcome', async () => {
    const { slack, deps } = world();
    const { args } = submitted(slack, {
      user: people.admin.id,
      metadata: JSON.stringify({ u: String(user('bob')?.id) }),
      values: formState(editForm, { [ids.people.jobTitle]: 'Field lead' }),
    });
    await handlePersonEdit(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('Bob');
    expect(user('bob')).toMatchObject({ extra: { jobTitle: 'Field lead' } });
  });

  it('refuses metadata the bot did not write before the ack (the modal says so)', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, { user: people.admin.id, metadata: '{"u":"x"}' });
    await expect(handlePersonEdit(deps)(args)).rejects.toMatchObject({ code: 'stale_button' });
    expect(acks.given).toEqual([]);
  });
});

describe('the delete confirmation', () => {
  it('deletes the user for an admin and shows who', async () => {
    const { slack, deps } = world();
    const { args } = submitted(slack, {
      user: people.admin.id,
      metadata: JSON.stringify({ u: String(user('temp')?.id) }),
    });
    await handlePersonDelete(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('Porary');
    expect(user('temp')).toBeUndefined();
  });

  it('shows an agent the refusal, deleting nobody', async () => {
    const { slack, deps } = world();
    const bob = user('bob');
    const { args } = submitted(slack, {
      user: people.alice.id,
      metadata: JSON.stringify({ u: String(bob?.id) }),
    });
    await handlePersonDelete(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('delete platform users');
    expect(user('bob')).toBeDefined();
  });
});
