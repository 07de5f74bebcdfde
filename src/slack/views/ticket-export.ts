import type { App } from '@slack/bolt';
import { ids } from '../../blocks/ids.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import { md } from '../../blocks/mrkdwn.js';
import { buildTicketExported, buildTicketFileComment } from '../../blocks/ticket-prompts.js';
import { uploadToThread } from '../../outbound/upload.js';
import type { TicketFormDeps, ViewSubmission } from '../deps.js';
import { trustedPlace } from '../input/card-place.js';
import { cardPlace, readJson } from '../input/payloads.js';
import { viewState } from '../input/view-state.js';
import { updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';

const title = 'Export ticket';

/** Submission of the card menu's Export form: the file is posted in the card's thread; the outcome in the modal. */
export const handleTicketExport =
  (deps: TicketFormDeps) =>
  async ({ ack, body, view, client }: ViewSubmission): Promise<void> => {
    const metadata = view.private_metadata;
    const { option, chosen } = viewState(view.state.values);
    const format = option('format') ?? 'json';
    const timeline = chosen('timeline').has('timeline');
    await ack({
      response_action: 'update',
      view: buildWorkingView(title, workingText('Exporting the ticket', deps.waitMs())),
    });
    const user = body.user.id;
    const show = updateView(client, view.id);
    const log = requestLog(deps.logger, { user, team: body.team?.id, callback: view.callback_id });
    afterAck(
      {
        kind: 'modal',
        show,
        title,
        again: (message) => buildResultView(title, md`The export failed. ${message}`),
        log,
      },
      async () => {
        const place = await trustedPlace(deps, readJson(cardPlace, metadata));
        // A card whose thread the store no longer knows (an older card of a ticket shown again): the
        // file would have nowhere to go, so nothing is asked of the platform.
        if (!place.channel || !place.ts) {
          await show(buildResultView(title, buildTicketExported(false)));
          return;
        }
        const { ticket, file } = await deps.tickets.export(user, place.ticketId, format, timeline);
        const name = `${ticket.reference ?? `ticket-${ticket.id}`}.${format}`;
        await uploadToThread(client, file, {
          channel: place.channel,
          threadTs: place.ts,
          filename: name,
          title: name,
          comment: buildTicketFileComment(user, 'exported'),
        });
        await show(buildResultView(title, buildTicketExported(true)));
      },
    );
  };

/** Registers `handleTicketExport`. */
export function registerTicketExport(app: App, deps: TicketFormDeps): void {
  app.view(ids.views.ticketExport, handleTicketExport(deps));
}
