import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import {
  buildAlreadyAgent,
  buildMovesOffered,
  buildNotTakable,
  buildReactionOffer,
} from '../../blocks/reactions.js';
import { type Phrase, phrase } from '../../blocks/text.js';
import { defaultReactionEmoji, type ReactionKind, reactionKind } from '../../domain/reactions.js';
import type { SettingsRepository } from '../../store/store.js';
import type { TicketDeps } from '../deps.js';
import { ephemeral, ephemeralTo } from '../replies/ephemeral.js';
import { replyError } from '../replies/reply-error.js';
import { tellIfSlow } from '../replies/working-notice.js';
import { requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** What the reactions need: the ticket listeners' deps, the budget's wait, and the events already taken. */
export type ReactionDeps = TicketDeps & {
  /** About how long the platform's rate budget will hold the next interactive call, in ms. */
  waitMs: () => number;
  /** Slack's retries of an event carry its `event_id`: one taken already is not acted on again. */
  receipts: Pick<SettingsRepository, 'firstDelivery'>;
};

/** The "Working…" of each reaction, said privately when the platform's budget makes it wait. */
const working: Record<ReactionKind, Phrase> = {
  create: phrase('working.checkingCreateTickets'),
  take: phrase('working.takingTicket'),
  done: phrase('working.movingTicketToDone'),
};

/**
 * An emoji reaction in a channel whose reactions act on tickets (`/ticket follow reactions`), as its
 * reactor's request, checked against their own rights as a click is:
 * - the create emoji (🎫) on any message: the reactor gets, privately, a *Create ticket* button (a
 *   reaction carries no trigger, so only that click can open the form: `actions/reaction-ticket.ts`);
 * - the take emoji (👀) on a ticket's card: the reactor becomes its agent (the card's "Assign to me");
 * - the done emoji (✅) on a ticket's card: the ticket moves to done where its state offers it (from
 *   in progress); otherwise the reactor is told which moves the card offers.
 * Any other emoji, a reaction in another channel, the bot's own, on a message that is not a card (👀,
 * ✅), or a retry of an event taken already: nothing. A refusal is told privately and changes
 * nothing. Removing a reaction undoes nothing (the bot does not subscribe to `reaction_removed`).
 * The platform's requests are the reactor's: the interactive lane, people first.
 */
export const handleReactionAdded =
  (deps: ReactionDeps) =>
  async ({
    event,
    body,
    context,
    client,
  }: SlackEventMiddlewareArgs<'reaction_added'> & AllMiddlewareArgs): Promise<void> => {
    const user = event.user;
    if (!user || user === context.botUserId) return;
    const emoji = deps.reactions ?? defaultReactionEmoji;
    const kind = reactionKind(event.reaction, emoji);
    if (!kind || event.item?.type !== 'message') return;
    const { channel, ts } = event.item;
    if (!(await deps.subscriptions.reactsIn(channel))) return;
    // 👀 and ✅ act on a ticket's card only: where the bot posted it, as the store says.
    const card = kind === 'create' ? undefined : await deps.store.at(channel, ts);
    if (kind !== 'create' && !card) return;
    const eventId = body.event_id || `${channel}/${ts}/${user}/${event.reaction}/${event.event_ts}`;
    if (!(await deps.receipts.firstDelivery(eventId, new Date()))) return;
    const log = requestLog(deps.logger, { user, team: body.team_id, action: `reaction_${kind}` });
    const tell = ephemeralTo(client, channel, user);
    // The reactor's language, asked at once: what they are told waits for it at most a second, not on the platform.
    const locale = deps.locales.person(user);
    try {
      await tellIfSlow(tell, working[kind], deps.waitMs(), () => locale);
      if (kind === 'create') {
        await deps.access.require(user, 'ticket.create');
        await tell(ephemeral(buildReactionOffer(await locale, { c: channel, ts }, emoji)));
        return;
      }
      const ticketId = (card as { ticketId: string }).ticketId;
      const tried = await deps.tickets.tryMove(user, ticketId, kind === 'take' ? 'assign' : 'done');
      if (tried.kind === 'moved') {
        await deps.publisher.ticketChanged({ kind: 'moved', ...tried.outcome }, user);
        return;
      }
      const said =
        tried.kind === 'already-agent'
          ? buildAlreadyAgent(await locale, tried.ticket, emoji)
          : kind === 'take'
            ? buildNotTakable(await locale, tried.ticket, emoji)
            : buildMovesOffered(await locale, tried.ticket, emoji);
      await tell(ephemeral(said));
    } catch (error) {
      await replyError({ kind: 'button', respond: tell, client, user, channel, log }, error);
    }
  };

/** Registers `handleReactionAdded`: a row of the event table, keyed by the event's type. */
export function registerReactionAdded(app: Listeners, deps: ReactionDeps): void {
  app.event('reaction_added', handleReactionAdded(deps));
}
