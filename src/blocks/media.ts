import type { KnownBlock, ModalView, Overflow } from '@slack/types';
import type { MediaItem } from '../domain/media.js';
import { humanSize } from './format.js';
import { ids } from './ids.js';
import { input, textInput } from './inputs.js';
import { type Block, button, confirmDialog, context, mrkdwn, plain, section } from './kit.js';
import { limits, slackFileMaxBytes } from './limits.js';
import {
  clipPlain,
  date,
  finish,
  joinMd,
  link,
  type Mrkdwn,
  type MrkdwnText,
  md,
  mention,
} from './mrkdwn.js';

/*
 * The media library and every other place a media item is shown (the conference card's
 * Recordings & snapshots, the ticket card's Media): one line per item, one detail view, the forms.
 */

/** What a line needs of a media item: the library's, a conference's or a ticket's. */
export type MediaLineItem = Pick<MediaItem, 'id'> &
  Partial<Pick<MediaItem, 'type' | 'status' | 'title' | 'filename' | 'created' | 'size' | 'format'>>;

const icons: Record<string, string> = {
  recording: '🎬',
  video: '🎬',
  snapshot: '📷',
  picture: '📷',
  image: '📷',
  capture: '🖥️',
  document: '📄',
};

/** Its name for people: the title, else the file name, else the type and id. */
const nameOf = (m: MediaLineItem) => clipPlain(m.title || m.filename || `${m.type || 'Media'} ${m.id}`, 500);

/**
 * One media item as every list shows it: icon and title, then type · status · creation time (each
 * viewer's own zone, Slack's date token) · size · format.
 */
export function mediaLine(m: MediaLineItem): Mrkdwn {
  const bits = [
    m.type ? clipPlain(m.type, 60) : undefined,
    m.status && m.status !== 'completed' ? clipPlain(m.status, 60) : undefined,
    m.created ? date(m.created, '{date_short_pretty} {time}') : undefined,
    m.size !== undefined ? humanSize(m.size) : undefined,
    m.format ? clipPlain(m.format, 100) : undefined,
  ].filter((x) => x !== undefined);
  return md`${icons[m.type?.toLowerCase() ?? ''] ?? '📎'} *${nameOf(m)}*\n${joinMd(bits, ' · ')}`;
}

/** The library's query as its buttons and metadata carry it: the filters' text and the offset. */
export interface LibraryQuery {
  q: string;
  o: number;
}

/** A page of the library. `hidden`: items the platform answered that the person may not see. */
export interface MediaPage {
  items: MediaItem[];
  offset: number;
  limit: number;
  total?: number | undefined;
  hasMore: boolean;
  hidden?: number | undefined;
}

const libraryTitle = 'Media library';
const queryValue = (q: LibraryQuery) => clipPlain(JSON.stringify(q), limits.buttonValue);

/**
 * Items of a library page the person may not see, and why (the policy's `media.see`: a media is its
 * owner's, its group's members' and the platform admins'). `all`: the page shows none of its items.
 */
function hiddenOnPage(n: number, all: boolean): Mrkdwn {
  const why = md`${n === 1 ? 'belongs' : 'belong'} to other people, outside your groups: only a media’s owner, the members of its group and video platform admins see it`;
  return all
    ? md`${n === 1 ? md`The only item` : md`All ${n} items`} on this page ${why}.`
    : md`${n} more ${n === 1 ? 'item' : 'items'} on this page ${n === 1 ? 'is' : 'are'} hidden: ${n === 1 ? 'it' : 'they'} ${why}`;
}

/** A row's menu: Show, Edit, Share, Delete (each checked again when chosen). */
const rowMenu = (id: string): Overflow => ({
  type: 'overflow',
  action_id: `${ids.actions.mediaRow}:${id}`,
  options: (['show', 'edit', 'share', 'delete'] as const).map((verb) => ({
    text: plain({ show: 'Show', edit: 'Edit', share: 'Share in Slack', delete: 'Delete' }[verb], 75),
    value: `${verb}:${id}`,
  })),
});

/**
 * The library modal: the filters in force and a Filter button, one row per item with its menu,
 * Previous/Next (updating the modal in place). `notice`: a line on top (a deletion, a failure).
 */
