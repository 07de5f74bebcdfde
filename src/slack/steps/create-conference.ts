import { conferenceStepInputs, stepIds } from '../../domain/workflow-steps.js';
import { isCannotPost } from '../../util/slack-errors.js';
import type { StepDeps } from '../deps.js';
import { readStepInputs } from '../input/step-inputs.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { runStep, type StepArgs } from '../runtime/step-runner.js';

/**
 * The *Create a video conference* step: the conference is created for the person Slack vouches for,
 * with their rights (as `/conference` does: they moderate it), and its card is posted in the step's
 * channel. Outputs its id, its join link and the card's permalink (empty when the card could not be
 * posted: the conference exists, so the step still completes rather than invite a second run).
 */
export const handleCreateConferenceStep = (deps: StepDeps) => async (args: StepArgs) =>
  runStep(
    args,
    { logger: deps.logger, grantMs: deps.stepGrantMs, receipts: deps.receipts, locale: deps.locales.channel },
    async (person, inputs) => {
      const v = readStepInputs(conferenceStepInputs, inputs);
      const conference = await deps.conferences.create(person, {
        channel: v.channel,
        participants: v.guests,
        people: v.participants,
        name: v.title,
        startTime: new Date(v.start * 1000),
        duration: v.duration,
      });
      const ts = await deps.publisher.postConferenceCard(v.channel, conference).catch((error: unknown) => {
        if (!isCannotPost(error)) deps.logger.warn({ err: error }, 'a step’s conference card was not posted');
        return undefined;
      });
      const link = ts ? await deps.publisher.permalink({ channel: v.channel, ts }) : undefined;
      return { conference_id: conference.id, join_link: conference.joinUrl ?? '', card_link: link ?? '' };
    },
  );

/** Registers `handleCreateConferenceStep`. */
export function registerCreateConferenceStep(app: Listeners, deps: StepDeps): void {
  app.function(stepIds.createConference, handleCreateConferenceStep(deps));
}
