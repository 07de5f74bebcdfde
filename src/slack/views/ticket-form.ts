import { ids } from '../../blocks/ids.js';
import { buildResultView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { t, tPlain } from '../../blocks/text.js';
import { buildTicketCard } from '../../blocks/ticket-card.js';
import { buildTicketForm } from '../../blocks/ticket-form.js';
import { buildTicketCreated } from '../../blocks/ticket-prompts.js';
import { PlatformInputError } from '../../platform/errors.js';
import { notKeptNotice } from '../../services/fields-not-kept.js';
import { isCannotPost } from '../../util/slack-errors.js';
import type { TicketFormDeps, ViewSubmission } from '../deps.js';
import { submitThenWork } from '../openers/working-modal.js';
import { describeError, inviteFix } from '../replies/describe-error.js';
import { workingText } from '../replies/working-notice.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { readTicketForm } from './read-ticket-form.js';

/** The input a platform refusal names, as a block id of the form. */
function fieldOf(error: unknown): string | undefined {
  if (!(error instanceof PlatformInputError)) return undefined;
  const blocks = ids.ticketForm as Record<string, string>;
  return blocks[error.field];
}

/**
 * Submission of the ticket form: rule breaks inline at once; otherwise a "Working…" view, the ticket
 * created, its card posted in the chosen channel (which then follows it), and the outcome shown. A
 * refusal brings the form back with everything typed and the reason.
 */
export const handleTicketForm =
  (deps: TicketFormDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    // The person's language: at most a second's wait, within the submission's 3 s.
    const locale = await deps.locales.person(submission.body.user.id);
    const title = tPlain(locale, 'ticketForm.title');
    const read = readTicketForm(submission.view.state.values, locale);
    if (!read.ok) return submission.ack({ response_action: 'errors', errors: read.errors });
    const values = read.values;
    const channel = values.channel as string;
    // A refusal brings the form back with everything typed, the reason under the input it names.
    const again = async (message: Mrkdwn, error: unknown) => {
      const field = fieldOf(error);
      const choices = await deps.tickets
        .formChoices(submission.body.user.id, values)
        .catch(() => ({ groups: [], users: [] }));
      return buildTicketForm({
        locale,
        values,
        choices,
        metadata: '',
        notices: [
          field ? t(locale, 'ticketForm.checkField') : t(locale, 'ticketForm.nothingCreated', { message }),
        ],
        ...(field ? { problems: { [field]: message } } : {}),
      });
    };
    const working = workingText(locale, tPlain(locale, 'ticketForm.creating'), deps.waitMs());
    await submitThenWork(
      submission,
      { title, working, again, channel, logger: deps.logger, locale },
      async ({ user, show, log }) => {
        const ticket = await deps.tickets.create(user, values);
        // The platform has the ticket now: from here on a failure concerns only its card.
        const card = buildTicketCard(locale, ticket);
        let problem: Mrkdwn | undefined;
        let extra = [] as typeof card.blocks;
        try {
          await deps.publisher.postCard(channel, ticket);
          // The line (with its cover of the platform's creation events) before the watch: a scan
          // between the two would otherwise tell those events too.
          await deps.publisher.ticketChanged({ kind: 'created', ticket }, user);
          // The channel a ticket was created from follows it.
          await deps.subscriptions.watch(channel, ticket, user);
        } catch (error) {
          problem = isCannotPost(error)
            ? inviteFix(channel, locale)
            : t(locale, 'ticketPrompt.cardNotPosted', {
                reason: describeError(error, log, undefined, locale),
              });
          extra = card.blocks;
        }
        // A field the platform silently dropped is said, never lost (findings has it for the doctor).
        const dropped = notKeptNotice(locale, ticket.notKept);
        // Not through `again`: the ticket exists, and the form would say that nothing was created.
        await show(
          buildResultView(
            locale,
            title,
            buildTicketCreated(locale, ticket, { channel, problem, dropped }),
            extra,
          ),
        ).catch((e: unknown) => log.warn({ err: e }, 'could not show the outcome'));
      },
    );
  };

/** Registers `handleTicketForm`. */
export function registerTicketForm(app: Listeners, deps: TicketFormDeps): void {
  app.view(ids.views.ticketForm, handleTicketForm(deps));
}
