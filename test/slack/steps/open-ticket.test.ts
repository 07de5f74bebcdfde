import { describe, expect, it } from 'vitest';
import { stepIds } from '../../../src/domain/workflow-steps.js';
import { handleOpenTicketStep } from '../../../src/slack/steps/open-ticket.js';
import { fakeSlack, stepDeps, stepRun, usePlatform, userContext } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** The *Open an assistance ticket* step, called as Bolt calls it, over the simulator. */
const platform = usePlatform();
const tickets = () => [...platform.sim.state.tickets.values()];
const userOf = (email: string) => [...platform.sim.state.users.values()].find((u) => u.email === email);

describe('the Open an assistance ticket step', () => {
  it('opens the ticket for the person Slack vouches for, posts and watches its card as /ticket does', async () => {
    const slack = fakeSlack();
    const { deps, published, watched } = stepDeps(platform.client, slack);
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.openTicket,
      inputs: {
        run_as: userContext(people.alice.id),
        requestor: 'jo.requestor@example.com',
        subject: 'Printer jammed (from a workflow)',
        group: 'Level 1',
        channel: 'C7',
      },
    });
    await handleOpenTicketStep(deps)(args);
    expect(failed).toEqual([]);
    const made = tickets().find((t) => t.subject === 'Printer jammed (from a workflow)');
    expect(made?.requestor.emails).toEqual(['jo.requestor@example.com']);
    expect(made?.agentId).toBe(userOf(people.alice.email)?.id);
    expect(made?.groupId).toBe(userOf(people.alice.email)?.groups[0]);
    expect(published.map((p) => p.what)).toEqual(['postCard', 'ticketChanged', 'permalink']);
    expect(published[0]?.args[0]).toBe('C7');
    expect(watched).toEqual([['C7', expect.objectContaining({ id: String(made?.id) }), people.alice.id]]);
    expect(completed).toEqual([
      {
        ticket_id: String(made?.id),
        reference: made?.reference ?? '',
        card_link: 'https://acme.slack.test/1.000000',
      },
    ]);
  });

  it('refuses a non-admin’s step that names an admin in a plain input: the group is checked against the vouched person', async () => {
    const slack = fakeSlack();
    const before = tickets().length;
    const { deps, published } = stepDeps(platform.client, slack);
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.openTicket,
      inputs: {
        // Bob (an agent of Level 1) built the step to act as the admin, by a typed user id.
        run_as: userContext(people.bob.id),
        acting_user: people.admin.id,
        requestor: '+33 6 00 00 00 01',
        subject: 'Given to a group Bob is not in',
        group: 'Level 2',
        channel: 'C7',
      },
    });
    await handleOpenTicketStep(deps)(args);
    expect(completed).toEqual([]);
    expect(failed).toEqual([expect.stringContaining('give a ticket to that group or to another agent')]);
    expect(tickets()).toHaveLength(before);
    expect(published).toEqual([]);
  });

  it('fails with the input to fix when the requestor is neither an e-mail nor a phone', async () => {
    const slack = fakeSlack();
    const before = tickets().length;
    const { args, failed } = stepRun(slack, {
      callbackId: stepIds.openTicket,
      inputs: { run_as: userContext(people.alice.id), requestor: 'Jane', subject: 'x', channel: 'C7' },
    });
    await handleOpenTicketStep(stepDeps(platform.client, slack).deps)(args);
    expect(failed).toEqual([
      expect.stringMatching(/input “requestor” is not valid: The requestor is neither/),
    ]);
    expect(tickets()).toHaveLength(before);
  });
});
