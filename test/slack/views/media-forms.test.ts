import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import type { MediaDeps } from '../../../src/slack/deps.js';
import {
  handleMediaEditForm,
  handleMediaFilterForm,
  handleMediaShareForm,
} from '../../../src/slack/views/media-forms.js';
import {
  type FakeSlack,
  fakeSlack,
  services,
  submitted,
  usePlatform,
  useUploadTarget,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The media library's forms: input problems are inline errors in the ack (nothing sent); the rest
 * runs after the ack and is told in the modal, the library beneath refreshed.
 */
const platform = usePlatform();
const uploads = useUploadTarget();

/** `french`: every person's Slack profile says fr-FR. */
function world(french = false) {
  const slack = fakeSlack({
    'files.getUploadURLExternal': () => ({ upload_url: uploads.url, file_id: 'F1' }),
    ...(french
      ? {
          'users.info': (a: Record<string, unknown>) => ({
            user: { id: a.user, tz: 'Europe/Paris', locale: 'fr-FR' },
          }),
        }
      : {}),
  });
  const deps: MediaDeps = services(platform.client, slack);
  return { slack, deps };
}

const media = (title: string) => [...platform.sim.state.medias.values()].find((m) => m.title === title);
const text = (value: string) => ({ type: 'plain_text_input', value });
const libraryMetadata = JSON.stringify({ v: 'VLIBRARY' });

const updatesOf = async (slack: FakeSlack, viewId: string, count = 1) =>
  JSON.stringify(await viewUpdates(slack, { viewId, count }));

describe('the Filter form', () => {
  const filters = (value: string) => ({ [ids.mediaFilter.filters]: { f: text(value) } });

  it('shows the library’s first page for the words typed, in the library beneath', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: filters('type:document'),
      metadata: libraryMetadata,
    });
    await handleMediaFilterForm(deps)(args);
    expect(acks.given).toEqual([undefined]);
    const library = await updatesOf(slack, 'VLIBRARY', 2);
    expect(library).toContain('Router manual');
    expect(library).not.toContain('Incident review recording');
  });

  it('answers a filter it does not know inline, nothing looked up', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, { user: people.admin.id, values: filters('colour:blue') });
    await handleMediaFilterForm(deps)(args);
    expect(acks.given).toEqual([
      { response_action: 'errors', errors: { [ids.mediaFilter.filters]: expect.stringContaining('colour') } },
    ]);
    // Only the person's language was asked (their Slack profile): nothing else.
    expect(slack.calls.map((c) => c.method)).toEqual(['users.info']);
  });

  it('answers it in a French person’s language', async () => {
    const { slack, deps } = world(true);
    const { args, acks } = submitted(slack, { user: people.admin.id, values: filters('colour:blue') });
    await handleMediaFilterForm(deps)(args);
    expect(acks.given).toEqual([
      {
        response_action: 'errors',
        errors: {
          [ids.mediaFilter.filters]: expect.stringMatching(/^`colour:` n’est pas un filtre de médias/),
        },
      },
    ]);
  });
});

describe('the Edit form', () => {
  const edit = (values: Record<string, string>) =>
    Object.fromEntries(Object.entries(values).map(([block, value]) => [block, { e: text(value) }]));

  it('answers a half location inline, saving nothing', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: edit({ [ids.mediaEdit.lat]: '48.85' }),
    });
    await handleMediaEditForm(deps)(args);
    expect(acks.given).toEqual([
      { response_action: 'errors', errors: { lng: expect.stringContaining('both') } },
    ]);
    expect(slack.calls.map((c) => c.method)).toEqual(['users.info']);
  });

  it('answers it in a French person’s language', async () => {
    const { slack, deps } = world(true);
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: edit({ [ids.mediaEdit.lat]: '48.85' }),
    });
    await handleMediaEditForm(deps)(args);
    expect(acks.given).toEqual([
      {
        response_action: 'errors',
        errors: { lng: 'Un lieu demande à la fois la latitude et la longitude.' },
      },
    ]);
  });

  it('saves the title, says so, and refreshes the library beneath', async () => {
    const { slack, deps } = world();
    const id = String(media('Router manual')?.id);
    const { args, acks } = submitted(slack, {
      user: people.alice.id,
      values: edit({ [ids.mediaEdit.title]: 'Router manual v2' }),
      metadata: JSON.stringify({ m: id, v: 'VLIBRARY', q: { q: '', o: 0 } }),
    });
    await handleMediaEditForm(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    expect(await updatesOf(slack, 'VFORM')).toContain('Saved “Router manual v2”');
    expect(await updatesOf(slack, 'VLIBRARY')).toContain('Router manual v2');
    expect(media('Router manual v2')).toBeDefined();
  });

  it('tells a person who may not edit the media in the modal, nothing saved', async () => {
    const { slack, deps } = world();
    const recording = media('Incident review recording');
    const { args } = submitted(slack, {
      user: people.alice.id,
      values: edit({ [ids.mediaEdit.title]: 'Mine now' }),
      metadata: JSON.stringify({ m: String(recording?.id) }),
    });
    await handleMediaEditForm(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('edit this media');
    expect(recording?.title).toBe('Incident review recording');
  });
});

describe('the Share form', () => {
  const share = (channel: string | undefined, thread = '') => ({
    [ids.mediaShare.channel]: { c: { type: 'conversations_select', selected_conversation: channel } },
    [ids.mediaShare.thread]: { t: text(thread) },
  });

  it('answers a missing channel, a bad thread and a thread of another channel inline', async () => {
    const { slack, deps } = world();
    const acked = async (values: Record<string, unknown>) => {
      const { args, acks } = submitted(slack, { user: people.alice.id, values });
      await handleMediaShareForm(deps)(args);
      return acks.given;
    };
    expect(await acked(share(undefined))).toEqual([
      { response_action: 'errors', errors: { channel: 'Pick the channel to share it in.' } },
    ]);
    expect(await acked(share('C1', 'yesterday'))).toEqual([
      { response_action: 'errors', errors: { thread: expect.stringContaining('Paste a message’s link') } },
    ]);
    expect(await acked(share('C1', 'https://acme.slack.com/archives/C2/p1700000000123456'))).toEqual([
      { response_action: 'errors', errors: { thread: expect.stringContaining('another channel') } },
    ]);
    // Nothing sent: only the person's language read (their problems are told in it).
    expect(slack.calls.filter((c) => c.method !== 'users.info')).toEqual([]);
  });

  it('streams the file to Slack’s upload URL and posts it in the thread asked for', async () => {
    const { slack, deps } = world();
    const m = media('Router manual') ?? media('Router manual v2');
    const { args } = submitted(slack, {
      user: people.alice.id,
      values: share('C1', '1700000000.123456'),
      metadata: JSON.stringify({ m: String(m?.id) }),
    });
    const before = uploads.received();
    await handleMediaShareForm(deps)(args);
    expect(await updatesOf(slack, 'VFORM')).toContain('<#C1>');
    expect(uploads.received() - before).toBeGreaterThan(0);
    expect(slack.callsOf('files.completeUploadExternal')).toEqual([
      expect.objectContaining({ channel_id: 'C1', thread_ts: '1700000000.123456' }),
    ]);
  });
});
