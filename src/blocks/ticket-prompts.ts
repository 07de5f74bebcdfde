import type { TicketSummary } from '../domain/ticket.js';
import { humanSize } from './format.js';
import { ids } from './ids.js';
import {
  actions,
  button,
  confirmDialog,
  type MessagePayload,
  message,
  section,
  type TextMessage,
  textMessage,
} from './kit.js';
import { limits } from './limits.js';
import { channelLink, finish, link, type Mrkdwn, type MrkdwnText, md, mention } from './mrkdwn.js';
import { buildTicketCard } from './ticket-card.js';

/** A ticket as a sentence names it: its reference (the platform's, so outside text) or "ticket 12". */
export const ticketName = (t: { id: string; reference?: string | undefined }): string =>
  t.reference ?? `ticket ${t.id}`;

/**
 * The private Delete prompt of a ticket's menu: its button asks for confirmation once more. `place`
 * is the button's value (the card's place, read back and checked when it is pressed).
 */
export function buildTicketDeletePrompt(
  ticket: { id: string; reference?: string | undefined },
  place: string,
): MessagePayload {
  const name = ticketName(ticket);
  return message(md`Delete ${name}?`, [
    section(md`Delete *${name}*? It is removed from the video platform for good.`),
    actions([
      button('Delete ticket', ids.actions.ticketDelete, {
        style: 'danger',
        value: place.slice(0, limits.buttonValue),
        confirm: confirmDialog({
          title: 'Delete this ticket?',
          text: md`This cannot be undone.`,
          confirm: 'Delete',
          deny: 'Keep it',
          danger: true,
        }),
      }),
    ]),
  ]);
}

/** What the Delete prompt becomes once the ticket is deleted. */
export const buildTicketDeleted = (ticket: { id: string; reference?: string | undefined }): TextMessage =>
  textMessage(md`Deleted ${ticketName(ticket)}.`);

/**
 * The comment of a file someone posted into a ticket's thread (`what`: "shared a file of",
 * "exported", or "shared all the media of" in one zip file).
 */
export const buildTicketFileComment = (
  userId: string,
  what: 'shared' | 'exported' | 'shared all',
): MrkdwnText =>
  finish(
    what === 'shared'
      ? md`${mention(userId)} shared a file of the ticket.`
      : what === 'shared all'
        ? md`${mention(userId)} shared all the ticket’s media, in one zip file.`
        : md`${mention(userId)} exported the ticket.`,
    limits.messageTextAdvised,
  );

/**
 * The ticket's media together (the platform's zip of them) past Slack's file size limit: said
 * privately, nothing uploaded; each one can still be posted from the list. `atLeast`: the archive
 * came without a length and was stopped at the limit, so its whole size is not known.
 */
export const buildTicketMediaTooBig = (
  ticket: { id: string; reference?: string | undefined },
  size: number,
  limit: number,
  /** The size is how far the download went before it was stopped, not its whole. */
  atLeast = false,
): Mrkdwn =>
  md`The media of ${ticketName(ticket)} together are ${atLeast ? 'more than ' : ''}${humanSize(size)}: past Slack’s file size limit (${humanSize(limit)}), so nothing was uploaded. Post them one by one with their own buttons instead.`;

/**
 * A ticket's card that could not be posted in the channel, privately: why and how to fix it (`fix`),
 * then the card's details without its buttons (they would act on a card that is not there).
 */
export function buildTicketCardNotPosted(ticket: TicketSummary, fix: Mrkdwn): MessagePayload {
  const card = buildTicketCard(ticket);
  return message(fix, [section(fix), ...card.blocks.filter((b) => b.type !== 'actions')]);
}

/**
 * `/ticket show` of a ticket whose card is in the channel already (posted in the last hour), privately:
 * where it is (`permalink`, when Slack gave one), brought up to date, with its thread of events.
 */
export function buildTicketCardHere(ticket: TicketSummary, permalink: string | undefined): TextMessage {
  const name = ticketName(ticket);
  const where = permalink ? link(permalink, 'its card') : md`its card`;
  return textMessage(
    md`${name} is already in this channel: ${where} is up to date, and its thread has the ticket’s events.`,
  );
}

/** What the ticket form's submission did (the result view's sentence); `dropped` after it. */
export function buildTicketCreated(
  ticket: { id: string; reference?: string | undefined },
  o: { channel: string; problem?: Mrkdwn | undefined; dropped?: Mrkdwn | undefined },
): Mrkdwn {
  const name = md`:white_check_mark: Ticket *${ticket.reference ?? ticket.id}*`;
  const said = o.problem
    ? md`${name} is created, but ${o.problem}`
    : md`${name} is created. Its card is in ${channelLink(o.channel)}, which follows it.`;
  return o.dropped ? md`${said}\n${o.dropped}` : said;
}

/** The edit form's outcome: the fields saved, or that nothing changed. */
export const buildTicketEdited = (changed: readonly string[]): Mrkdwn =>
  changed.length ? md`:white_check_mark: Saved: ${changed.join(', ')}.` : md`Nothing changed.`;

/** The export form's outcome: in the card's thread, or not made, this card having no thread to post it in. */
export const buildTicketExported = (inThread: boolean): Mrkdwn =>
  inThread
    ? md`:white_check_mark: The export is in the ticket card's thread.`
    : md`This card has no thread I know to post the export in: export from the ticket's latest card in the channel (\`/ticket show\` brings it up).`;
