import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { tPlain } from '../../blocks/text.js';
import { vouchedPerson } from '../../domain/workflow-steps.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { withGrantDeadline } from '../../platform/grant-deadline.js';
import { runInLane } from '../../platform/lane.js';
import type { SettingsRepository } from '../../store/store.js';
import { describeError } from '../replies/describe-error.js';

/** A `function_executed` event's listener arguments, as Bolt gives them (with `complete` and `fail`). */
export type StepArgs = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;

/** A step's outputs: strings, as the manifest declares them (empty rather than missing). */
export type StepOutputs = Record<string, string>;

/** Slack's own wait for a step's answer is long; the platform's budget must grant within this. */
export const defaultStepGrantMs = 60_000;

/**
 * Runs one workflow step for the person Slack vouches for (`vouchedPerson`: the `run_as`
 * user_context or the interactivity's interactor), and always ends it: `complete` with the outputs,
 * or `fail` with a sentence a workflow builder understands. The step's platform requests are a
 * person's (the interactive lane) and must be granted within `grantMs`, else they are not sent and
 * the step fails saying so. Bolt's `complete`/`fail` use the execution's own token.
 */
export async function runStep(
  args: StepArgs,
  o: {
    logger: Logger;
    grantMs?: number | undefined;
    /** The executions already run, on every replica (Slack sends the event again after a late ack). */
    receipts: Pick<SettingsRepository, 'firstDelivery'>;
    /** The language a failure is said in (the channel's); English when unset. */
    locale?: Locale | undefined;
  },
  work: (person: string, inputs: Record<string, unknown>) => Promise<StepOutputs>,
): Promise<void> {
  const { event, complete, fail } = args;
  const execution = event.function_execution_id;
  if (execution && !(await o.receipts.firstDelivery(`function:${execution}`, new Date()))) return;
  const inputs = (event.inputs ?? {}) as Record<string, unknown>;
  const log = o.logger.child({ step: event.function?.callback_id, execution: event.function_execution_id });
  const person = vouchedPerson(inputs);
  let outcome: { outputs: StepOutputs } | { error: string };
  if (!person) outcome = { error: tPlain(o.locale ?? 'en', 'step.runAsMissing') };
  else {
    try {
      const outputs = await withGrantDeadline(o.grantMs ?? defaultStepGrantMs, () =>
        runInLane('interactive', () => work(person, inputs)),
      );
      outcome = { outputs };
    } catch (error) {
      outcome = { error: describeError(error, log, undefined, o.locale).text };
    }
  }
  try {
    if ('outputs' in outcome) await complete({ outputs: outcome.outputs });
    else {
      log.info({ person, reason: outcome.error }, 'workflow step failed');
      await fail({ error: outcome.error });
    }
  } catch (error) {
    // Slack did not take the step's end (its token expired, Slack unreachable): nothing else can end it.
    log.error({ err: error }, 'could not end a workflow step');
  }
}
