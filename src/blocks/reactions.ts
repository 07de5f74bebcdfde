import type { ReactionEmoji } from '../domain/reactions.js';
import type { TicketSummary } from '../domain/ticket.js';
import { movesFor } from '../domain/ticket-workflow.js';
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

/** The create emoji's offer: a *Create ticket* button (its click carries the trigger a form needs). */
export function buildReactionOffer(place: ReactedMessage, emoji: ReactionEmoji): MessagePayload {
  const text = md`:${emoji.create}: Create a ticket from this message? The form links the message and takes its text.`;
  return message(text, [
    section(text),
    actions([
      button('Create ticket', ids.actions.reactionTicket, {
        value: JSON.stringify(place),
        style: 'primary',
      }),
    ]),
  ]);
}

/** The done emoji on a card whose ticket's state does not offer Done: the moves the card offers. */
export function buildMovesOffered(ticket: TicketSummary, emoji: ReactionEmoji): TextMessage {
  const offered = movesFor(ticket.state).map((m) => md`“${m.label}”`);
  const moves = offered.length ? joinMd(offered, ', ') : md`none`;
  return textMessage(
    md`:${emoji.done}: moves a ticket to done only from *inprogress*: ${ticketName(ticket)} is *${ticket.state ?? 'in an unknown state'}*, so nothing changed. Its card offers: ${moves}.`,
  );
}

/** The take emoji by the ticket's agent. */
export const buildAlreadyAgent = (ticket: TicketSummary, emoji: ReactionEmoji): TextMessage =>
  textMessage(md`:${emoji.take}: You are already the agent of ${ticketName(ticket)}: nothing changed.`);

/** The take emoji on a ticket whose state offers no taking (a finished one). */
export const buildNotTakable = (ticket: TicketSummary, emoji: ReactionEmoji): TextMessage =>
  textMessage(
    md`:${emoji.take}: ${ticketName(ticket)} is *${ticket.state ?? 'in an unknown state'}*: it cannot be taken any more, so nothing changed.`,
  );

/** Said on the form when the message's text could not be read (why: a sentence of ours). */
export const textNotRead = (why: Mrkdwn): Mrkdwn =>
  md`The message’s text could not be read (${why}): the description links the message; paste what matters from it.`;
