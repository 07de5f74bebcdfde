import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { buildTicketEditForm } from '../../../src/blocks/ticket-form.js';
import { handleTicketEdit } from '../../../src/slack/views/ticket-edit.js';
import { formState } from '../../helpers/form-state.js';
import {
  type FakeSlack,
  fakeSlack,
  submitted,
  ticketDeps,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The card menu's Edit form: only the changed fields are sent, the cards told; a refusal brings the
 * form back with everything typed and the reason.
 */
const platform = usePlatform();

const ticket = (reference: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.reference === reference);
const e = ids.ticketEdit;

/** The edit form of `reference` as the menu opens it, typed over with `changes`. */
function typed(reference: string, changes: Record<string, string>) {
  const t = ticket(reference);
  const form = buildTicketEditForm({
    locale: 'en',
    values: { subject: t?.subject, description: t?.description, reference },
    choices: { users: [], groups: [] },
    metadata: '',
  }) as unknown as Record<string, unknown>;
  return formState(form, changes);
}

const outcome = async (slack: FakeSlack) => JSON.stringify((await viewUpdates(slack))[0]);

describe('the ticket edit form', () => {
  it('saves the changed subject, tells the cards and shows what changed', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const metadata = JSON.stringify({ ticketId: String(ticket('ACME-1001')?.id) });
    const { args, acks } = submitted(slack, {
      user: people.alice.id,
      metadata,
      values: typed('ACME-1001', { [e.subject]: 'Router boots, then stops' }),
    });
    await handleTicketEdit(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    expect(await outcome(slack)).toContain('subject');
    expect(ticket('ACME-1001')?.subject).toBe('Router boots, then stops');
    expect(published).toEqual([
      {
        what: 'ticketChanged',
        args: [expect.objectContaining({ kind: 'edited', changed: ['subject'] }), people.alice.id],
      },
    ]);
  });

  it('brings the form back with the reason for a ticket of another group, saving nothing', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const metadata = JSON.stringify({ ticketId: String(ticket('ACME-1004')?.id) });
    const { args } = submitted(slack, {
      user: people.alice.id,
      metadata,
      values: typed('ACME-1004', { [e.subject]: 'Taken over' }),
    });
    await handleTicketEdit(deps)(args);
    const shown = await outcome(slack);
    expect(shown).toContain('Nothing was saved');
    expect(shown).toContain('Taken over');
    expect(ticket('ACME-1004')?.subject).toBe('Washing machine leak');
    expect(published).toEqual([]);
  });
});
