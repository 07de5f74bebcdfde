import type { ReactionEmoji } from '../domain/reactions.js';
import type { TicketSummary } from '../domain/ticket.js';
import { movesFor } from '../domain/ticket-workflow.js';
import type { Locale } from '../i18n/locale.js';
import { ids } from './ids.js';
import {
  actions,
  button,
  type MessagePayload,
  message,
  section,
  type TextMessage,
  textMessage,
} from './kit.js';
import { joinMd, type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';
import { moveLabel, stateLabel } from './ticket-labels.js';
import { ticketName } from './ticket-prompts.js';

/*
 * What a reaction tells its reactor, privately (`slack/events/reaction-added.ts`): the offer of a
 * ticket, and why a reaction changed nothing.
 */

/** The message a reaction offers a ticket from: its channel and ts (the button's value). */
export interface ReactedMessage {
  c: string;
  ts: string;
}

/** A ticket's state in the reactions' sentences ("is *open*"), or "in an unknown state". */
const stateIs = (locale: Locale, state: string | undefined): string =>
  state ? stateLabel(locale, state) : tPlain(locale, 'ticket.reaction.unknownState');

/** The create emoji's offer, in the reactor's language: a *Create ticket* button (its click carries the trigger a form needs). */
export function buildReactionOffer(
  locale: Locale,
  place: ReactedMessage,
  emoji: ReactionEmoji,
): MessagePayload {
  const text = t(locale, 'ticket.reaction.offer', { emoji: md`:${emoji.create}:` });
  return message(text, [
    section(text),
    actions([
      button(tPlain(locale, 'ticket.reaction.create'), ids.actions.reactionTicket, {
        value: JSON.stringify(place),
        style: 'primary',
      }),
    ]),
  ]);
}

/** The done emoji on a card whose ticket's state does not offer Done: the moves the card offers. */
export function buildMovesOffered(locale: Locale, ticket: TicketSummary, emoji: ReactionEmoji): TextMessage {
  const offered = movesFor(ticket.state).map((m) =>
    t(locale, 'ticket.reaction.moveQuoted', { move: moveLabel(locale, m) }),
  );
  const moves = offered.length ? joinMd(offered, ', ') : t(locale, 'ticket.reaction.noMoves');
  return textMessage(
    t(locale, 'ticket.reaction.movesOffered', {
      emoji: md`:${emoji.done}:`,
      ticket: ticketName(ticket),
      state: stateIs(locale, ticket.state),
      moves,
    }),
  );
}

/** The take emoji by the ticket's agent. */
export const buildAlreadyAgent = (locale: Locale, ticket: TicketSummary, emoji: ReactionEmoji): TextMessage =>
  textMessage(
    t(locale, 'ticket.reaction.alreadyAgent', { emoji: md`:${emoji.take}:`, ticket: ticketName(ticket) }),
  );

/** The take emoji on a ticket whose state offers no taking (a finished one). */
export const buildNotTakable = (locale: Locale, ticket: TicketSummary, emoji: ReactionEmoji): TextMessage =>
  textMessage(
    t(locale, 'ticket.reaction.notTakable', {
      emoji: md`:${emoji.take}:`,
      ticket: ticketName(ticket),
      state: stateIs(locale, ticket.state),
    }),
  );

/** Said on the form when the message's text could not be read (why: a sentence of ours). */
export const textNotRead = (why: Mrkdwn): Mrkdwn =>
  md`The message’s text could not be read (${why}): the description links the message; paste what matters from it.`;
