import { describe, expect, it } from 'vitest';
import { buildTicketExportForm } from '../../../src/blocks/ticket-form.js';
import { handleTicketExport } from '../../../src/slack/views/ticket-export.js';
import { formState } from '../../helpers/form-state.js';
import {
  type FakeSlack,
  fakeSlack,
  submitted,
  ticketDeps,
  usePlatform,
  useUploadTarget,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** The card menu's Export form: the file goes to the card's thread; the outcome is told in the modal. */
const platform = usePlatform();
const uploads = useUploadTarget();

const idOf = (reference: string) =>
  String([...platform.sim.state.tickets.values()].find((t) => t.reference === reference)?.id);
const values = formState(buildTicketExportForm('en', '') as unknown as Record<string, unknown>);

function world(reference: string) {
  const slack = fakeSlack({
    'files.getUploadURLExternal': () => ({ upload_url: uploads.url, file_id: 'F1' }),
  });
  const card = { ticketId: idOf(reference), channel: 'C1', ts: '1700000000.000100' };
  return { slack, card, ...ticketDeps(platform.client, slack, [card]) };
}

const outcome = async (slack: FakeSlack) => JSON.stringify((await viewUpdates(slack))[0]);

describe('the ticket export form', () => {
  it('posts the export in the card’s thread and says so', async () => {
    const { slack, deps, card } = world('ACME-1001');
    const before = uploads.received();
    const { args, acks } = submitted(slack, {
      user: people.alice.id,
      values,
      metadata: JSON.stringify(card),
    });
    await handleTicketExport(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    await outcome(slack);
    expect(uploads.received()).toBeGreaterThan(before);
    expect(slack.callsOf('files.completeUploadExternal')).toEqual([
      expect.objectContaining({ channel_id: 'C1', thread_ts: card.ts }),
    ]);
  });

  it('asks nothing of the platform for a card whose thread the store does not know', async () => {
    const { slack, deps } = world('ACME-1001');
    const requests = platform.sim.requests.length;
    const metadata = JSON.stringify({ ticketId: idOf('ACME-1001'), channel: 'C9', ts: '1700000000.000900' });
    await handleTicketExport(deps)(submitted(slack, { user: people.alice.id, values, metadata }).args);
    await outcome(slack);
    expect(platform.sim.requests.length).toBe(requests);
    expect(slack.callsOf('files.getUploadURLExternal')).toEqual([]);
  });

  it('tells a person who may not export the ticket that the export failed, and why', async () => {
    const { slack, deps, card } = world('ACME-1004');
    await handleTicketExport(deps)(
      submitted(slack, { user: people.alice.id, values, metadata: JSON.stringify(card) }).args,
    );
    const shown = await outcome(slack);
    expect(shown).toContain('The export failed');
    expect(shown).toContain('export this ticket');
    expect(slack.callsOf('files.getUploadURLExternal')).toEqual([]);
  });
});
