import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { buildTicketJoinReply } from '../../blocks/ticket-card.js';
import type { Logger } from '../../observability/logger.js';
import type { AccessService } from '../../services/access.js';
import { ConfdeskError } from '../../services/errors.js';
import type { TicketService } from '../../services/tickets.js';
import type { Store } from '../../store/store.js';
import { detach } from '../after-ack.js';
import { describeError, tellIfSlow } from '../describe-error.js';
import { ids } from '../ids.js';
import { idValue, readValue } from '../payloads.js';
import type { SlackPublisher } from '../publisher.js';

/** What the ticket listeners need. */
export interface TicketDeps {
  tickets: TicketService;
  /** The policy applied to a Slack person (`domain/policy.ts`). */
  access: AccessService;
  /** Cards, subscriptions and the rest of what survives a restart. */
  store: Store;
  /** Posts and refreshes ticket cards, queues thread lines: every ticket change ends there. */
  publisher: SlackPublisher;
  logger: Logger;
}

const ephemeral = (text: string) => ({ response_type: 'ephemeral' as const, replace_original: false, text });

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
export function registerTicketActions(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.action<BlockAction<ButtonAction>>(
    new RegExp(
      `^(${ids.actions.ticketMove}:|${ids.actions.ticketRefresh}$|${ids.actions.ticketJoin}$|${ids.actions.ticketJoinLink}(:|$))`,
    ),
    async ({ ack, body, action, respond }) => {
      await ack();
      // The private link buttons: Slack opens the URL.
      if (action.action_id.startsWith(ids.actions.ticketJoinLink)) return;
      const user = body.user.id;
      const value = action.value;
      const join = action.action_id === ids.actions.ticketJoin;
      const channel = body.container?.channel_id as string | undefined;
      const ts = body.container?.message_ts as string | undefined;
      const moveId = action.action_id.startsWith(`${ids.actions.ticketMove}:`)
        ? action.action_id.slice(ids.actions.ticketMove.length + 1)
        : undefined;
      detach(deps.logger, async () => {
        await tellIfSlow(respond, moveId ? 'Moving the ticket' : 'Loading the ticket', deps.waitMs());
        let ticketId = '';
        const render = async () => {
          const ticket = await deps.tickets.forAction(user, ticketId, 'ticket.see');
          if (channel && ts) await deps.publisher.showCard({ channel, ts }, ticket);
        };
        try {
          ticketId = await ticketOfCard(deps, { channel, ts }, value);
          if (join) {
            const ticket = await deps.tickets.forAction(user, ticketId, 'ticket.join');
            return void (await respond({ ...ephemeral(''), ...buildTicketJoinReply(ticket) }));
          }
          if (!moveId) return await render();
          const moved = await deps.tickets.move(user, ticketId, moveId);
          // Every card of the ticket, and one line naming the person in each card's thread.
          await deps.publisher.ticketChanged({ kind: 'moved', ...moved }, user);
        } catch (error) {
          await respond(ephemeral(describeError(error, deps.logger, channel)));
          // A move the ticket's true state no longer offers: show that state.
          if (error instanceof ConfdeskError && error.code === 'move_not_offered')
            await render().catch((e: unknown) => deps.logger.warn({ err: e }, 'could not refresh a card'));
        }
      });
    },
  );
}
