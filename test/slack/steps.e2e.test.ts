import { describe, expect, it } from 'vitest';
import type { SlackStepRun } from '../../src/dev/slack-double.js';
import { stepIds } from '../../src/domain/workflow-steps.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';
import { userContext } from '../helpers/listener-fakes.js';

/**
 * The Workflow Builder steps end to end: the Slack double starts a run (its own token) and sends
 * `function_executed` to the bot's real receiver, over HTTP and over Socket Mode; the bot answers
 * with `functions.completeSuccess` or `functions.completeError`, which the double records; the
 * simulator holds what was created.
 */
const start = Math.floor(new Date('2027-04-02T14:00:00Z').getTime() / 1000);

async function run(f: BotFixture, callbackId: string, inputs: Record<string, unknown>) {
  const { run, event } = f.slack.startStep({ callbackId, inputs });
  const res = await f.event(event);
  expect(res).toEqual({ status: 200, body: null });
  return eventually(() => (run.ended ? (run as Required<SlackStepRun>) : undefined));
}

for (const transport of ['HTTP', 'Socket Mode'] as const)
  describe(`Workflow Builder steps over ${transport}`, () => {
    const f = {} as BotFixture;
    useBot(f, { socket: transport === 'Socket Mode' });

    it('opens a ticket for the vouched person, posts its card, and completes with its id, reference and permalink, with the execution’s token', async () => {
      const subject = `Workflow ticket (${transport})`;
      const done = await run(f, stepIds.openTicket, {
        run_as: userContext(people.alice.id),
        requestor: 'wf.requestor@example.com',
        subject,
        channel: 'CSTEPS',
      });
      const ticket = [...f.platform.sim.state.tickets.values()].find((t) => t.subject === subject);
      expect(ticket?.requestor.emails).toEqual(['wf.requestor@example.com']);
      expect(done.ended).toMatchObject({
        kind: 'completed',
        token: done.token,
        outputs: {
          ticket_id: String(ticket?.id),
          reference: ticket?.reference ?? '',
          card_link: expect.stringContaining('CSTEPS'),
        },
      });
      const card = f.slack.messages.find((m) => m.channel === 'CSTEPS' && String(m.text).includes(subject));
      expect(card).toBeDefined();
      // Ended with the execution's own token, never the bot's.
      expect(f.slack.callsOf('functions.completeSuccess').at(-1)?.token).toBe(done.token);
    });

    it('creates a conference and completes with its id, join link and card', async () => {
      const done = await run(f, stepIds.createConference, {
        run_as: userContext(people.bob.id),
        title: `Workflow sync (${transport})`,
        participants: [people.alice.id],
        start,
        channel: 'CSTEPS',
      });
      const made = [...f.platform.sim.state.conferences.values()].find(
        (c) => c.name === `Workflow sync (${transport})`,
      );
      expect(made?.participants).toContain(people.alice.email);
      expect(done.ended).toMatchObject({
        kind: 'completed',
        outputs: { conference_id: String(made?.id), card_link: expect.stringContaining('CSTEPS') },
      });
    });

    it('refuses a non-admin builder’s step that names the admin in a plain input: completeError, nothing moved', async () => {
      const ticket = [...f.platform.sim.state.tickets.values()].find((t) => t.reference === 'ACME-1004');
      const state = ticket?.state;
      const done = await run(f, stepIds.moveTicket, {
        run_as: userContext(people.alice.id),
        user_id: people.admin.id,
        ticket: 'ACME-1004',
        move: 'done',
      });
      expect(done.ended).toMatchObject({
        kind: 'failed',
        token: done.token,
        error: expect.stringContaining('You cannot act on this ticket'),
      });
      expect(ticket?.state).toBe(state);
    });

    it('fails a step with no vouched person, saying how to set “Run as”', async () => {
      const done = await run(f, stepIds.moveTicket, { ticket: 'ACME-1002', move: 'start', run_as: 'UADMIN' });
      expect(done.ended).toMatchObject({ kind: 'failed', error: expect.stringContaining('“Run as”') });
    });

    it('runs a step once when Slack sends its event again', async () => {
      const subject = `Retried workflow ticket (${transport})`;
      const { run: r, event } = f.slack.startStep({
        callbackId: stepIds.openTicket,
        inputs: {
          run_as: userContext(people.alice.id),
          requestor: '+33 6 00 00 00 09',
          subject,
          channel: 'CSTEPS',
        },
      });
      await f.event(event);
      await f.event(event);
      await eventually(() => r.ended);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect([...f.platform.sim.state.tickets.values()].filter((t) => t.subject === subject)).toHaveLength(1);
      expect(
        f.slack
          .callsOf('functions.completeSuccess')
          .filter((c) => c.args.function_execution_id === r.executionId),
      ).toHaveLength(1);
    });
  });