export function buildMediaLibrary(q: LibraryQuery, page: MediaPage, notice?: Mrkdwn): ModalView {
  const blocks: Block[] = [];
  if (notice) blocks.push(context(notice));
  blocks.push(
    section(q.q ? md`*Filters:* \`${clipPlain(q.q, 500)}\`` : md`*All the media you may see*`, {
      accessory: button('Filter', ids.actions.mediaFilter, { value: queryValue(q) }),
    }),
    { type: 'divider' },
  );
  // Room for the notice, filters, divider, paging and the count lines: the rest are rows.
  const rows = page.items.slice(0, limits.viewBlocks - 8);
  const hiddenCount = page.hidden ?? 0;
  if (rows.length === 0)
    blocks.push(
      section(
        hiddenCount > 0
          ? md`${hiddenOnPage(hiddenCount, true)}${page.hasMore ? md` Try *Next ›*, or filters that name your own or your groups’ media.` : md``}`
          : page.offset > 0
            ? md`No more media.`
            : md`No media found. Try other filters, or fewer of them.`,
      ),
    );
  for (const m of rows) blocks.push(section(mediaLine(m), { accessory: rowMenu(m.id) }));
  const first = page.offset + 1;
  const last = page.offset + rows.length;
  const count =
    rows.length === 0
      ? undefined
      : page.total !== undefined
        ? md`${first}–${last} of ${page.total}`
        : md`${first}–${last}`;
  const hidden = hiddenCount > 0 ? md` · ${hiddenOnPage(hiddenCount, false)}` : md``;
  if (count) blocks.push(context(md`${count}${hidden}`));
  const nav = [];
  if (page.offset > 0)
    nav.push(
      button('‹ Previous', `${ids.actions.mediaPage}:prev`, {
        value: queryValue({ q: q.q, o: Math.max(0, page.offset - page.limit) }),
      }),
    );
  if (page.hasMore)
    nav.push(
      button('Next ›', `${ids.actions.mediaPage}:next`, {
        value: queryValue({ q: q.q, o: page.offset + page.limit }),
      }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return {
    type: 'modal',
    callback_id: ids.views.mediaLibrary,
    title: plain(libraryTitle, limits.viewTitle),
    close: plain('Close', limits.viewButton),
    private_metadata: queryValue(q),
    blocks,
  };
}

/** The detail view (pushed over the library): every field the record has, its thumbnail if any. */
export function buildMediaDetails(m: MediaItem): ModalView {
  const fields = [
    ['Type', m.type],
    ['Status', m.status],
    ['Format', m.format],
    ['Size', m.size !== undefined ? humanSize(m.size) : undefined],
    ['File', m.filename],
  ] as const;
  const blocks: KnownBlock[] = [
    section(md`*${nameOf(m)}*${m.description ? md`\n${clipPlain(m.description, 2_000)}` : md``}`),
    section(md`*Created:* ${m.created ? date(m.created, '{date_long_pretty} {time}') : 'unknown'}`, {
      fields: fields
        .filter(([, v]) => v)
        .map(([k, v]) => mrkdwn(md`*${k}*\n${clipPlain(String(v), 200)}`, limits.fieldText)),
    }),
  ];
  if (m.lat !== undefined && m.lng !== undefined) blocks.push(context(md`Location: ${m.lat}, ${m.lng}`));
  if (m.thumbnailUrl && m.thumbnailUrl.length <= limits.url)
    blocks.push({ type: 'image', image_url: m.thumbnailUrl, alt_text: clipPlain(nameOf(m), 2_000) });
  blocks.push(context(md`Media ${clipPlain(m.id, 30)}`));
  return {
    type: 'modal',
    callback_id: ids.views.mediaDetails,
    title: plain('Media', limits.viewTitle),
    close: plain('Back', limits.viewButton),
    blocks,
  };
}

/** Edit: title, description, location; `metadata` says which media and which library view to refresh. */
export function buildMediaEditForm(
  m: Pick<MediaItem, 'title' | 'description' | 'lat' | 'lng'>,
  metadata: string,
): ModalView {
  const e = ids.mediaEdit;
  return {
    type: 'modal',
    callback_id: ids.views.mediaEdit,
    title: plain('Edit media', limits.viewTitle),
    submit: plain('Save', limits.viewButton),
    close: plain('Back', limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(e.title, 'Title', textInput(m.title, { max_length: 255 })),
      input(e.description, 'Description', textInput(m.description, { multiline: true, max_length: 3_000 })),
      input(e.lat, 'Latitude', textInput(m.lat, { placeholder: plain('e.g. 48.8566', limits.placeholder) }), {
        hint: '-90 to 90. Leave both empty to keep the location.',
      }),
      input(e.lng, 'Longitude', textInput(m.lng, { placeholder: plain('e.g. 2.3522', limits.placeholder) }), {
        hint: '-180 to 180.',
      }),
    ],
  };
}

/** Share: a channel and, optionally, a thread (a message link or ts). */
export function buildMediaShareForm(m: MediaItem, metadata: string, channel?: string): ModalView {
  const s = ids.mediaShare;
  const tooBig = m.size !== undefined && m.size > slackFileMaxBytes;
  return {
    type: 'modal',
    callback_id: ids.views.mediaShare,
    title: plain('Share media', limits.viewTitle),
    submit: plain('Share', limits.viewButton),
    close: plain('Back', limits.viewButton),
    private_metadata: metadata,
    blocks: [
      section(mediaLine(m)),
      ...(tooBig
        ? [context(md`Past Slack’s file size limit: the channel gets a link to it instead of the file.`)]
        : []),
      input(
        s.channel,
        'Channel',
        {
          type: 'conversations_select',
          filter: { include: ['public', 'private'], exclude_bot_users: true },
          ...(channel ? { initial_conversation: channel } : { default_to_current_conversation: true }),
        },
        { optional: false },
      ),
      input(s.thread, 'In the thread of (optional)', textInput(undefined), {
        hint: 'A message’s link (Copy link in its menu) or its timestamp. Empty: in the channel.',
      }),
    ],
  };
}

/** The filter form (pushed over the library): the same words as `/conference media …`. */
export function buildMediaFilterForm(q: LibraryQuery, metadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.mediaFilter,
    title: plain('Filter media', limits.viewTitle),
    submit: plain('Apply', limits.viewButton),
    close: plain('Back', limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(ids.mediaFilter.filters, 'Filters', textInput(q.q, { multiline: false, max_length: 1_000 }), {
        hint: 'type:recording status:completed tag:x user:alice@example.com group:"Level 1" conversation:<id> since:2026-11-01 until:2026-11-30, other words search. Empty: everything.',
      }),
    ],
  };
}

/** Delete, in the library modal: what goes, and the button (with Slack's confirmation dialog). */
export function buildMediaDeletePrompt(m: MediaItem, q: LibraryQuery): ModalView {
  const value = clipPlain(JSON.stringify({ ...q, m: m.id }), limits.buttonValue);
  return {
    type: 'modal',
    callback_id: ids.views.mediaLibrary,
    title: plain(libraryTitle, limits.viewTitle),
    close: plain('Close', limits.viewButton),
    private_metadata: clipPlain(JSON.stringify(q), limits.privateMetadata),
    blocks: [
      section(md`Delete this media for good? The video platform keeps no copy.\n\n${mediaLine(m)}`),
      {
        type: 'actions',
        elements: [
          button('Delete', ids.actions.mediaDeleteConfirm, {
            value,
            style: 'danger',
            confirm: confirmDialog({
              title: 'Delete this media?',
              text: md`*${nameOf(m)}* is deleted from the video platform. This cannot be undone.`,
              confirm: 'Delete',
              deny: 'Keep it',
              danger: true,
            }),
          }),
          button('Cancel', ids.actions.mediaDeleteCancel, { value: queryValue(q) }),
        ],
      },
    ],
  };
}

/** Shared: where the file went. */
export function buildMediaShared(channel: Mrkdwn, inThread: boolean): Mrkdwn {
  return md`Shared ${inThread ? 'in a thread of ' : 'in '}${channel}.`;
}

/**
 * Past Slack's size limit: said to the person, with the link to fetch it from (the media's own URL,
 * else the platform's download path), and posted in the channel with the same link.
 */
export function buildMediaTooBig(
  m: MediaLineItem,
  size: number,
  url: string | undefined,
  limit: number,
): Mrkdwn {
  const where = url ? md`\nGet it here instead: ${link(url, 'download from the video platform')}` : md``;
  return md`*${nameOf(m)}* is ${humanSize(size)}: past Slack’s file size limit (${humanSize(limit)}), so it was not uploaded.${where}`;
}

/** The comment of a media file someone shared into a channel or thread. */
export const buildMediaFileComment = (userId: string, m: MediaLineItem): MrkdwnText =>
  finish(md`${mention(userId)} shared *${nameOf(m)}* from the media library.`, limits.messageTextAdvised);
