import { describe, expect, it } from 'vitest';
import {
  handleDelete,
  handleEdit,
  handleExport,
  handleMedia,
  handleTicketDelete,
  handleTicketMediaPost,
  handleTimeline,
} from '../../../src/slack/actions/ticket-menu.js';
import {
  click,
  eventually,
  fakeSlack,
  metadataOf,
  ticketDeps,
  usePlatform,
  useUploadTarget,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The ticket card's menu entries, the Delete prompt's button and the media list's "Post in the
 * thread": each for a person who may act on the ticket, each refused to one who may not.
 */
const platform = usePlatform();
const uploads = useUploadTarget();

const ticket = (reference: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.reference === reference);
const idOf = (reference: string) => String(ticket(reference)?.id);
/** The card of ACME-1001 in C1, as the store knows it. */
const card = () => ({ ticketId: idOf('ACME-1001'), channel: 'C1', ts: '1700000000.000100' });

function world() {
  const slack = fakeSlack({
    'files.getUploadURLExternal': () => ({ upload_url: uploads.url, file_id: 'F1' }),
  });
  return { slack, ...ticketDeps(platform.client, slack, [card()]) };
}

describe('Timeline', () => {
  it('is posted in the card’s thread, or privately when the card has none', async () => {
    const { slack, deps, published } = world();
    await handleTimeline(deps)(click(slack, { user: people.alice.id }).c, card());
    expect(published).toEqual([
      { what: 'postInThread', args: [{ channel: 'C1', ts: card().ts }, expect.anything()] },
    ]);
    const loose = click(slack, { user: people.alice.id });
    await handleTimeline(deps)(loose.c, { ticketId: idOf('ACME-1001') });
    expect(loose.replies.given).toEqual([expect.objectContaining({ response_type: 'ephemeral' })]);
  });

  it('is refused for a ticket of another group', async () => {
    const { slack, deps, published } = world();
    const { c, replies } = click(slack, { user: people.alice.id });
    await expect(handleTimeline(deps)(c, { ticketId: idOf('ACME-1004') })).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('timeline'),
    });
    expect(published).toEqual([]);
    expect(replies.given).toEqual([]);
  });
});

describe('Media', () => {
  it('lists the ticket’s files privately, each postable in the thread', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.alice.id });
    await handleMedia(deps)(c, card());
    expect(replies.text()).toContain('Router manual');
  });

  it('is refused for a ticket of another group', async () => {
    const { slack, deps } = world();
    const { c } = click(slack, { user: people.alice.id });
    await expect(handleMedia(deps)(c, { ticketId: idOf('ACME-1004') })).rejects.toMatchObject({
      code: 'not_allowed',
    });
  });
});

describe('Export', () => {
  it('opens the export form carrying the card’s place', async () => {
    const { slack, deps } = world();
    await handleExport(deps)(click(slack, { user: people.alice.id }).c, card());
    const [opened] = slack.callsOf('views.open');
    expect(metadataOf(opened)).toEqual(card());
  });

  it('opens nothing for a person who may not export the ticket', async () => {
    const { slack, deps } = world();
    await expect(
      handleExport(deps)(click(slack, { user: people.nobody.id }).c, card()),
    ).rejects.toMatchObject({ code: 'no_platform_account' });
    expect(slack.calls.filter((call) => call.method.startsWith('views.'))).toEqual([]);
  });
});

describe('Delete (the prompt)', () => {
  it('asks privately, its button carrying the card’s place', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.alice.id });
    await handleDelete(deps)(c, card());
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: false }),
    ]);
    expect(replies.text()).toContain('ACME-1001');
  });

  it('is refused for a ticket of another group', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.alice.id });
    await expect(handleDelete(deps)(c, { ticketId: idOf('ACME-1004') })).rejects.toMatchObject({
      code: 'not_allowed',
    });
    expect(replies.given).toEqual([]);
  });
});

describe('Edit', () => {
  it('opens a working modal at once, then the form prefilled with the ticket', async () => {
    const { slack, deps } = world();
    await handleEdit(deps)(click(slack, { user: people.alice.id }).c, card());
    expect(JSON.stringify(slack.callsOf('views.open'))).toContain('Loading the ticket');
    const [form] = slack.callsOf('views.update');
    expect(JSON.stringify(form)).toContain('Router does not boot');
  });

  it('shows the refusal in the modal and says it beside the card', async () => {
    const { slack, deps } = world();
    const { c, replies } = click(slack, { user: people.alice.id });
    await handleEdit(deps)(c, { ticketId: idOf('ACME-1004') });
    expect(JSON.stringify(slack.callsOf('views.update'))).toContain('edit this ticket');
    expect(replies.text()).toContain('edit this ticket');
  });
});

describe('the Delete prompt’s button', () => {
  it('deletes the ticket, replaces the prompt and tells every card', async () => {
    const { slack, deps, published } = world();
    const value = JSON.stringify({ ticketId: idOf('ACME-1006') });
    const { c, replies } = click(slack, { user: people.admin.id, value });
    await handleTicketDelete(deps)(c);
    expect(replies.given).toEqual([expect.objectContaining({ replace_original: true })]);
    expect(published).toEqual([
      { what: 'ticketChanged', args: [{ kind: 'deleted', ticket: expect.anything() }, people.admin.id] },
    ]);
    expect(ticket('ACME-1006')?.deleted).toBeDefined();
  });

  it('is refused for a ticket of another group, which stays', async () => {
    const { slack, deps, published } = world();
    const value = JSON.stringify({ ticketId: idOf('ACME-1004') });
    await expect(
      handleTicketDelete(deps)(click(slack, { user: people.alice.id, value }).c),
    ).rejects.toMatchObject({
      code: 'not_allowed',
    });
    expect(ticket('ACME-1004')?.deleted).toBeUndefined();
    expect(published).toEqual([]);
  });
});

describe('a media list’s Post in the thread', () => {
  const media = () =>
    String([...platform.sim.state.medias.values()].find((m) => m.title === 'Router manual')?.id);

  it('streams the file into the card’s thread', async () => {
    const { slack, deps } = world();
    const { channel, ts } = card();
    const value = JSON.stringify({ k: idOf('ACME-1001'), m: media(), c: channel, t: ts });
    const before = uploads.received();
    await handleTicketMediaPost(deps)(click(slack, { user: people.alice.id, value }).c);
    expect(uploads.received()).toBeGreaterThan(before);
    await eventually(() =>
      expect(slack.callsOf('files.completeUploadExternal')).toEqual([
        expect.objectContaining({ channel_id: channel, thread_ts: ts }),
      ]),
    );
  });

  it('refuses a thread that is not the ticket’s card, posting nothing', async () => {
    const { slack, deps } = world();
    const value = JSON.stringify({ k: idOf('ACME-1001'), m: media(), c: 'C2', t: '1700000000.000200' });
    await expect(
      handleTicketMediaPost(deps)(click(slack, { user: people.alice.id, value }).c),
    ).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });
});
