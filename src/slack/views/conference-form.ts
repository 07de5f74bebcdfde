import { buildConferenceCard } from '../../blocks/conference-card.js';
import { buildConferenceForm } from '../../blocks/conference-form.js';
import { buildConferenceOutcome, type ConferenceOutcome } from '../../blocks/conference-replies.js';
import { ids } from '../../blocks/ids.js';
import type { Block } from '../../blocks/kit.js';
import { buildResultView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { phrase, t, tPlain } from '../../blocks/text.js';
import type { ConferenceSummary } from '../../domain/conference.js';
import type { Locale } from '../../i18n/locale.js';
import { postToResponseUrl } from '../../outbound/respond.js';
import { PlatformInputError } from '../../platform/errors.js';
import { ConfdeskError } from '../../services/errors.js';
import { notKeptNotice } from '../../services/fields-not-kept.js';
import type { ConferenceDeps, ViewSubmission } from '../deps.js';
import { type FormMetadata, readFormMetadata } from '../input/payloads.js';
import { postConferenceCard } from '../openers/post-conference-card.js';
import { type Submitted, submitThenWork } from '../openers/working-modal.js';
import { describeError, inviteFix } from '../replies/describe-error.js';
import { workingText } from '../replies/working-notice.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { type FormRead, readConferenceForm } from './read-conference-form.js';

const titles = { create: 'conference.form.titleCreate', edit: 'conference.form.titleEdit' } as const;

/** The form input a failure belongs to, when it belongs to one. */
function fieldOf(error: unknown): string | undefined {
  const field =
    error instanceof ConfdeskError
      ? error.field
      : error instanceof PlatformInputError
        ? error.field
        : undefined;
  if (!field) return undefined;
  const blocks = ids.conferenceForm as Record<string, string>;
  return blocks[field] ?? (Object.values(blocks).includes(field) ? field : undefined);
}

/** Replaces the card of an edited conference where it lives (channel message or ephemeral reply). */
async function refreshCard(
  deps: ConferenceDeps,
  meta: Extract<FormMetadata, { mode: 'edit' }>,
  conference: ConferenceSummary,
  locale: Locale,
) {
  if (meta.channel && meta.ts)
    await deps.publisher.showConferenceCard({ channel: meta.channel, ts: meta.ts }, conference);
  else {
    deps.publisher.conferenceChanged(conference);
    // A card in a private reply: the person's own language.
    if (meta.responseUrl)
      await postToResponseUrl(meta.responseUrl, {
        replace_original: true,
        ...buildConferenceCard(locale, conference),
      });
  }
}

/** After the ack: creates or updates, then shows the outcome (a refusal is thrown, for the form again). */
async function save(
  deps: ConferenceDeps,
  { user, show, log }: Submitted,
  meta: FormMetadata,
  read: Extract<FormRead, { ok: true }>,
  locale: Locale,
) {
  const conference = await (meta.mode === 'create'
    ? deps.conferences.create(user, read.values, read.password)
    : deps.conferences.update(user, meta.conferenceId, read.values, read.password));
  // The platform has it now: from here on a failure only concerns the card, never the conference.
  // Shown in the person's outcome view when it could not be posted: their language.
  const card = buildConferenceCard(locale, conference);
  let outcome: ConferenceOutcome;
  let extra: Block[] = [];
  try {
    if (meta.mode === 'edit') {
      await refreshCard(deps, meta, conference, locale);
      outcome = { kind: 'saved' };
    } else {
      const channel = read.values.channel as string;
      const posted = await postConferenceCard(deps, channel, conference);
      outcome = posted
        ? { kind: 'planned', channel, posted }
        : { kind: 'planned', channel, posted, fix: inviteFix(channel, locale) };
      if (!posted) extra = card.blocks;
    }
  } catch (error) {
    outcome = { kind: 'card-failed', mode: meta.mode, why: describeError(error, log, undefined, locale) };
    extra = card.blocks;
  }
  // A field the platform silently dropped is said, never lost (findings has it for the doctor).
  const dropped = 'notKept' in conference ? notKeptNotice(locale, conference.notKept as string[]) : undefined;
  const title = tPlain(locale, titles[meta.mode]);
  await show(
    buildResultView(locale, title, buildConferenceOutcome(locale, conference, outcome, dropped), extra),
  ).catch((e: unknown) => deps.logger.warn({ err: e }, 'could not show the outcome'));
}

/**
 * Submission of the create/edit form. Rule breaks are answered inline at once (`response_action:
 * errors`); a valid form is acked with a "Working…" view, then updated with the outcome. A failure
 * brings the form back with everything typed and the reason under the input concerned.
 */
export const handleConferenceForm =
  (deps: ConferenceDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { view } = submission;
    const meta = readFormMetadata(view.private_metadata);
    // The person's language: their cached profile (the form's opener asked for it already).
    const locale = await deps.locales.person(submission.body.user.id);
    const read = readConferenceForm(view.state.values, meta.mode, deps.now(), locale);
    if (!read.ok) return submission.ack({ response_action: 'errors', errors: read.errors });
    // A refusal brings the form back with everything typed, the reason under the input it names.
    const again = (message: Mrkdwn, error: unknown) => {
      const field = fieldOf(error);
      return buildConferenceForm({
        locale,
        mode: meta.mode,
        values: read.values,
        metadata: view.private_metadata,
        password: read.password,
        notices: field
          ? [t(locale, 'conference.form.nothingSavedField')]
          : [t(locale, 'conference.form.nothingSaved', { message })],
        ...(field ? { problems: { [field]: message } } : {}),
      });
    };
    const action = phrase(meta.mode === 'create' ? 'working.creatingConference' : 'working.savingConference');
    await submitThenWork(
      submission,
      {
        title: tPlain(locale, titles[meta.mode]),
        locale,
        working: workingText(locale, action, deps.conferences.waitMs()),
        again,
        channel: read.values.channel,
        logger: deps.logger,
      },
      (submitted) => save(deps, submitted, meta, read, locale),
    );
  };

/** Registers `handleConferenceForm`. */
export function registerConferenceForm(app: Listeners, deps: ConferenceDeps): void {
  app.view(ids.views.conferenceForm, handleConferenceForm(deps));
}
