import { digestFields } from '../../blocks/digest-form.js';
import { buildDigestReply } from '../../blocks/digest-replies.js';
import { ids } from '../../blocks/ids.js';
import { fallbackText } from '../../blocks/kit.js';
import { within } from '../../util/within.js';
import type { DigestDeps, ViewSubmission } from '../deps.js';
import { digestMetadata, readJson } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { gateMs } from '../openers/forms.js';
import { describeError } from '../replies/describe-error.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** Saving the digest form: problems inline under their input, nothing saved until all is right. */
export const handleDigestForm =
  (deps: DigestDeps) =>
  async ({ ack, body, view, client }: ViewSubmission): Promise<void> => {
    // Stale or forged metadata: the "out of date" sentence in the modal (before the ack, app.error).
    const { scheduleId } = readJson(digestMetadata, view.private_metadata || '{}');
    const v = viewState(view.state.values);
    const channel = v.conversation(digestFields.channel);
    const time = v.time(digestFields.time);
    const zone = v.str(digestFields.zone) ?? '';
    const weekdays = [...v.chosen(digestFields.days)].map(Number).sort();
    const draft = { channel: channel ?? undefined, time, zone, weekdays, createdBy: body.user.id };
    // Only admins set digests up: a quick refusal goes under the channel input; a slow answer is
    // awaited after the ack (Slack waits 3 s), and a refusal is then told privately, nothing saved.
    // The person's language (at most a second) is asked for meanwhile.
    const check = deps.access.require(body.user.id, 'digest.set');
    const [early, locale] = await Promise.all([within(check, gateMs), deps.locales.person(body.user.id)]);
    const problems = deps.schedules.problems(draft, locale);
    const errors: Record<string, string> = {};
    for (const [input, problem] of Object.entries(problems))
      errors[digestFields[input as keyof typeof problems]] = problem;
    if (early && 'error' in early)
      errors[digestFields.channel] = describeError(early.error, deps.logger, undefined, locale).text;
    if (Object.keys(errors).length) return void (await ack({ response_action: 'errors', errors }));
    await ack();
    try {
      await check;
    } catch (error) {
      await client.chat
        .postEphemeral({
          channel: channel as string,
          user: body.user.id,
          text: fallbackText(describeError(error, deps.logger, undefined, locale)),
        })
        .catch((e: unknown) => deps.logger.warn({ err: e }, 'could not refuse a digest schedule'));
      return;
    }
    const saved = await deps.schedules.save({ ...draft, id: scheduleId ?? undefined });
    await client.chat
      .postEphemeral({
        channel: channel as string,
        user: body.user.id,
        ...buildDigestReply(locale, { kind: 'saved', ...saved }),
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not confirm a digest schedule'));
  };

/** Registers `handleDigestForm`. */
export function registerDigestForm(app: Listeners, deps: DigestDeps): void {
  app.view(ids.views.digestForm, handleDigestForm(deps));
}
