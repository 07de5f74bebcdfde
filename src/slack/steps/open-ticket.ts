import { mention } from '../../blocks/mrkdwn.js';
import { phrase } from '../../blocks/text.js';
import { stepIds, ticketStepInputs } from '../../domain/workflow-steps.js';
import { ConfdeskError } from '../../services/errors.js';
import type { StepDeps } from '../deps.js';
import { readStepInputs } from '../input/step-inputs.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { runStep, type StepArgs } from '../runtime/step-runner.js';

/**
 * The *Open an assistance ticket* step: the ticket is created for the person Slack vouches for, with
 * their rights (a group or another agent needs `ticket.assign`, as on the form), and its card is
 * posted and watched in the step's channel as `/ticket` does. Outputs its id, reference and the
 * card's permalink (empty when the card could not be posted: the ticket exists, the step completes).
 */
export const handleOpenTicketStep = (deps: StepDeps) => async (args: StepArgs) =>
  runStep(
    args,
    { logger: deps.logger, grantMs: deps.stepGrantMs, receipts: deps.receipts, locale: deps.locales.channel },
    async (person, inputs) => {
      const v = readStepInputs(ticketStepInputs, inputs);
      const groupId = v.group ? await deps.tickets.groupId(v.group) : undefined;
      let agent: string | undefined;
      if (v.agent && v.agent !== person) {
        agent = await deps.tickets.agentFor(v.agent);
        if (!agent)
          throw new ConfdeskError(
            'agent_without_account',
            phrase('ticketStep.agentWithoutAccount', { agent: mention(v.agent) }),
          );
      }
      const ticket = await deps.tickets.create(person, {
        ...v.requestor,
        subject: v.subject,
        groupId,
        agent,
        channel: v.channel,
        scopes: [],
      });
      let link: string | undefined;
      try {
        const ts = await deps.publisher.postCard(v.channel, ticket);
        await deps.publisher.ticketChanged({ kind: 'created', ticket }, person);
        await deps.subscriptions.watch(v.channel, ticket, person);
        link = await deps.publisher.permalink({ channel: v.channel, ts });
      } catch (error) {
        deps.logger.warn({ err: error, ticket: ticket.id }, 'a step’s ticket card was not posted');
      }
      return { ticket_id: ticket.id, reference: ticket.reference ?? '', card_link: link ?? '' };
    },
  );

/** Registers `handleOpenTicketStep`. */
export function registerOpenTicketStep(app: Listeners, deps: StepDeps): void {
  app.function(stepIds.openTicket, handleOpenTicketStep(deps));
}
