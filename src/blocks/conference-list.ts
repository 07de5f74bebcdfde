import { slackDate } from '../domain/time.js';
import { ids } from '../slack/ids.js';
import {
  type Block,
  buildConferenceCard,
  button,
  type ConferenceSummary,
  context,
  escapeText,
  formatMinutes,
  humanSize,
  type Json,
  type MessagePayload,
  section,
  whenText,
} from './conference-card.js';
import { clip, limits } from './limits.js';

/** Which list a page belongs to; carried in the page buttons so Next/Previous re-run the same query. */
export interface ListQuery {
  filter: 'upcoming' | 'past' | 'all';
  search?: string | undefined;
  offset: number;
}

/** Conferences per page of `/conference list`: two blocks each, well under 50 blocks a message. */
export const listPageSize = 10;

const filterTitle = (q: ListQuery) =>
  q.search
    ? `Conferences matching “${escapeText(q.search)}”`
    : { upcoming: 'Upcoming conferences', past: 'Past conferences', all: 'Conferences' }[q.filter];

/** One page of `/conference list`, ephemeral, with a Show button per conference and paging buttons. */
export function buildConferenceList(
  q: ListQuery,
  page: { items: ConferenceSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const blocks: Block[] = [section(`*${filterTitle(q)}*`)];
  if (page.items.length === 0) {
    blocks.push(
      section(
        q.offset > 0
          ? 'No more conferences.'
          : 'No conference found. Plan one with `/conference` or try `/conference list all`.',
      ),
    );
  }
  for (const c of page.items) {
    blocks.push(
      section(
        `*${escapeText(c.name)}*\n${whenText(c)}${c.duration ? ` · ${formatMinutes(c.duration)}` : ''} · ${c.participants.length} participant${c.participants.length === 1 ? '' : 's'}`,
        { accessory: button('Show', `${ids.actions.conferenceShow}:${c.id}`, { value: c.id }) },
      ),
    );
  }
  const from = q.offset + 1;
  const to = q.offset + page.items.length;
  if (page.items.length)
    blocks.push(context(`${from}–${to}${page.total !== undefined ? ` of ${page.total}` : ''}`));
  const nav: Json[] = [];
  const pageValue = (offset: number) => JSON.stringify({ ...q, offset });
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
  return { text: filterTitle(q), blocks };
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
  if (c.participants.map(escapeText).join(', ').length <= limits.fieldText - 40)
    return { text: card.text, blocks };
  const pages = Math.ceil(c.participants.length / participantsPerPage);
  const current = Math.min(Math.max(0, page), pages - 1);
  const shown = c.participants.slice(current * participantsPerPage, (current + 1) * participantsPerPage);
  // Sections hold 3,000 characters: cut the page into as many as it needs.
  const chunks: string[] = [];
  let chunk = '';
  for (const p of shown.map((x) => escapeText(clip(x, 200)))) {
    if (chunk && chunk.length + p.length + 2 > limits.sectionText - 60) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk = chunk ? `${chunk}, ${p}` : p;
  }
  if (chunk) chunks.push(chunk);
  const first = current * participantsPerPage + 1;
  blocks.push(
    ...chunks.map((t, i) =>
      section(
        i === 0 ? `*Participants ${first}–${first + shown.length - 1} of ${c.participants.length}*\n${t}` : t,
      ),
    ),
  );
  const nav: Json[] = [];
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

/** A recording or snapshot as the media list shows it. */
export interface MediaSummary {
  id: string;
  type?: string | undefined;
  title?: string | undefined;
  created?: Date | undefined;
  size?: number | undefined;
  format?: string | undefined;
}

const icons: Record<string, string> = {
  recording: '🎬',
  video: '🎬',
  snapshot: '📷',
  picture: '📷',
  image: '📷',
};

/** Recordings and snapshots of one conference, ephemeral. */
export function buildMediaList(
  conference: { id: string; name: string },
  medias: MediaSummary[],
  total: number | undefined,
): MessagePayload {
  const title = `Recordings & snapshots of “${conference.name}”`;
  if (medias.length === 0)
    return { text: title, blocks: [section(`*${escapeText(title)}*\nNothing recorded or captured yet.`)] };
  const max = limits.messageBlocks - 2;
  const blocks: Block[] = [section(`*${escapeText(title)}*`)];
  for (const m of medias.slice(0, max)) {
    const bits = [
      m.created ? slackDate(m.created, '{date_short_pretty} {time}') : undefined,
      m.format,
      m.size ? humanSize(m.size) : undefined,
      `id ${m.id}`,
    ].filter(Boolean);
    blocks.push(
      section(
        `${icons[m.type?.toLowerCase() ?? ''] ?? '📎'} *${escapeText(m.title || m.type || 'Media')}*\n${bits.join(' · ')}`,
      ),
    );
  }
  const shown = Math.min(medias.length, max);
  if ((total ?? medias.length) > shown) blocks.push(context(`${shown} of ${total ?? medias.length} shown`));
  return { text: title, blocks };
}

/**
 * The answer to Join, privately: the link as a button, and a word that it is the person's own. Without
 * a link the platform gave none (yet).
 */
export function buildJoinReply(c: { name: string }, url: string | undefined): MessagePayload {
  if (!url)
    return {
      text: 'No join link yet',
      blocks: [
        section(`The video platform has no join link for “${escapeText(c.name)}” yet. Try again later.`),
      ],
    };
  const text = `Your link to join “${c.name}”`;
  return {
    text: escapeText(text),
    blocks: [
      section(`*${escapeText(text)}*\nIt is for you alone: please do not share it.`, {
        accessory: button('Join now', ids.actions.conferenceJoinLink, { url, style: 'primary' }),
      }),
    ],
  };
}
