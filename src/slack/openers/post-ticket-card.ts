import { buildTicketCardHere, buildTicketCardNotPosted } from '../../blocks/ticket-prompts.js';
import type { TicketSummary } from '../../domain/ticket.js';
import { isCannotPost } from '../../util/slack-errors.js';
import type { TicketDeps } from '../deps.js';
import { inviteFix } from '../replies/describe-error.js';
import type { Responder } from '../replies/reply-error.js';

/**
 * A card of the ticket posted in the channel this recently is pointed to rather than posted again:
 * the channel keeps one card and one thread per ticket (its events stay together, and a busy
 * channel's pace goes to the events), and the card is brought up to date. An older card has likely
 * scrolled away: a new one is posted, and the ticket's thread moves to it.
 */
export const recentCardMs = 60 * 60_000;

/**
 * Posts (or re-posts) a ticket's card in a channel, for a person who may see the ticket (the card
 * carries no secret: join links are given on a click). When the bot is not in the channel, the
 * person gets the fix and the card's details privately. With `reuse` (a person's "show"), a card of
 * the last hour in the channel is refreshed and linked instead (`recentCardMs`), the link replacing
 * the person's message when `replace`. Answers whether a
 * card was posted, linked, or could not be posted.
 */
export async function postTicketCard(
  deps: TicketDeps,
  respond: Responder,
  where: { channel: string; user: string },
  ref: string | { seen: TicketSummary },
  o: { reuse?: { replace: boolean }; now?: () => number } = {},
): Promise<'posted' | 'linked' | 'refused'> {
  const { channel } = where;
  // A ticket the caller has just read and checked for this person (`ticket.see` or stricter) is not read again.
  const ticket =
    typeof ref === 'string' ? await deps.tickets.forAction(where.user, ref, 'ticket.see') : ref.seen;
  const card = o.reuse ? await deps.store.find(ticket.id, channel) : undefined;
  if (card && (o.now ?? Date.now)() - Number(card.ts) * 1000 < recentCardMs) {
    // Deleted by someone, or not editable any more: a new card is posted below.
    const shown = await deps.publisher.showCard(card, ticket).then(
      () => true,
      () => false,
    );
    if (shown) {
      const [link, locale] = await Promise.all([
        deps.publisher.permalink(card),
        deps.locales.person(where.user),
      ]);
      await respond({
        response_type: 'ephemeral',
        replace_original: o.reuse?.replace ?? false,
        ...buildTicketCardHere(locale, ticket, link),
      });
      return 'linked';
    }
  }
  try {
    // Its place is recorded: the publisher refreshes it on every change of the ticket.
    await deps.publisher.postCard(channel, ticket);
    return 'posted';
  } catch (error) {
    if (!isCannotPost(error)) throw error;
    const locale = await deps.locales.person(where.user);
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildTicketCardNotPosted(locale, ticket, inviteFix(channel, locale)),
    });
    return 'refused';
  }
}
