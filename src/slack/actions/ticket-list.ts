import { ids } from '../../blocks/ids.js';
import { buildTicketList } from '../../blocks/ticket-card.js';
import { parseTicketQuery } from '../../domain/ticket-query.js';
import { ticketPageSize } from '../../services/tickets.js';
import { postTicketCard } from '../commands/ticket.js';
import { idValue, readJson, readValue, staleValue, ticketPage } from '../payloads.js';
import type { ActionRoutes } from '../route.js';
import type { TicketDeps } from './ticket-card.js';

/** The `/ticket list` reply's buttons: Show posts the ticket's card in the channel; Next/Previous re-run the query. */
export function registerTicketList(routes: ActionRoutes, deps: TicketDeps): void {
  routes.on(
    ids.actions.ticketShow,
    ({ user, value, channel, respond }) =>
      postTicketCard(deps, respond, { channel: channel ?? '', user }, readValue(idValue, value)),
    { working: 'Looking up the ticket' },
  );
  routes.on(
    ids.actions.ticketPage,
    async ({ user, value, respond }) => {
      const { q, offset } = readJson(ticketPage, value);
      const parsed = parseTicketQuery(q);
      if (!parsed.ok) throw staleValue();
      const page = await deps.tickets.list(user, parsed.query, offset);
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        ...buildTicketList(q, offset, ticketPageSize, page),
      });
    },
    { working: 'Looking up the tickets' },
  );
}
