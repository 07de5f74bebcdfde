import { describe, expect, it } from 'vitest';
import {
  handleGroupMembers,
  handleGroupMembersPage,
  handleGroupsOpen,
  handlePasswordResetOwn,
  handlePeopleOpen,
  handlePeoplePage,
  handlePeopleSearch,
  handlePersonMenu,
  handlePersonNew,
} from '../../../src/slack/actions/people.js';
import type { PeopleDeps } from '../../../src/slack/deps.js';
import {
  click,
  type FakeSlack,
  fakeSlack,
  metadataOf,
  services,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The People and Groups screens' buttons: each opens or pushes a "working" modal at once and shows
 * what the platform answers in its place; a person who is not a platform admin sees the refusal there.
 */
const platform = usePlatform();

function world() {
  const slack = fakeSlack();
  const deps: PeopleDeps = services(platform.client, slack);
  return { slack, deps };
}

const userId = (username: string) =>
  String([...platform.sim.state.users.values()].find((u) => u.username === username)?.id);
const groupId = (name: string) =>
  String([...platform.sim.state.groups.values()].find((g) => g.name === name)?.id);
const browser = { id: 'VBROWSER', hash: 'h', privateMetadata: '{"q":"","o":0}', callbackId: 'people' };

/** What the modal finally shows: the last `views.update`, once the work after the ack wrote it. */
async function shown(slack: FakeSlack, count = 1): Promise<string> {
  return JSON.stringify((await viewUpdates(slack, { count })).at(-1));
}

describe('the doors to the browsers', () => {
  it('People opens a working modal at once, then the first page of the enterprise’s people in it', async () => {
    const { slack, deps } = world();
    await handlePeopleOpen(deps)(click(slack, { user: people.admin.id }).c);
    expect(JSON.stringify(slack.callsOf('views.open'))).toContain('Looking up the people');
    const page = await shown(slack);
    expect(page).toContain('Alice');
    expect(page).toContain('"view_id":"V1"');
  });

  it('Groups shows the groups to an admin, and an agent the refusal in the modal', async () => {
    const admin = world();
    await handleGroupsOpen(admin.deps)(click(admin.slack, { user: people.admin.id }).c);
    expect(await shown(admin.slack)).toContain('Level 1');
    const agent = world();
    await handleGroupsOpen(agent.deps)(click(agent.slack, { user: people.alice.id }).c);
    const refused = await shown(agent.slack);
    expect(refused).toContain('video platform admins');
    expect(refused).not.toContain('Level 1');
  });
});

describe('the password reset for oneself', () => {
  it('sends the reset e-mail for the clicker’s own login and says so privately', async () => {
    const { slack, deps } = world();
    const before = platform.sim.state.passwordResets.length;
    const { c, replies } = click(slack, { user: people.alice.id });
    await handlePasswordResetOwn(deps)(c);
    expect(platform.sim.state.passwordResets.slice(before)).toEqual([
      expect.objectContaining({ login: 'alice' }),
    ]);
    expect(replies.given[0]).toMatchObject({ response_type: 'ephemeral' });
    expect(replies.text()).toContain('alice');
  });

  it('refuses a person without a platform account with how to get one, sending nothing', async () => {
    const { slack, deps } = world();
    const before = platform.sim.state.passwordResets.length;
    const { c, replies } = click(slack, { user: people.nobody.id });
    await expect(handlePasswordResetOwn(deps)(c)).rejects.toMatchObject({ code: 'no_platform_account' });
    expect(platform.sim.state.passwordResets.length).toBe(before);
    expect(replies.given).toEqual([]);
  });
});

describe('the browser’s search and pages', () => {
  it('a search shows what it finds in the browser, in place', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.admin.id, value: '  carol ', view: browser });
    await handlePeopleSearch(deps)(c);
    const page = await shown(slack);
    expect(page).toContain('"view_id":"VBROWSER"');
    expect(page).toContain('Carol');
    expect(page).not.toContain('Alice');
  });

  it('a search from outside a modal is out of date', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.admin.id, value: 'carol' });
    await expect(handlePeopleSearch(deps)(c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });

  it('Next shows the page asked for; a value the bot did not write is out of date', async () => {
    const { slack, deps } = world();
    await handlePeoplePage(deps)(
      click(slack, { user: people.admin.id, value: '{"q":"","o":0}', view: browser }).c,
    );
    expect(await shown(slack)).toContain('Bob');
    const forged = click(slack, { user: people.admin.id, value: '{"q":1}', view: browser });
    await expect(handlePeoplePage(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.callsOf('views.update')).toHaveLength(1);
  });
});

