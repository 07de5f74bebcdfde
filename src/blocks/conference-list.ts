import type { Button } from '@slack/types';
import {
  type ConferenceSummary,
  type ListQuery,
  listPageSize,
  type MediaSummary,
} from '../domain/conference.js';
import type { Locale } from '../i18n/locale.js';
import { buildConferenceCard, whenText } from './conference-card.js';
import { formatMinutes } from './format.js';
import { ids } from './ids.js';
import { type Block, button, context, type MessagePayload, message, section } from './kit.js';
import { limits } from './limits.js';
import { mediaLine } from './media.js';
import { clipPlain, escapeOutside, type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';

const filterTitle = (locale: Locale, q: ListQuery): Mrkdwn =>
  q.search
    ? t(locale, 'conference.list.matching', { search: clipPlain(q.search, 200) })
    : t(
        locale,
        (
          {
            upcoming: 'conference.list.upcoming',
            past: 'conference.list.past',
            all: 'conference.list.all',
          } as const
        )[q.filter],
      );

/** One page of `/conference list`, ephemeral, with a Show button per conference and paging buttons. */
export function buildConferenceList(
  locale: Locale,
  q: ListQuery,
  page: { items: ConferenceSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const blocks: Block[] = [section(md`*${filterTitle(locale, q)}*`)];
  if (page.items.length === 0) {
    blocks.push(
      section(q.offset > 0 ? t(locale, 'conference.list.noMore') : t(locale, 'conference.list.none')),
    );
  }
  for (const c of page.items) {
    blocks.push(
      section(
        c.duration
          ? t(locale, 'conference.list.itemDuration', {
              name: clipPlain(c.name, 1_000),
              when: whenText(locale, c),
              duration: formatMinutes(c.duration),
              count: c.participants.length,
            })
          : t(locale, 'conference.list.item', {
              name: clipPlain(c.name, 1_000),
              when: whenText(locale, c),
              count: c.participants.length,
            }),
        {
          accessory: button(tPlain(locale, 'conference.list.show'), `${ids.actions.conferenceShow}:${c.id}`, {
            value: c.id,
          }),
        },
      ),
    );
  }
  const from = q.offset + 1;
  const to = q.offset + page.items.length;
  if (page.items.length)
    blocks.push(
      context(
        page.total !== undefined
          ? t(locale, 'conference.list.rangeOf', { from, to, total: page.total })
          : md`${from}–${to}`,
      ),
    );
  const nav: Button[] = [];
  // The query rides in the button's value (2,000 characters, and JSON may write a character as six): a longer search is cut, not the JSON.
  const pageValue = (offset: number) =>
    JSON.stringify({ ...q, ...(q.search ? { search: q.search.slice(0, 300) } : {}), offset });
  if (q.offset > 0)
    nav.push(
      button(tPlain(locale, 'conference.list.previous'), `${ids.actions.conferencePage}:prev`, {
        value: pageValue(Math.max(0, q.offset - listPageSize)),
      }),
    );
  if (page.hasMore)
    nav.push(
      button(tPlain(locale, 'conference.list.next'), `${ids.actions.conferencePage}:next`, {
        value: pageValue(q.offset + listPageSize),
      }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return message(filterTitle(locale, q), blocks);
}

/** Participants per page of `/conference show` when the card's field cannot hold them all. */
export const participantsPerPage = 100;

/**
 * `/conference show`: the card, and when its participants field had to cut the list, every
 * participant, a page of 100 at a time with paging buttons.
 */
export function buildConferenceDetails(locale: Locale, c: ConferenceSummary, page = 0): MessagePayload {
  const card = buildConferenceCard(locale, c);
  const blocks = [...card.blocks];
  if (c.participants.map(escapeOutside).join(', ').length <= limits.fieldText - 40)
    return { text: card.text, blocks };
  const pages = Math.ceil(c.participants.length / participantsPerPage);
  const current = Math.min(Math.max(0, page), pages - 1);
  const shown = c.participants.slice(current * participantsPerPage, (current + 1) * participantsPerPage);
  // Sections hold 3,000 characters: cut the page into as many as it needs.
  const chunks: Mrkdwn[] = [];
  let chunk: Mrkdwn | undefined;
  for (const p of shown.map((x) => md`${clipPlain(x, 200)}`)) {
    if (chunk && chunk.text.length + p.text.length + 2 > limits.sectionText - 60) {
      chunks.push(chunk);
      chunk = undefined;
    }
    chunk = chunk ? md`${chunk}, ${p}` : p;
  }
  if (chunk) chunks.push(chunk);
  const first = current * participantsPerPage + 1;
  blocks.push(
    ...chunks.map((chunkText, i) =>
      section(
        i === 0
          ? t(locale, 'conference.details.participants', {
              first,
              last: first + shown.length - 1,
              total: c.participants.length,
              list: chunkText,
            })
          : chunkText,
      ),
    ),
  );
  const nav: Button[] = [];
  const to = (p: number) => JSON.stringify({ id: c.id, page: p });
  if (current > 0)
    nav.push(
      button(tPlain(locale, 'conference.list.previous'), `${ids.actions.conferenceShowPage}:prev`, {
        value: to(current - 1),
      }),
    );
  if (current < pages - 1)
    nav.push(
      button(tPlain(locale, 'conference.details.more'), `${ids.actions.conferenceShowPage}:next`, {
        value: to(current + 1),
      }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return { text: card.text, blocks };
}

/** Recordings and snapshots of one conference, ephemeral. */
export function buildMediaList(
  locale: Locale,
  conference: { id: string; name: string },
  medias: MediaSummary[],
  total: number | undefined,
): MessagePayload {
  const title = t(locale, 'conference.media.title', { name: clipPlain(conference.name, 200) });
  if (medias.length === 0) return message(title, [section(t(locale, 'conference.media.none', { title }))]);
  const max = limits.messageBlocks - 2;
  const blocks: Block[] = [section(md`*${title}*`)];
  // One line per media, as the media library shows it (`blocks/media.ts`), shared the library's way.
  for (const m of medias.slice(0, max))
    blocks.push(
      section(
        mediaLine(m),
        // A platform id only (the action id and value carry it).
        /^\d{1,20}$/.test(m.id)
          ? {
              accessory: button(
                tPlain(locale, 'conference.media.share'),
                `${ids.actions.mediaShareOpen}:${m.id}`,
                { value: m.id },
              ),
            }
          : {},
      ),
    );

  const shown = Math.min(medias.length, max);
  if ((total ?? medias.length) > shown)
    blocks.push(context(t(locale, 'conference.media.shown', { shown, total: total ?? medias.length })));
  return message(title, blocks);
}

/**
 * The answer to Join, privately: the link as a button, and a word that it is the person's own. Without
 * a link the platform gave none (yet).
 */
export function buildJoinReply(locale: Locale, c: { name: string }, url: string | undefined): MessagePayload {
  if (!url)
    return message(t(locale, 'conference.join.noneTitle'), [
      section(t(locale, 'conference.join.none', { name: c.name })),
    ]);
  const title = t(locale, 'conference.join.title', { name: c.name });
  return message(title, [
    section(t(locale, 'conference.join.text', { title }), {
      accessory: button(tPlain(locale, 'conference.join.now'), ids.actions.conferenceJoinLink, {
        url,
        style: 'primary',
      }),
    }),
  ]);
}
