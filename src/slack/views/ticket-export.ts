import { ids } from '../../blocks/ids.js';
import { buildResultView } from '../../blocks/modal.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { t, tPlain } from '../../blocks/text.js';
import { buildTicketExported, buildTicketFileComment } from '../../blocks/ticket-prompts.js';
import { uploadToThread } from '../../outbound/upload.js';
import type { TicketFormDeps, ViewSubmission } from '../deps.js';
import { trustedPlace } from '../input/card-place.js';
import { cardPlace, readJson } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { submitThenWork } from '../openers/working-modal.js';
import { workingText } from '../replies/working-notice.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** Submission of the card menu's Export form: the file is posted in the card's thread; the outcome in the modal. */
export const handleTicketExport =
  (deps: TicketFormDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { view, client } = submission;
    // The person's language: at most a second's wait, within the submission's 3 s.
    const locale = await deps.locales.person(submission.body.user.id);
    const title = tPlain(locale, 'ticketExport.title');
    const metadata = view.private_metadata;
    const { option, chosen } = viewState(view.state.values);
    const format = option('format') ?? 'json';
    const timeline = chosen('timeline').has('timeline');
    const working = workingText(locale, tPlain(locale, 'ticketExport.exporting'), deps.waitMs());
    const again = (message: Mrkdwn) =>
      buildResultView(locale, title, t(locale, 'ticketExport.failed', { message }));
    await submitThenWork(
      submission,
      { title, working, again, logger: deps.logger, locale },
      async ({ user, show }) => {
        const place = await trustedPlace(deps, readJson(cardPlace, metadata));
        // A card whose thread the store no longer knows (an older card of a ticket shown again): the
        // file would have nowhere to go, so nothing is asked of the platform.
        if (!place.channel || !place.ts) {
          await show(buildResultView(locale, title, buildTicketExported(locale, false)));
          return;
        }
        const { ticket, file } = await deps.tickets.export(user, place.ticketId, format, timeline);
        const name = `${ticket.reference ?? `ticket-${ticket.id}`}.${format}`;
        await uploadToThread(client, file, {
          channel: place.channel,
          threadTs: place.ts,
          filename: name,
          title: name,
          comment: buildTicketFileComment(deps.locales.channel, user, 'exported'),
        });
        await show(buildResultView(locale, title, buildTicketExported(locale, true)));
      },
    );
  };

/** Registers `handleTicketExport`. */
export function registerTicketExport(app: Listeners, deps: TicketFormDeps): void {
  app.view(ids.views.ticketExport, handleTicketExport(deps));
}
