import type { App } from '@slack/bolt';
import { ids } from '../../blocks/ids.js';
import { buildResultView, buildWorkingView } from '../../blocks/modal.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { trustedPlace } from '../actions/ticket-menu.js';
import { workingText } from '../describe-error.js';
import { cardPlace, readJson } from '../payloads.js';
import { updateView } from '../reply-error.js';
import { afterAck, requestLog } from '../route.js';
import { uploadToThread } from '../upload-to-thread.js';
import { viewState } from './view-state.js';

const title = 'Export ticket';

/** Submission of the card menu's Export form: the file is posted in the card's thread; the outcome in the modal. */
export function registerTicketExport(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.view(ids.views.ticketExport, async ({ ack, body, view, client }) => {
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
        again: (message) => buildResultView(title, `The export failed. ${message}`),
        log,
      },
      async () => {
        const place = await trustedPlace(deps, readJson(cardPlace, metadata));
        const { ticket, file } = await deps.tickets.export(user, place.ticketId, format, timeline);
        const name = `${ticket.reference ?? `ticket-${ticket.id}`}.${format}`;
        let outcome: string;
        if (place.channel && place.ts) {
          await uploadToThread(client, file, {
            channel: place.channel,
            threadTs: place.ts,
            filename: name,
            title: name,
            comment: `<@${user}> exported the ticket.`,
          });
          outcome = `:white_check_mark: The export is in the ticket card's thread.`;
        } else {
          file.body.destroy();
          outcome =
            'The export is ready, but this card has no thread to post it in: use the card in the channel.';
        }
        await show(buildResultView(title, outcome));
      },
    );
  });
}
