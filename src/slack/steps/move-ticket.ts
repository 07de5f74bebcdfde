import { moveStepInputs, stepIds } from '../../domain/workflow-steps.js';
import type { StepDeps } from '../deps.js';
import { readStepInputs } from '../input/step-inputs.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { runStep, type StepArgs } from '../runtime/step-runner.js';

/**
 * The *Move a ticket* step: the move a card's button makes, for the person Slack vouches for (their
 * rights on the ticket, the moves its true state offers), then its cards and threads updated as
 * after a click. Outputs the new state.
 */
export const handleMoveTicketStep = (deps: StepDeps) => async (args: StepArgs) =>
  runStep(
    args,
    { logger: deps.logger, grantMs: deps.stepGrantMs, receipts: deps.receipts, locale: deps.locales.channel },
    async (person, inputs) => {
      const v = readStepInputs(moveStepInputs, inputs);
      // A reference is looked up behind the rights check (a person without an account reads nothing).
      const ticketId = /^\d+$/.test(v.ticket)
        ? v.ticket
        : (await deps.tickets.forAction(person, v.ticket, 'ticket.move')).id;
      const moved = await deps.tickets.move(person, ticketId, v.move);
      await deps.publisher.ticketChanged({ kind: 'moved', ...moved }, person);
      return { state: moved.after.state ?? '' };
    },
  );

/** Registers `handleMoveTicketStep`. */
export function registerMoveTicketStep(app: Listeners, deps: StepDeps): void {
  app.function(stepIds.moveTicket, handleMoveTicketStep(deps));
}
