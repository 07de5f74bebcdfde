import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, eventually, formState, people, submission, useBot } from '../helpers/bot.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

type Json = Record<string, unknown>;
const f = {} as BotFixture;
useBot(f);

const lastView = () => [...f.slack.views.values()].at(-1)?.view as Json;
const resultWith = (subject: string) =>
  eventually(() =>
    f.slack
      .callsOf('views.update')
      .map((c) => JSON.stringify(c.args.view))
      .find((v) => v.includes('is created') && v.includes(subject)),
  );

/** Opens the ticket form, fills it with a group, submits it; answers the result view's JSON. */
async function createTicket(subject: string) {
  const updates = f.slack.callsOf('views.update').length;
  await f.command('', people.admin.id, 'CDROP', '/ticket');
  await eventually(() => f.slack.callsOf('views.update').length > updates);
  const form = lastView();
  expect(form.callback_id).toBe(ids.views.ticketForm);
  // The group menu is type-ahead: what it answers for "Level 1".
  const answer = await f.interact(suggestion(people.admin.id, ids.options.groups, 'Level 1'));
  const level1 = optionsOf(answer.body).find((o) => o.text.text === 'Level 1') as unknown as Json;
  const values = formState(form, {
    emails: 'jane.doe@example.com',
    subject,
    reference: `REF-${subject.length}`,
    groupId: { selected_option: level1 },
    country: 'fr',
  });
  await f.interact(submission(form, people.admin.id, values));
  return resultWith(`REF-${subject.length}`);
}

describe('what the platform did not keep of a create', () => {
  /** The reads of one ticket by id since `from` in the simulator's log (the read after a create). */
  const ticketReads = (from: number, subject: string) => {
    const t = [...f.platform.sim.state.tickets.values()].find((x) => x.subject === subject);
    return f.platform.sim.requests
      .slice(from)
      .filter((r) => r.method === 'GET' && r.path === `/api/v3/tickets/${t?.id}`).length;
  };

  it('says nothing when everything was kept (no false alarm), and reads nothing more than the answer', async () => {
    const from = f.platform.sim.requests.length;
    const result = await createTicket('All kept here');
    expect(result).not.toContain('did not keep');
    expect(f.platform.client.findings.snapshot().droppedFields).toEqual({});
    // The create's answer showed every field as sent: no second request for the same ticket.
    expect(ticketReads(from, 'All kept here')).toBe(0);
  });

  it('tells the person which field of a ticket the platform silently dropped, and records it', async () => {
    f.platform.sim.setQuirks({ ignoredCreateParams: ['groupId'] });
    try {
      const from = f.platform.sim.requests.length;
      const result = await createTicket('Group dropped silently');
      // The answer did not show the group as sent: the ticket is read as the platform now has it.
      expect(ticketReads(from, 'Group dropped silently')).toBe(1);
      expect(result).toContain('The platform did not keep: group.');
      expect(f.platform.client.findings.snapshot().droppedFields).toEqual({ createTicket: ['groupId'] });
      // The card shows the ticket as the platform has it: without a group.
      const ticket = [...f.platform.sim.state.tickets.values()].find(
        (t) => t.subject === 'Group dropped silently',
      );
      expect(ticket?.groupId).toBeUndefined();
    } finally {
      f.platform.sim.setQuirks({ ignoredCreateParams: [] });
    }
  });

  it('tells the person which field of a conference from /conference text was dropped', async () => {
    f.platform.sim.setQuirks({ ignoredCreateParams: ['duration'] });
    try {
      const cmd = await f.command(
        '<mailto:jane.doe@example.com|jane.doe@example.com> tomorrow 3pm 45m "Long sync"',
        people.alice.id,
        'C2',
      );
      expect(cmd.status).toBe(200);
      const said = await eventually(() =>
        f.slack.responses.find((r) => String(r.body.text).includes('did not keep')),
      );
      expect(said.body.text).toEqual(
        expect.stringContaining('The conference is created. :warning: The platform did not keep: duration.'),
      );
      expect(f.platform.client.findings.snapshot().droppedFields.createConference).toEqual(['duration']);
      // The card shows the platform's duration, not the 45 minutes asked.
      const card = await eventually(() =>
        f.slack.messages.find((m) => m.channel === 'C2' && JSON.stringify(m.blocks).includes('Long sync')),
      );
      expect(JSON.stringify(card.blocks)).not.toContain('45 min');
    } finally {
      f.platform.sim.setQuirks({ ignoredCreateParams: [] });
    }
  });
});
