import { ids } from '../../blocks/ids.js';
import { phrase } from '../../blocks/text.js';
import { buildTicketList } from '../../blocks/ticket-card.js';
import { parseTicketQuery } from '../../domain/ticket-query.js';
import { ticketPageSize } from '../../services/tickets.js';
import type { TicketDeps } from '../deps.js';
import { idValue, readJson, readValue, staleValue, ticketPage } from '../input/payloads.js';
import { postTicketCard } from '../openers/post-ticket-card.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** A list's "Show": the ticket's card, posted in the channel (the person may see it), or linked when it is there already. */
export const handleTicketShow =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, channel, respond }) => {
    await postTicketCard(deps, respond, { channel: channel ?? '', user }, readValue(idValue, value), {
      reuse: { replace: false },
    });
  };

/** A list's Previous/Next: the page asked for, in place. */
export const handleTicketPage =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const { q, offset } = readJson(ticketPage, value);
    const parsed = parseTicketQuery(q);
    if (!parsed.ok) throw staleValue();
    const [page, locale] = await Promise.all([
      deps.tickets.list(user, parsed.query, offset),
      deps.locales.person(user),
    ]);
    await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildTicketList(locale, q, offset, ticketPageSize, page),
    });
  };

export function registerTicketList(routes: ActionRoutes, deps: TicketDeps): void {
  routes.on(ids.actions.ticketShow, handleTicketShow(deps), { working: phrase('working.lookingUpTicket') });
  routes.on(ids.actions.ticketPage, handleTicketPage(deps), { working: phrase('working.lookingUpTickets') });
}