describe('a person’s menu', () => {
  it('Show pushes the person’s details over the browser', async () => {
    const { slack, deps } = world();
    const value = `show:${userId('bob')}`;
    await handlePersonMenu(deps)(click(slack, { user: people.admin.id, value, view: browser }).c);
    expect(slack.callsOf('views.push')).toHaveLength(1);
    expect(await shown(slack)).toContain('bob@acme.example');
  });

  it('Edit pushes the form carrying the user and the browser to refresh after', async () => {
    const { slack, deps } = world();
    const id = userId('bob');
    await handlePersonMenu(deps)(
      click(slack, { user: people.admin.id, value: `edit:${id}`, view: browser }).c,
    );
    expect(await shown(slack)).toContain('Durand');
    expect(metadataOf(slack.callsOf('views.update').at(-1))).toEqual({
      u: id,
      b: { id: 'VBROWSER', q: '', o: 0 },
    });
  });

  it('an agent’s Delete shows the refusal in the pushed modal and deletes nobody', async () => {
    const { slack, deps } = world();
    const id = userId('bob');
    await handlePersonMenu(deps)(
      click(slack, { user: people.alice.id, value: `delete:${id}`, view: browser }).c,
    );
    expect(await shown(slack)).toContain('video platform admins');
    expect(platform.sim.state.users.get(Number(id))?.deleted).toBeFalsy();
  });

  it('an entry the bot did not write is out of date, nothing pushed', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.admin.id, value: 'ban:7', view: browser });
    await expect(handlePersonMenu(deps)(c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });
});

describe('New user', () => {
  it('pushes the create form for an admin, carrying the browser', async () => {
    const { slack, deps } = world();
    await handlePersonNew(deps)(click(slack, { user: people.admin.id, view: browser }).c);
    const form = await shown(slack);
    expect(form).toContain('person_create');
    expect(form).toContain('VBROWSER');
  });

  it('shows an agent the refusal instead of the form', async () => {
    const { slack, deps } = world();
    await handlePersonNew(deps)(click(slack, { user: people.alice.id, view: browser }).c);
    const refused = await shown(slack);
    expect(refused).toContain('create platform users');
    expect(refused).not.toContain('person_create');
  });
});

describe('a group’s members', () => {
  it('Members pushes the group’s first page; Next shows the next in place', async () => {
    const { slack, deps } = world();
    const g = groupId('Level 1');
    await handleGroupMembers(deps)(click(slack, { user: people.admin.id, value: g, view: browser }).c);
    const members = await shown(slack);
    expect(members).toContain('Alice');
    expect(members).toContain('Bob');
    await handleGroupMembersPage(deps)(
      click(slack, { user: people.admin.id, value: JSON.stringify({ g, o: 0 }), view: browser }).c,
    );
    expect(await shown(slack, 2)).toContain('"view_id":"VBROWSER"');
  });

  it('Members outside a modal, or of a forged group, is out of date', async () => {
    const { slack, deps } = world();
    const outside = click(slack, { user: people.admin.id, value: groupId('Level 1') });
    await expect(handleGroupMembers(deps)(outside.c)).rejects.toMatchObject({ code: 'stale_button' });
    const forged = click(slack, { user: people.admin.id, value: '{"g":"x"}', view: browser });
    await expect(handleGroupMembersPage(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });
});
