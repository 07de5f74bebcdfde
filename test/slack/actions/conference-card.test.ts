import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import {
  handleConferenceDelete,
  handleConferenceEdit,
  handleConferenceJoin,
  handleConferenceMedia,
  handleConferenceOpenForm,
  handleConferencePage,
  handleConferenceShow,
  handleConferenceShowPage,
} from '../../../src/slack/actions/conference-card.js';
import { handleConferenceNewButton } from '../../../src/slack/actions/conference-new.js';
import {
  click,
  conferenceDeps,
  eventually,
  fakeSlack,
  metadataOf,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The conference card's buttons and the list's: each answers privately (or in a modal) for a person
 * the policy lets act, and refuses anyone else.
 */
const platform = usePlatform();

const conferenceId = (name: string) =>
  String([...platform.sim.state.conferences.values()].find((c) => c.name === name)?.id);

function world() {
  const slack = fakeSlack();
  const { deps, published } = conferenceDeps(platform.client, slack);
  return { slack, published, deps };
}

describe('Show and its pages', () => {
  it('gives a participant the conference’s details privately', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, {
      user: people.alice.id,
      value: conferenceId('Weekly support sync'),
    });
    await handleConferenceShow(deps)(c);
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: false }),
    ]);
    expect(replies.text()).toContain('Weekly support sync');
    const page = click(slack, {
      user: people.alice.id,
      value: JSON.stringify({ id: conferenceId('Weekly support sync'), page: 0 }),
    });
    await handleConferenceShowPage(deps)(page.c);
    expect(page.replies.given).toEqual([expect.objectContaining({ replace_original: true })]);
  });

  it('refuses a person without an account, and a value the bot did not write', async () => {
    const { slack, deps } = world();
    const outsider = click(slack, { user: people.nobody.id, value: conferenceId('Weekly support sync') });
    await expect(handleConferenceShow(deps)(outsider.c)).rejects.toMatchObject({
      code: 'no_platform_account',
    });
    const forged = click(slack, { user: people.alice.id, value: 'a b' });
    await expect(handleConferenceShow(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
    expect([...outsider.replies.given, ...forged.replies.given]).toEqual([]);
  });
  it('refuses a participants page to a person without an account, and a page the bot did not write', async () => {
    const { slack, deps } = world();
    const value = JSON.stringify({ id: conferenceId('Weekly support sync'), page: 1 });
    const outsider = click(slack, { user: people.nobody.id, value });
    await expect(handleConferenceShowPage(deps)(outsider.c)).rejects.toMatchObject({
      code: 'no_platform_account',
    });
    const forged = click(slack, { user: people.alice.id, value: '{"id":1}' });
    await expect(handleConferenceShowPage(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
    expect([...outsider.replies.given, ...forged.replies.given]).toEqual([]);
  });
});

describe('Join', () => {
  it('gives a participant the link, privately', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.bob.id, value: conferenceId('Weekly support sync') });
    await handleConferenceJoin(deps)(c);
    expect(replies.given).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
    expect(replies.text()).toMatch(/https?:\/\//);
  });

  it('gives no link to a person without an account', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, {
      user: people.nobody.id,
      value: conferenceId('Weekly support sync'),
    });
    await expect(handleConferenceJoin(deps)(c)).rejects.toMatchObject({ code: 'no_platform_account' });
    expect(replies.given).toEqual([]);
  });
});

describe('Delete', () => {
  it('is refused to a participant who is not its moderator, the conference kept', async () => {
    const { slack, deps, published } = world();
    const id = conferenceId('Incident review');
    const { c } = click(slack, { user: people.alice.id, value: id });
    await expect(handleConferenceDelete(deps)(c)).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('only its moderator'),
    });
    expect(conferenceId('Incident review')).toBe(id);
    expect(published).toEqual([]);
  });

  it('deletes it for its moderator, replaces the card and tells the other cards', async () => {
    const { slack, deps, published } = world();
    const { c, replies } = click(slack, { user: people.admin.id, value: conferenceId('Incident review') });
    await handleConferenceDelete(deps)(c);
    expect(replies.given).toEqual([expect.objectContaining({ replace_original: true })]);
    expect(published.map((p) => p.what)).toEqual(['conferenceChanged']);
  });
});

describe('the list’s pages, Recordings & snapshots', () => {
  it('replaces the list with the page asked for; a forged page is out of date', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.admin.id, value: '{"filter":"all","offset":0}' });
    await handleConferencePage(deps)(c);
    expect(replies.given).toEqual([expect.objectContaining({ replace_original: true })]);
    expect(replies.text()).toContain('Weekly support sync');
    const forged = click(slack, { user: people.admin.id, value: '{"filter":"someday","offset":0}' });
    await expect(handleConferencePage(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
  });

  it('lists a conference’s media for a participant, and refuses a person without an account', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.alice.id, value: conferenceId('Onboarding Carol') });
    await handleConferenceMedia(deps)(c);
    expect(replies.given).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
    const outsider = click(slack, { user: people.nobody.id, value: conferenceId('Onboarding Carol') });
    await expect(handleConferenceMedia(deps)(outsider.c)).rejects.toMatchObject({
      code: 'no_platform_account',
    });
  });
});

describe('the forms', () => {
  it('Edit opens the form prefilled for the moderator, tied to the card clicked', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.admin.id, value: conferenceId('Weekly support sync') });
    await handleConferenceEdit(deps)(c);
    const [opened] = slack.callsOf('views.open');
    expect(opened).toMatchObject({ view: { callback_id: ids.views.conferenceForm } });
    expect(metadataOf(opened)).toEqual({
      mode: 'edit',
      conferenceId: conferenceId('Weekly support sync'),
      channel: 'C1',
      ts: '1.000001',
    });
  });

  it('Edit is refused at once, before any modal, to a participant who is not the moderator', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.alice.id, value: conferenceId('Weekly support sync') });
    await expect(handleConferenceEdit(deps)(c)).rejects.toMatchObject({ code: 'not_allowed' });
    expect(slack.callsOf('views.open')).toEqual([]);
  });

  it('a failed command’s "Open the form" opens the create form prefilled from the command’s words', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.alice.id, value: '"Quarterly review" bob@acme.example 30min' });
    await handleConferenceOpenForm(deps)(c);
    const [opened] = slack.callsOf('views.open');
    expect(opened).toMatchObject({ view: { callback_id: ids.views.conferenceForm } });
    const form = JSON.stringify(opened);
    expect(form).toContain('"initial_value":"Quarterly review"');
    expect(form).toContain('"initial_value":"30"');
    expect(form).not.toContain('did not understand');
  });

  it('"Open the form" gives a person without an account no form, only the refusal', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.nobody.id, value: 'bob@acme.example 30min' });
    await expect(handleConferenceOpenForm(deps)(c)).rejects.toMatchObject({ code: 'no_platform_account' });
    expect(slack.callsOf('views.open')).toEqual([]);
  });

  it('Home’s New conference opens the create form, or the refusal for a person without an account', async () => {
    const { slack, deps } = world();
    await handleConferenceNewButton(deps)(click(slack, { user: people.alice.id }).c);
    const refused = world();
    await handleConferenceNewButton(refused.deps)(click(refused.slack, { user: people.nobody.id }).c);
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    await eventually(() => expect(refused.slack.callsOf('views.open')).toHaveLength(1));
    expect(JSON.stringify(slack.callsOf('views.open'))).toContain(ids.views.conferenceForm);
    expect(JSON.stringify(refused.slack.callsOf('views.open'))).toContain('nobody@example.com');
  });
});
