import type { App } from '@slack/bolt';
import { section } from '../../blocks/conference-card.js';
import { buildTicketCard } from '../../blocks/ticket-card.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { detach } from '../after-ack.js';
import { describeError, inviteFix, isCannotPost, workingText } from '../describe-error.js';
import { ids } from '../ids.js';

/** Usage of `/ticket` (the parts built so far). */
export const ticketUsage = [
  '*`/ticket`* — remote-assistance tickets',
  '• `/ticket show <id or reference>` posts the ticket’s live card here: its buttons move the ticket',
  '• `/ticket help` shows this message',
].join('\n');

/**
 * `/ticket`: `show` posts (or re-posts) a ticket's card in the channel, which then follows the ticket.
 * The card is built from the platform's record.
 */
export function registerTicketCommand(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.command(ids.commands.ticket, async ({ ack, command, respond, client }) => {
    const [verb = '', ...rest] = (command.text ?? '').trim().split(/\s+/);
    const ref = rest.join(' ').replace(/^#/, '');
    if (verb.toLowerCase() !== 'show' || !ref || /\s/.test(ref)) {
      const problem = verb && verb.toLowerCase() !== 'help' ? 'I did not understand that.\n\n' : '';
      return ack({ response_type: 'ephemeral', text: `${problem}${ticketUsage}` });
    }
    await ack({ response_type: 'ephemeral', text: workingText('Looking up the ticket', deps.waitMs()) });
    const channel = command.channel_id;
    detach(deps.logger, async () => {
      try {
        const ticket = await deps.tickets.get(ref);
        const card = buildTicketCard(ticket);
        try {
          const posted = await client.chat.postMessage({ channel, ...card });
          await deps.cards.save({ ticketId: ticket.id, channel, ts: posted.ts as string });
          await respond({ delete_original: true });
        } catch (error) {
          if (!isCannotPost(error)) throw error;
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            text: inviteFix(channel),
            blocks: [section(inviteFix(channel)), ...card.blocks.filter((b) => b.type !== 'actions')],
          });
        }
      } catch (error) {
        await respond({
          response_type: 'ephemeral',
          replace_original: true,
          text: describeError(error, deps.logger, channel),
        });
      }
    });
  });
}
