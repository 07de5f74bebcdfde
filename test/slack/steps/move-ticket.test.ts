import { describe, expect, it } from 'vitest';
import { stepIds } from '../../../src/domain/workflow-steps.js';
import { createPlatformClient } from '../../../src/platform/client.js';
import { handleMoveTicketStep } from '../../../src/slack/steps/move-ticket.js';
import { fakeSlack, stepDeps, stepRun, usePlatform, userContext } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** The *Move a ticket* step, called as Bolt calls it, over the simulator. */
const platform = usePlatform();
const byRef = (ref: string) => [...platform.sim.state.tickets.values()].find((t) => t.reference === ref);

describe('the Move a ticket step', () => {
  it('moves the ticket for the person Slack vouches for and completes with the new state', async () => {
    const slack = fakeSlack();
    const { deps, published } = stepDeps(platform.client, slack);
    expect(byRef('ACME-1002')?.state).toBe('open');
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.moveTicket,
      inputs: { run_as: userContext(people.bob.id), ticket: 'ACME-1002', move: 'start' },
    });
    await handleMoveTicketStep(deps)(args);
    expect(failed).toEqual([]);
    expect(completed).toEqual([{ state: 'inprogress' }]);
    expect(byRef('ACME-1002')?.state).toBe('inprogress');
    // The cards and threads hear of it as after a click, naming Bob.
    expect(published.map((p) => [p.what, p.args[1]])).toEqual([['ticketChanged', people.bob.id]]);
  });

  it('refuses a non-admin builder’s step that types the admin’s user id: the ticket is not theirs, nothing moves', async () => {
    const slack = fakeSlack();
    const { deps, published } = stepDeps(platform.client, slack);
    // Carol's ticket, in Level 2: Alice (Level 1) may not act on it; the admin may.
    const state = byRef('ACME-1004')?.state;
    expect(state).toBe('inprogress');
    const { args, completed, failed } = stepRun(slack, {
      callbackId: stepIds.moveTicket,
      inputs: {
        run_as: userContext(people.alice.id),
        user_id: people.admin.id,
        admin: { id: people.admin.id },
        ticket: 'ACME-1004',
        move: 'done',
      },
    });
    await handleMoveTicketStep(deps)(args);
    expect(completed).toEqual([]);
    expect(failed).toEqual([expect.stringContaining('You cannot act on this ticket')]);
    expect(byRef('ACME-1004')?.state).toBe(state);
    expect(published).toEqual([]);
  });

  it('fails, saying so, when its platform request cannot be granted within the deadline: nothing sent', async () => {
    // One request per two minutes, already spent: the step's first request would wait about two.
    const tiny = createPlatformClient({
      baseUrl: platform.sim.url,
      credentials: { kind: 'token', token: platform.sim.adminToken },
      rateLimitPerMinute: 1,
      rateWindowMs: 120_000,
    });
    try {
      await tiny.getMe();
      const slack = fakeSlack();
      const sent = platform.sim.requests.length;
      const { args, completed, failed } = stepRun(slack, {
        callbackId: stepIds.moveTicket,
        inputs: { run_as: userContext(people.admin.id), ticket: 'ACME-1004', move: 'done' },
      });
      const started = Date.now();
      await handleMoveTicketStep(stepDeps(tiny, slack).deps)(args);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(completed).toEqual([]);
      expect(failed).toEqual([expect.stringContaining('did not get its turn within 60 s')]);
      expect(platform.sim.requests.length).toBe(sent);
      expect(byRef('ACME-1004')?.state).toBe('inprogress');
    } finally {
      await tiny.close();
    }
  });

  it('fails at once when the budget cannot grant within a shorter deadline, and says the deadline', async () => {
    const tiny = createPlatformClient({
      baseUrl: platform.sim.url,
      credentials: { kind: 'token', token: platform.sim.adminToken },
      rateLimitPerMinute: 1,
    });
    try {
      await tiny.getMe();
      const slack = fakeSlack();
      const { args, failed } = stepRun(slack, {
        callbackId: stepIds.moveTicket,
        inputs: { run_as: userContext(people.admin.id), ticket: '82003', move: 'start' },
      });
      const deps = { ...stepDeps(tiny, slack).deps, stepGrantMs: 300 };
      await handleMoveTicketStep(deps)(args);
      expect(failed).toEqual([expect.stringContaining('did not get its turn within 1 s')]);
      expect(tiny.budget.estimateWaitMs('interactive')).toBeGreaterThan(0);
    } finally {
      await tiny.close();
    }
  });
});
