import { ids } from '../../blocks/ids.js';
import { phrase } from '../../blocks/text.js';
import { buildTicketJoinReply } from '../../blocks/ticket-card.js';
import { buildTicketUnfurl } from '../../blocks/unfurl.js';
import { ConfdeskError } from '../../services/errors.js';
import type { TicketDeps } from '../deps.js';
import { ticketOfCard } from '../input/card-place.js';
import { showUnfurl } from '../openers/unfurl-in-place.js';
import { ephemeral } from '../replies/ephemeral.js';
import type { ActionRoutes, Click, ClickHandler } from '../runtime/action-routes.js';

/** Re-renders the card (or the link's unfurl) a click came from as the person may see the ticket now. */
const renderCard = async (deps: TicketDeps, c: Click, ticketId: string) => {
  const place = c.container;
  const ticket = await deps.tickets.forAction(c.user, ticketId, 'ticket.see');
  if (place.unfurl)
    await showUnfurl(c.client, place.unfurl, buildTicketUnfurl(deps.locales?.channel ?? 'en', ticket));
  else if (place.channel && place.ts)
    await deps.publisher.showCard({ channel: place.channel, ts: place.ts }, ticket);
};

/** A state move: the ticket changes, then every card of it and one line naming the person per thread. */
export const handleTicketMove =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, actionId, container, client }) => {
    // `ticket_move:<move>` on a card, `ticket_move:<move>:<ticket>` on Home (several tickets in one view).
    const moveId = actionId.split(':')[1] ?? '';
    const ticketId = await ticketOfCard(deps, container, value);
    const moved = await deps.tickets.move(user, ticketId, moveId);
    await deps.publisher.ticketChanged({ kind: 'moved', ...moved }, user);
    // Clicked on a link's unfurl: it shows the new state too (the ticket's cards already do).
    if (container.unfurl)
      await showUnfurl(
        client,
        container.unfurl,
        buildTicketUnfurl(deps.locales?.channel ?? 'en', moved.after),
      );
  };

/** Refresh: the card as the ticket is now. */
export const handleTicketRefresh =
  (deps: TicketDeps): ClickHandler =>
  async (c) =>
    renderCard(deps, c, await ticketOfCard(deps, c.container, c.value));

/** Join: the ticket's join links, privately (they are never on the card). */
export const handleTicketJoin =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, container, respond }) => {
    const [ticket, locale] = await Promise.all([
      ticketOfCard(deps, container, value).then((id) => deps.tickets.forAction(user, id, 'ticket.join')),
      deps.locales.person(user),
    ]);
    await respond(ephemeral(buildTicketJoinReply(locale, ticket)));
  };

/**
 * The ticket card's buttons: a state move (after Slack's confirmation for destructive ones) updates
 * the ticket and hands the outcome to the publisher, which re-renders every card of the ticket and
 * says in each card's thread who did what; Refresh re-renders it; Join gives the join links privately. Each checks the person's rights
 * first; refusals are ephemeral and leave the card unchanged.
 */
export function registerTicketActions(routes: ActionRoutes, deps: TicketDeps): void {
  routes.on(ids.actions.ticketMove, handleTicketMove(deps), {
    working: phrase('working.movingTicket'),
    // A move the ticket's true state no longer offers: once that is told, show that state.
    afterReply: async (c, error) => {
      if (!(error instanceof ConfdeskError && error.code === 'move_not_offered')) return;
      await renderCard(deps, c, await ticketOfCard(deps, c.container, c.value)).catch((e: unknown) =>
        c.log.warn({ err: e }, 'could not refresh a card'),
      );
    },
  });
  routes.on(ids.actions.ticketRefresh, handleTicketRefresh(deps), {
    working: phrase('working.loadingTicket'),
  });
  routes.on(ids.actions.ticketJoin, handleTicketJoin(deps), { working: phrase('working.loadingTicket') });
  // The private link buttons: Slack opens the URL; the click is only acked.
  routes.on(ids.actions.ticketJoinLink, async () => undefined);
}
