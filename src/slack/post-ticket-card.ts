import { buildTicketCardNotPosted } from '../blocks/ticket-prompts.js';
import { isCannotPost } from '../outbound/refusals.js';
import type { TicketDeps } from './deps.js';
import { inviteFix } from './describe-error.js';
import type { Responder } from './reply-error.js';

/**
 * Posts (or re-posts) a ticket's card in a channel, for a person who may see the ticket (the card
 * carries no secret: join links are given on a click). When the bot is not in the channel, the
 * person gets the fix and the card's details privately.
 */
export async function postTicketCard(
  deps: TicketDeps,
  respond: Responder,
  where: { channel: string; user: string },
  ref: string,
): Promise<void> {
  const { channel } = where;
  const ticket = await deps.tickets.forAction(where.user, ref, 'ticket.see');
  try {
    // Its place is recorded: the publisher refreshes it on every change of the ticket.
    await deps.publisher.postCard(channel, ticket);
  } catch (error) {
    if (!isCannotPost(error)) throw error;
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildTicketCardNotPosted(ticket, inviteFix(channel)),
    });
  }
}
