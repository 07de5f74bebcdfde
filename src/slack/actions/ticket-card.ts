import { ids } from '../../blocks/ids.js';
import { buildTicketJoinReply } from '../../blocks/ticket-card.js';
import type { Logger } from '../../observability/logger.js';
import type { AccessService } from '../../services/access.js';
import { ConfdeskError } from '../../services/errors.js';
import type { SubscriptionService } from '../../services/subscriptions.js';
import type { TicketService } from '../../services/tickets.js';
import type { TicketCardRepository } from '../../store/store.js';
import { ephemeral } from '../ephemeral.js';
import { idValue, readValue } from '../payloads.js';
import type { SlackPublisher } from '../publisher.js';
import type { ActionRoutes } from '../route.js';

/** What the ticket listeners need. */
export interface TicketDeps {
  tickets: TicketService;
  /** The policy applied to a Slack person (`domain/policy.ts`). */
  access: AccessService;
  /** Where the bot posted each ticket's cards. */
  store: TicketCardRepository;
  /** What channels watch and follow: the listeners' writes go through it. */
  subscriptions: SubscriptionService;
  /** Posts and refreshes ticket cards, queues thread lines: every ticket change ends there. */
  publisher: SlackPublisher;
  logger: Logger;
}

/**
 * Which ticket a click on a card is about: the card's own record (channel + message) when the bot
 * posted it, else the button's value, which the policy then checks like any other request.
 */
export async function ticketOfCard(
  deps: Pick<TicketDeps, 'store'>,
  place: { channel?: string | undefined; ts?: string | undefined },
  value: string | undefined,
): Promise<string> {
  const card = place.channel && place.ts ? await deps.store.at(place.channel, place.ts) : undefined;
  return card?.ticketId ?? readValue(idValue, value);
}

/**
 * The ticket card's buttons: a state move (after Slack's confirmation for destructive ones) updates
 * the ticket and hands the outcome to the publisher, which re-renders every card of the ticket and
 * says in each card's thread who did what; Refresh re-renders it; Join gives the join links privately. Each checks the person's rights
 * first; refusals are ephemeral and leave the card unchanged.
 */
export function registerTicketActions(routes: ActionRoutes, deps: TicketDeps): void {
  const render = async (
    user: string,
    place: { channel?: string | undefined; ts?: string | undefined },
    ticketId: string,
  ) => {
    const ticket = await deps.tickets.forAction(user, ticketId, 'ticket.see');
    if (place.channel && place.ts)
      await deps.publisher.showCard({ channel: place.channel, ts: place.ts }, ticket);
  };
  routes.on(
    ids.actions.ticketMove,
    async ({ user, value, actionId, container }) => {
      const moveId = actionId.slice(ids.actions.ticketMove.length + 1);
      const ticketId = await ticketOfCard(deps, container, value);
      const moved = await deps.tickets.move(user, ticketId, moveId);
      // Every card of the ticket, and one line naming the person in each card's thread.
      await deps.publisher.ticketChanged({ kind: 'moved', ...moved }, user);
    },
    {
      working: 'Moving the ticket',
      // A move the ticket's true state no longer offers: once that is told, show that state.
      afterReply: async (c, error) => {
        if (!(error instanceof ConfdeskError && error.code === 'move_not_offered')) return;
        await render(c.user, c.container, await ticketOfCard(deps, c.container, c.value)).catch(
          (e: unknown) => c.log.warn({ err: e }, 'could not refresh a card'),
        );
      },
    },
  );
  routes.on(
    ids.actions.ticketRefresh,
    async (c) => render(c.user, c.container, await ticketOfCard(deps, c.container, c.value)),
    { working: 'Loading the ticket' },
  );
  routes.on(
    ids.actions.ticketJoin,
    async ({ user, value, container, respond }) => {
      const ticket = await deps.tickets.forAction(
        user,
        await ticketOfCard(deps, container, value),
        'ticket.join',
      );
      await respond({ ...ephemeral(''), ...buildTicketJoinReply(ticket) });
    },
    { working: 'Loading the ticket' },
  );
  // The private link buttons: Slack opens the URL; the click is only acked.
  routes.on(ids.actions.ticketJoinLink, async () => undefined);
}
