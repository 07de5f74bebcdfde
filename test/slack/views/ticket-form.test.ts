import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { buildTicketForm } from '../../../src/blocks/ticket-form.js';
import type { TicketFormDeps } from '../../../src/slack/deps.js';
import { handleTicketForm } from '../../../src/slack/views/ticket-form.js';
import { formState } from '../../helpers/form-state.js';
import {
  type FakeSlack,
  fakeSlack,
  slackRefusal,
  submitted,
  ticketDeps,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The ticket form's submission: rule breaks inline at once; otherwise a working view, the ticket
 * created, its card posted in the chosen channel (which then follows it), and the outcome shown.
 */
const platform = usePlatform();

const f = ids.ticketForm;
const form = buildTicketForm({
  locale: 'en',
  values: { channel: 'C1', emails: [], phones: [], scopes: [] },
  choices: { users: [], groups: [] },
  metadata: '',
}) as unknown as Record<string, unknown>;

function world() {
  const slack = fakeSlack();
  const t = ticketDeps(platform.client, slack);
  const watched: unknown[][] = [];
  t.deps.subscriptions = {
    watch: async (...a: unknown[]) => void watched.push(a),
  } as unknown as TicketFormDeps['subscriptions'];
  return { slack, watched, ...t };
}

const outcome = async (slack: FakeSlack) => JSON.stringify((await viewUpdates(slack))[0]);
const created = (subject: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.subject === subject);

describe('the ticket form', () => {
  it('answers a requestor without e-mail or phone inline, creating nothing', async () => {
    const { slack, deps } = world();
    const { args, acks } = submitted(slack, { user: people.alice.id, values: formState(form) });
    await handleTicketForm(deps)(args);
    expect(acks.given).toEqual([
      { response_action: 'errors', errors: { [f.emails]: expect.stringContaining('at least one e-mail') } },
    ]);
    // Only the person's language was read (their profile), nothing else asked of Slack.
    expect(slack.calls.filter((c) => c.method !== 'users.info')).toEqual([]);
  });

  it('says the rules’ problems in the person’s language: French for fr-FR, English as before otherwise', async () => {
    const values = formState(form, { [f.emails]: 'info@example.com', [f.phones]: '0612', [f.country]: 'ZZ' });
    const errorsFor = async (locale: string) => {
      const slack = fakeSlack({
        'users.info': (a) => ({ user: { id: a.user, tz: 'Europe/Paris', profile: {}, locale } }),
      });
      const { deps } = ticketDeps(platform.client, slack);
      const { args, acks } = submitted(slack, { user: people.alice.id, values });
      await handleTicketForm(deps)(args);
      return (acks.given[0] as { errors: Record<string, string> }).errors;
    };
    expect(await errorsFor('fr-FR')).toEqual({
      [f.emails]:
        'Indiquez l’adresse personnelle de quelqu’un\u202f: les boîtes génériques ou partagées (info@, support@, contact@…) ne sont pas acceptées',
      [f.phones]: 'Un numéro de téléphone international est attendu, comme +33612345678',
      [f.country]: 'Un code pays ISO 3166-1 alpha-2 est attendu, comme FR ou DE',
    });
    expect(await errorsFor('en-GB')).toEqual({
      [f.emails]:
        'Use a person’s own e-mail: generic or shared mailboxes (info@, support@, contact@…) are not allowed',
      [f.phones]: 'Expected an international phone number such as +33612345678',
      [f.country]: 'Expected an ISO 3166-1 alpha-2 country code such as FR or US',
    });
  });

  it('creates the ticket, posts its card in the channel, which follows it, and shows the outcome', async () => {
    const { slack, deps, published, watched } = world();
    const values = formState(form, { [f.emails]: 'jane.doe@example.com', [f.subject]: 'Printer on fire' });
    const { args, acks } = submitted(slack, { user: people.alice.id, values });
    await handleTicketForm(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    const shown = await outcome(slack);
    const ticket = created('Printer on fire');
    expect(ticket).toBeDefined();
    expect(shown).toContain(String(ticket?.reference ?? ticket?.id));
    expect(published.map((p) => p.what)).toEqual(['postCard', 'ticketChanged']);
    expect(watched).toEqual([
      ['C1', expect.objectContaining({ subject: 'Printer on fire' }), people.alice.id],
    ]);
  });

  it('still shows the ticket, with the fix, when the bot may not post in the channel', async () => {
    const { slack, deps } = world();
    deps.publisher.postCard = async () => {
      throw slackRefusal('not_in_channel');
    };
    const values = formState(form, { [f.emails]: 'jane.doe@example.com', [f.subject]: 'Fax jammed' });
    await handleTicketForm(deps)(submitted(slack, { user: people.alice.id, values }).args);
    expect(await outcome(slack)).toContain('/invite');
    expect(created('Fax jammed')).toBeDefined();
  });

  it('brings a person without an account the form back with the reason, creating nothing', async () => {
    const { slack, deps, published } = world();
    const values = formState(form, { [f.emails]: 'jane.doe@example.com', [f.subject]: 'Not mine to ask' });
    await handleTicketForm(deps)(submitted(slack, { user: people.nobody.id, values }).args);
    const shown = await outcome(slack);
    expect(shown).toContain('Nothing was created');
    expect(shown).toContain('nobody@example.com');
    expect(shown).toContain(ids.views.ticketForm);
    expect(created('Not mine to ask')).toBeUndefined();
    expect(published).toEqual([]);
  });
});
