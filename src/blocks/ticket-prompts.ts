import type { TicketSummary } from '../domain/ticket.js';
import { formatNumber } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';
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
import { channelLink, escaped, finish, link, type Mrkdwn, type MrkdwnText, md, mention } from './mrkdwn.js';
import { t, tPlain } from './text.js';
import { buildTicketCard } from './ticket-card.js';

/** A ticket as a sentence names it: its reference (the platform's, so outside text) or "ticket 12". */
export const ticketName = (t: { id: string; reference?: string | undefined }): string =>
  t.reference ?? `ticket ${t.id}`;

/** A ticket as a sentence of `locale` names it: its reference (outside text, escaped) or "ticket 12". */
const nameIn = (locale: Locale, ticket: { id: string; reference?: string | undefined }): Mrkdwn =>
  ticket.reference !== undefined
    ? escaped(ticket.reference)
    : t(locale, 'ticketPrompt.ticketId', { id: ticket.id });

/** A size in bytes as `locale` writes it: "1.5 GB", "1,5 Go". */
const sizeIn = (locale: Locale, bytes: number): string => {
  const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  return bytes >= 1e9
    ? tPlain(locale, 'ticketPrompt.size', { unit: 'gb', n: formatNumber(locale, bytes / 1e9, one) })
    : bytes >= 1e6
      ? tPlain(locale, 'ticketPrompt.size', { unit: 'mb', n: formatNumber(locale, bytes / 1e6, one) })
      : tPlain(locale, 'ticketPrompt.size', { unit: 'kb', n: formatNumber(locale, Math.ceil(bytes / 1e3)) });
};

/**
 * The private Delete prompt of a ticket's menu, in the person's language: its button asks for
 * confirmation once more. `place` is the button's value (the card's place, read back and checked
 * when it is pressed).
 */
export function buildTicketDeletePrompt(
  locale: Locale,
  ticket: { id: string; reference?: string | undefined },
  place: string,
): MessagePayload {
  const name = nameIn(locale, ticket);
  return message(t(locale, 'ticketPrompt.deleteFallback', { name }), [
    section(t(locale, 'ticketPrompt.delete', { name })),
    actions([
      button(tPlain(locale, 'ticketPrompt.deleteButton'), ids.actions.ticketDelete, {
        style: 'danger',
        value: place.slice(0, limits.buttonValue),
        confirm: confirmDialog({
          title: tPlain(locale, 'ticketPrompt.confirmTitle'),
          text: t(locale, 'ticketPrompt.confirmText'),
          confirm: tPlain(locale, 'ticketPrompt.confirm'),
          deny: tPlain(locale, 'ticketPrompt.deny'),
          danger: true,
        }),
      }),
    ]),
  ]);
}

/** What the Delete prompt becomes once the ticket is deleted (the person's language). */
export const buildTicketDeleted = (
  locale: Locale,
  ticket: { id: string; reference?: string | undefined },
): TextMessage => textMessage(t(locale, 'ticketPrompt.deleted', { name: nameIn(locale, ticket) }));

/**
 * The comment of a file someone posted into a ticket's thread, in the channel's language (`what`:
 * "shared a file of", "exported", or "shared all the media of" in one zip file).
 */
export const buildTicketFileComment = (
  locale: Locale,
  userId: string,
  what: 'shared' | 'exported' | 'shared all',
): MrkdwnText =>
  finish(
    t(
      locale,
      what === 'shared'
        ? 'ticketPrompt.fileShared'
        : what === 'shared all'
          ? 'ticketPrompt.fileSharedAll'
          : 'ticketPrompt.fileExported',
      { user: mention(userId) },
    ),
    limits.messageTextAdvised,
  );

/**
 * The ticket's media together (the platform's zip of them) past Slack's file size limit: said
 * privately (the person's language), nothing uploaded; each one can still be posted from the list.
 * `atLeast`: the archive came without a length and was stopped at the limit, so its whole size is
 * not known.
 */
export const buildTicketMediaTooBig = (
  locale: Locale,
  ticket: { id: string; reference?: string | undefined },
  size: number,
  limit: number,
  /** The size is how far the download went before it was stopped, not its whole. */
  atLeast = false,
): Mrkdwn =>
  t(locale, 'ticketPrompt.mediaTooBig', {
    name: nameIn(locale, ticket),
    atLeast: atLeast ? 'yes' : 'no',
    size: sizeIn(locale, size),
    limit: sizeIn(locale, limit),
  });

/**
 * A ticket's card that could not be posted in the channel, privately: why and how to fix it (`fix`),
 * then the card's details without its buttons (they would act on a card that is not there).
 */
export function buildTicketCardNotPosted(locale: Locale, ticket: TicketSummary, fix: Mrkdwn): MessagePayload {
  const card = buildTicketCard(locale, ticket);
  return message(fix, [section(fix), ...card.blocks.filter((b) => b.type !== 'actions')]);
}

/**
 * `/ticket show` of a ticket whose card is in the channel already (posted in the last hour), privately
 * (the person's language): where it is (`permalink`, when Slack gave one), brought up to date, with
 * its thread of events.
 */
export function buildTicketCardHere(
  locale: Locale,
  ticket: TicketSummary,
  permalink: string | undefined,
): TextMessage {
  const where = permalink
    ? link(permalink, tPlain(locale, 'ticketPrompt.itsCard'))
    : t(locale, 'ticketPrompt.itsCard');
  return textMessage(t(locale, 'ticketPrompt.cardHere', { name: nameIn(locale, ticket), where }));
}

/** What the ticket form's submission did (the result view's sentence, the person's language); `dropped` after it. */
export function buildTicketCreated(
  locale: Locale,
  ticket: { id: string; reference?: string | undefined },
  o: { channel: string; problem?: Mrkdwn | undefined; dropped?: Mrkdwn | undefined },
): Mrkdwn {
  const ref = ticket.reference ?? ticket.id;
  const said = o.problem
    ? t(locale, 'ticketPrompt.createdBut', { ref, problem: o.problem })
    : t(locale, 'ticketPrompt.created', { ref, channel: channelLink(o.channel) });
  return o.dropped ? md`${said}\n${o.dropped}` : said;
}

/** The edit form's outcome (the person's language): the fields saved, or that nothing changed. */
export const buildTicketEdited = (locale: Locale, changed: readonly string[]): Mrkdwn =>
  changed.length
    ? t(locale, 'ticketPrompt.saved', {
        fields: changed.map((field) => tPlain(locale, 'ticketPrompt.field', { field })).join(', '),
      })
    : t(locale, 'ticketPrompt.nothingChanged');

/**
 * The export form's outcome (the person's language): in the card's thread, or not made, this card
 * having no thread to post it in.
 */
export const buildTicketExported = (locale: Locale, inThread: boolean): Mrkdwn =>
  t(locale, inThread ? 'ticketPrompt.exported' : 'ticketPrompt.noThread');
