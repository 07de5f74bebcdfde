import { describe, expect, it } from 'vitest';
import {
  handleMediaDelete,
  handleMediaFilter,
  handleMediaOpen,
  handleMediaPage,
  handleMediaRow,
  handleMediaShareOpen,
} from '../../../src/slack/actions/media-library.js';
import type { MediaDeps } from '../../../src/slack/deps.js';
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
 * The media library modal's buttons: each checks the person's rights again (a value can be forged);
 * the library is updated in place, the detail view and the forms are pushed over it.
 */
const platform = usePlatform();

function world() {
  const slack = fakeSlack();
  const deps: MediaDeps = services(platform.client, slack);
  return { slack, deps };
}

const mediaId = (title: string) =>
  String([...platform.sim.state.medias.values()].find((m) => m.title === title)?.id);
const library = { id: 'VLIBRARY', hash: 'h', privateMetadata: '{"q":"","o":0}', callbackId: 'media_library' };

/** The `views.update` calls, once the work after the ack made `count` of them. */
const updates = (slack: FakeSlack, count = 1) => viewUpdates(slack, { count });

describe('opening the library', () => {
  it('shows a working view, then the media the person may see', async () => {
    const { slack, deps } = world();
    await handleMediaOpen(deps)(click(slack, { user: people.alice.id }).c);
    expect(JSON.stringify(slack.callsOf('views.open'))).toContain('Looking up the media');
    expect(JSON.stringify(await updates(slack))).toContain('Router manual');
  });

  it('shows a person without an account how to get one, in the modal', async () => {
    const { slack, deps } = world();
    await handleMediaOpen(deps)(click(slack, { user: people.nobody.id }).c);
    const shown = JSON.stringify(await updates(slack));
    expect(shown).toContain('nobody@example.com');
    expect(shown).not.toContain('Router manual');
  });
});

describe('a row’s menu', () => {
  it('Show pushes the media’s details over the library', async () => {
    const { slack, deps } = world();
    const value = `show:${mediaId('Router manual')}`;
    await handleMediaRow(deps)(click(slack, { user: people.alice.id, value, view: library }).c);
    expect(slack.callsOf('views.push')).toHaveLength(1);
    const [details] = await updates(slack);
    expect(details).toMatchObject({ view_id: 'V1' });
    expect(JSON.stringify(details)).toContain('Router manual');
  });

  it('Edit pushes the form carrying the media, the library and its query', async () => {
    const { slack, deps } = world();
    const id = mediaId('Router manual');
    await handleMediaRow(deps)(click(slack, { user: people.admin.id, value: `edit:${id}`, view: library }).c);
    const [form] = await updates(slack);
    expect(metadataOf(form)).toEqual({ m: id, v: 'VLIBRARY', q: { q: '', o: 0 } });
  });

  it('Delete asks in the library itself; a person who may not is told in a pushed view, the library untouched', async () => {
    const { slack, deps } = world();
    const id = mediaId('Incident review recording');
    await handleMediaRow(deps)(
      click(slack, { user: people.admin.id, value: `delete:${id}`, view: library }).c,
    );
    expect(slack.callsOf('views.push')).toEqual([]);
    expect(slack.callsOf('views.update')).toEqual([expect.objectContaining({ view_id: 'VLIBRARY' })]);

    const refused = world();
    const agent = click(refused.slack, { user: people.alice.id, value: `delete:${id}`, view: library });
    await handleMediaRow(refused.deps)(agent.c);
    expect(refused.slack.callsOf('views.push')).toHaveLength(1);
    const [told] = await updates(refused.slack);
    expect(told).toMatchObject({ view_id: 'V1' });
    expect(JSON.stringify(told)).toContain('delete this media');
  });

  it('an entry the bot did not write, or one outside the library, is out of date', async () => {
    const { slack, deps } = world();
    const forged = click(slack, { user: people.admin.id, value: 'burn:1', view: library });
    await expect(handleMediaRow(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
    const outside = click(slack, { user: people.admin.id, value: `show:${mediaId('Router manual')}` });
    await expect(handleMediaRow(deps)(outside.c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });
});

describe('the library’s pages and filter', () => {
  it('Next shows the page asked for in place; a forged page is out of date', async () => {
    const { slack, deps } = world();
    await handleMediaPage(deps)(
      click(slack, { user: people.admin.id, value: '{"q":"","o":0}', view: library }).c,
    );
    expect(slack.callsOf('views.update')).toEqual([expect.objectContaining({ view_id: 'VLIBRARY' })]);
    const forged = click(slack, { user: people.admin.id, value: '{"q":"","o":-1}', view: library });
    await expect(handleMediaPage(deps)(forged.c)).rejects.toMatchObject({ code: 'stale_button' });
  });

  it('a filter the library does not know is said in the library', async () => {
    const { slack, deps } = world();
    const bad = click(slack, { user: people.admin.id, value: '{"q":"colour:blue","o":0}', view: library });
    await expect(handleMediaPage(deps)(bad.c)).rejects.toMatchObject({ code: 'bad_media_filter' });
  });

  it('Filter pushes the filter form at once, with no platform call', async () => {
    const { slack, deps } = world();
    const requests = platform.sim.requests.length;
    await handleMediaFilter(deps)(
      click(slack, { user: people.alice.id, value: '{"q":"type:document","o":0}', view: library }).c,
    );
    const [pushed] = slack.callsOf('views.push');
    expect(JSON.stringify(pushed)).toContain('type:document');
    expect(metadataOf(pushed)).toEqual({
      v: 'VLIBRARY',
    });
    expect(platform.sim.requests.length).toBe(requests);
  });
});

describe('Delete after the confirmation', () => {
  it('refuses a person who may not, the media kept', async () => {
    const { slack, deps } = world();
    const id = mediaId('Incident review recording');
    const value = JSON.stringify({ q: '', o: 0, m: id });
    await expect(
      handleMediaDelete(deps)(click(slack, { user: people.alice.id, value, view: library }).c),
    ).rejects.toMatchObject({ code: 'not_allowed' });
    expect(platform.sim.state.medias.has(Number(id))).toBe(true);
  });

  it('deletes the media and brings the library back saying what went', async () => {
    const { slack, deps } = world();
    const id = mediaId('Incident review recording');
    const value = JSON.stringify({ q: '', o: 0, m: id });
    await handleMediaDelete(deps)(click(slack, { user: people.admin.id, value, view: library }).c);
    const [working, after] = slack.callsOf('views.update');
    expect(JSON.stringify(working)).toContain('Deleting the media');
    expect(JSON.stringify(after)).toContain('Deleted “Incident review recording”');
    expect(mediaId('Incident review recording')).toBe('undefined');
  });
});

describe('Share… beside a media outside the library', () => {
  it('opens the share form for a person who may share it', async () => {
    const { slack, deps } = world();
    const id = mediaId('Router manual');
    await handleMediaShareOpen(deps)(click(slack, { user: people.alice.id, value: id }).c);
    const [form] = await updates(slack);
    expect(metadataOf(form)).toEqual({ m: id });
  });

  it('a value that is no media id is out of date, nothing opened', async () => {
    const { slack, deps } = world();
    // It throws before its first await (not a rejection): wrapped, as either is the refusal here.
    const { c } = click(slack, { user: people.alice.id, value: 'abc' });
    await expect((async () => handleMediaShareOpen(deps)(c))()).rejects.toMatchObject({
      code: 'stale_button',
    });
    expect(slack.calls).toEqual([]);
  });
});
