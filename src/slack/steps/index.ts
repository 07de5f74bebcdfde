import type { StepDeps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerCreateConferenceStep } from './create-conference.js';
import { registerMoveTicketStep } from './move-ticket.js';
import { registerOpenTicketStep } from './open-ticket.js';

/**
 * The Workflow Builder steps (`manifest.steps.yml`'s `functions`): one `function_executed` row per
 * step's callback id. Not registered in distribution mode: apps with custom steps cannot be
 * distributed publicly (README, *Workflow Builder steps*).
 */
export function registerSteps(app: Listeners, deps: StepDeps): void {
  registerCreateConferenceStep(app, deps);
  registerOpenTicketStep(app, deps);
  registerMoveTicketStep(app, deps);
}
