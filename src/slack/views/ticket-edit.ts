import { ids } from '../../blocks/ids.js';
import { buildResultView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { t, tPlain } from '../../blocks/text.js';
import { buildTicketEditForm } from '../../blocks/ticket-form.js';
import { buildTicketEdited } from '../../blocks/ticket-prompts.js';
import type { TicketFormDeps, ViewSubmission } from '../deps.js';
import { trustedPlace } from '../input/card-place.js';
import { cardPlace, readJson } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { submitThenWork } from '../openers/working-modal.js';
import { workingText } from '../replies/working-notice.js';
import type { Listeners } from '../runtime/listener-tables.js';

/**
 * Submission of the card menu's Edit form: only changed fields are sent; the card is updated in
 * place and the thread told. A refusal brings the form back with everything typed and the reason.
 */
export const handleTicketEdit =
  (deps: TicketFormDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { body, view } = submission;
    // The person's language: at most a second's wait, within the submission's 3 s.
    const locale = await deps.locales.person(body.user.id);
    const title = tPlain(locale, 'ticketEdit.title');
    const metadata = view.private_metadata;
    const { str, option } = viewState(view.state.values);
    const e = ids.ticketEdit;
    const values = {
      subject: str(e.subject),
      description: str(e.description),
      reference: str(e.reference),
      state: option(e.state),
      agent: option(e.agent),
      groupId: option(e.groupId),
    };
    const again = async (message: Mrkdwn) =>
      buildTicketEditForm({
        locale,
        values,
        choices: await deps.tickets
          .formChoices(body.user.id, values)
          .catch(() => ({ groups: [], users: [] })),
        metadata,
        notices: [t(locale, 'ticketEdit.nothingSaved', { message })],
      });
    const working = workingText(locale, tPlain(locale, 'ticketEdit.saving'), deps.waitMs());
    await submitThenWork(
      submission,
      { title, working, again, logger: deps.logger, locale },
      async ({ user, show }) => {
        const place = await trustedPlace(deps, readJson(cardPlace, metadata));
        const { after, changed } = await deps.tickets.edit(user, place.ticketId, values);
        // Every card of the ticket, and one line naming the person in each card's thread.
        if (changed.length) await deps.publisher.ticketChanged({ kind: 'edited', after, changed }, user);
        await show(buildResultView(locale, title, buildTicketEdited(locale, changed)));
      },
    );
  };

/** Registers `handleTicketEdit`. */
export function registerTicketEdit(app: Listeners, deps: TicketFormDeps): void {
  app.view(ids.views.ticketEdit, handleTicketEdit(deps));
}
