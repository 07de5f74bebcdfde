import type { Button } from '@slack/types';
import {
  type ConferenceSummary,
  type ListQuery,
  listPageSize,
  type MediaSummary,
} from '../domain/conference.js';
import { buildConferenceCard, whenText } from './conference-card.js';
import { formatMinutes } from './format.js';
import { ids } from './ids.js';
import { type Block, button, context, type MessagePayload, message, section } from './kit.js';
import { limits } from './limits.js';
import { mediaLine } from './media.js';
import { clipPlain, empty, escapeOutside, type Mrkdwn, md } from './mrkdwn.js';

const filterTitle = (q: ListQuery): Mrkdwn =>
  q.search
    ? md`Conferences matching “${clipPlain(q.search, 200)}”`
    : md`${{ upcoming: 'Upcoming conferences', past: 'Past conferences', all: 'Conferences' }[q.filter]}`;

/** One page of `/conference list`, ephemeral, with a Show button per conference and paging buttons. */
export function buildConferenceList(
  q: ListQuery,
  page: { items: ConferenceSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const blocks: Block[] = [section(md`*${filterTitle(q)}*`)];
  if (page.items.length === 0) {
    blocks.push(
      section(
        q.offset > 0
          ? md`No more conferences.`
          : md`No conference found. Plan one with \`/conference\` or try \`/conference list all\`.`,
      ),
    );
  }
  for (const c of page.items) {
    blocks.push(
      section(
        md`*${clipPlain(c.name, 1_000)}*\n${whenText(c)}${c.duration ? ` · ${formatMinutes(c.duration)}` : ''} · ${c.participants.length} participant${c.participants.length === 1 ? '' : 's'}`,
        { accessory: button('Show', `${ids.actions.conferenceShow}:${c.id}`, { value: c.id }) },
      ),
    );
  }
  const from = q.offset + 1;
  const to = q.offset + page.items.length;
  if (page.items.length)
    blocks.push(context(md`${from}–${to}${page.total !== undefined ? md` of ${page.total}` : empty}`));
  const nav: Button[] = [];
  // The query rides in the button's value (2,000 characters, and JSON may write a character as six): a longer search is cut, not the JSON.
  const pageValue = (offset: number) =>
    JSON.stringify({ ...q, ...(q.search ? { search: q.search.slice(0, 300) } : {}), offset });
  if (q.offset > 0)
    nav.push(
      button('‹ Previous', `${ids.actions.conferencePage}:prev`, {
        value: pageValue(Math.max(0, q.offset - listPageSize)),
      }),
    );
  if (page.hasMore)
    nav.push(
      button('Next ›', `${ids.actions.conferencePage}:next`, { value: pageValue(q.offset + listPageSize) }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return message(filterTitle(q), blocks);
}

/** Participants per page of `/conference show` when the card's field cannot hold them all. */
export const participantsPerPage = 100;

/**
 * `/conference show`: the card, and when its participants field had to cut the list, every
 * participant, a page of 100 at a time with paging buttons.
 */
export function buildConferenceDetails(c: ConferenceSummary, page = 0): MessagePayload {
  const card = buildConferenceCard(c);
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
    ...chunks.map((t, i) =>
      section(
        i === 0
          ? md`*Participants ${first}–${first + shown.length - 1} of ${c.participants.length}*\n${t}`
          : t,
      ),
    ),
  );
  const nav: Button[] = [];
  const to = (p: number) => JSON.stringify({ id: c.id, page: p });
  if (current > 0)
    nav.push(button('‹ Previous', `${ids.actions.conferenceShowPage}:prev`, { value: to(current - 1) }));
  if (current < pages - 1)
    nav.push(
      button('More participants ›', `${ids.actions.conferenceShowPage}:next`, { value: to(current + 1) }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return { text: card.text, blocks };
}

/** Recordings and snapshots of one conference, ephemeral. */
export function buildMediaList(
  conference: { id: string; name: string },
  medias: MediaSummary[],
  total: number | undefined,
): MessagePayload {
  const title = md`Recordings & snapshots of “${clipPlain(conference.name, 200)}”`;
  if (medias.length === 0)
    return message(title, [section(md`*${title}*\nNothing recorded or captured yet.`)]);
  const max = limits.messageBlocks - 2;
  const blocks: Block[] = [section(md`*${title}*`)];
  // One line per media, as the media library shows it (`blocks/media.ts`), shared the library's way.
  for (const m of medias.slice(0, max))
    blocks.push(
      section(
        mediaLine(m),
        // A platform id only (the action id and value carry it).
        /^\d{1,20}$/.test(m.id)
          ? { accessory: button('Share…', `${ids.actions.mediaShareOpen}:${m.id}`, { value: m.id }) }
          : {},
      ),
    );

  const shown = Math.min(medias.length, max);
  if ((total ?? medias.length) > shown) blocks.push(context(md`${shown} of ${total ?? medias.length} shown`));
  return message(title, blocks);
}

/**
 * The answer to Join, privately: the link as a button, and a word that it is the person's own. Without
 * a link the platform gave none (yet).
 */
export function buildJoinReply(c: { name: string }, url: string | undefined): MessagePayload {
  if (!url)
    return message(md`No join link yet`, [
      section(md`The video platform has no join link for “${c.name}” yet. Try again later.`),
    ]);
  const title = md`Your link to join “${c.name}”`;
  return message(title, [
    section(md`*${title}*\nIt is for you alone: please do not share it.`, {
      accessory: button('Join now', ids.actions.conferenceJoinLink, { url, style: 'primary' }),
    }),
  ]);
}
