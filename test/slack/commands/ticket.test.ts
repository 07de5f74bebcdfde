import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { handleTicketCommand } from '../../../src/slack/commands/ticket.js';
import { eventually, fakeSlack, slash, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** `/ticket` behind its verb table: the form, a list, a card, the help. */
const platform = usePlatform();

function ticket(user: string, text: string) {
  const slack = fakeSlack();
  const { deps, published } = ticketDeps(platform.client, slack);
  const command = slash(slack, { user, text, command: '/ticket' });
  return { slack, published, run: () => handleTicketCommand(deps)(command.args), ...command };
}

describe('/ticket', () => {
  it('alone opens the form, prefilled from `new …` words', async () => {
    const { slack, run, acks } = ticket(people.alice.id, 'new jane.doe@example.com Router does not boot');
    await run();
    expect(acks.given).toEqual([undefined]);
    await eventually(() => expect(slack.callsOf('views.update')).toHaveLength(1));
    const form = JSON.stringify(slack.callsOf('views.update')[0]);
    expect(form).toContain(ids.views.ticketForm);
    expect(form).toContain('jane.doe@example.com');
    expect(form).toContain('Router does not boot');
  });

  it('show posts the ticket’s card in the channel, then removes its "Working…"', async () => {
    const { run, acks, replies, published } = ticket(people.alice.id, 'show #ACME-1001');
    await run();
    expect(JSON.stringify(acks.given)).toContain('Looking up the ticket');
    await eventually(() => expect(replies.given).toEqual([{ delete_original: true }]));
    expect(published).toEqual([
      { what: 'postCard', args: ['C1', expect.objectContaining({ reference: 'ACME-1001' })] },
    ]);
  });

  it('show refuses a ticket of another group in place of the "Working…", posting nothing', async () => {
    const { run, replies, published } = ticket(people.alice.id, 'show ACME-1004');
    await run();
    await eventually(() => expect(replies.given).toHaveLength(1));
    expect(replies.given[0]).toMatchObject({ replace_original: true });
    expect(replies.text()).toContain('see this ticket');
    expect(published).toEqual([]);
  });

  it('answers a verb it does not know, or a query it cannot read, with the help in the ack', async () => {
    for (const text of ['frobnicate', 'show two refs', 'list since:yesterday']) {
      const { run, acks, replies } = ticket(people.alice.id, text);
      await run();
      expect(JSON.stringify(acks.given)).toContain('/ticket help');
      expect(replies.given).toEqual([]);
    }
  });
});
