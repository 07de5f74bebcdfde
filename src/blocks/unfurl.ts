import type { KnownBlock } from '@slack/types';
import type { ConferenceSummary } from '../domain/conference.js';
import type { MediaItem } from '../domain/media.js';
import type { TicketSummary } from '../domain/ticket.js';
import { stateIcon } from '../domain/ticket-workflow.js';
import type { Locale } from '../i18n/locale.js';
import { conferenceButtons, whenText } from './conference-card.js';
import { ids } from './ids.js';
import { actions, button, context, section } from './kit.js';
import { mediaLine } from './media.js';
import { clipPlain, date, empty, joinMd, md } from './mrkdwn.js';
import { dateAt, tPlain, t as tr } from './text.js';
import { ticketMoveButtons, ticketTitle, ticketToolButtons } from './ticket-card.js';
import { stateLabel } from './ticket-labels.js';

/*
 * A pasted link's compact card (`chat.unfurl`): what everyone in the channel sees under the message,
 * so it shows only what any person allowed to see the object may read, never a contact detail (no
 * requestor, no participants, no agent or moderator: a label may be an e-mail). Every platform value
 * goes through `md` (escaped) or plain text; times are Slack's date token, each viewer's own zone.
 * The buttons are the card's own (same action ids and values): a click goes through the card's route
 * and is checked against the clicker's rights.
 */

/** One unfurl: Block Kit blocks, as `chat.unfurl`'s `unfurls` map takes them per URL. */
export interface Unfurl {
  blocks: KnownBlock[];
}

/** A ticket's unfurl, in `locale` (the channel's): reference and subject, state, start (or last change), the card's buttons. */
export function buildTicketUnfurl(locale: Locale, t: TicketSummary): Unfurl {
  const moves = ticketMoveButtons(locale, t);
  const when = t.start
    ? tr(locale, 'unfurl.ticket.starts', { date: dateAt(locale, t.start) })
    : t.modified
      ? tr(locale, 'unfurl.ticket.updated', { date: date(locale, t.modified, '{date_short_pretty} {time}') })
      : empty;
  return {
    blocks: [
      section(md`${stateIcon(t.state)} *${clipPlain(ticketTitle(t), 500)}*`),
      context(
        joinMd(
          [
            md`*${stateLabel(locale, t.state)}*`,
            ...(when.text ? [when] : []),
            tr(locale, 'unfurl.ticket.id', { id: String(t.id) }),
          ],
          ' · ',
        ),
      ),
      ...(moves.length ? [actions(moves, `ticket_moves_${t.id}`)] : []),
      actions(ticketToolButtons(locale, t), `ticket_tools_${t.id}`),
    ],
  };
}

/** A conference's unfurl, in `locale` (the channel's): name, status, when (each viewer's zone), the card's buttons. */
export function buildConferenceUnfurl(locale: Locale, c: ConferenceSummary): Unfurl {
  const status = c.status ?? tPlain(locale, 'unfurl.conference.planned');
  return {
    blocks: [
      section(md`📹 *${clipPlain(c.name, 500)}*`),
      context(
        joinMd(
          [md`*${status}*`, whenText(locale, c), tr(locale, 'unfurl.conference.id', { id: String(c.id) })],
          ' · ',
        ),
      ),
      actions(conferenceButtons(locale, c), `conference_${c.id}`),
    ],
  };
}

/** A media's unfurl, in `locale` (the channel's): its line as the library shows it, and Share… (the share form). */
export function buildMediaUnfurl(locale: Locale, m: MediaItem): Unfurl {
  return {
    blocks: [
      section(mediaLine(m)),
      actions(
        [button(tPlain(locale, 'unfurl.media.share'), ids.actions.mediaShareOpen, { value: m.id })],
        `media_${m.id}`,
      ),
    ],
  };
}

/** What an unfurl of a deleted conference becomes, in `locale` (the channel's): its name struck, no button. */
export function buildDeletedUnfurl(locale: Locale, name: string, id: string): Unfurl {
  return {
    blocks: [
      section(md`~${clipPlain(name, 500)}~`),
      context(tr(locale, 'unfurl.deleted', { id: String(id) })),
    ],
  };
}
