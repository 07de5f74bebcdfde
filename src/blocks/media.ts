import type { KnownBlock, ModalView, Overflow } from '@slack/types';
import type { MediaItem } from '../domain/media.js';
import type { MessageKey } from '../i18n/catalog.js';
import { formatSize } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';
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
import { t, tPlain } from './text.js';

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

const knownTypes = new Set(['recording', 'video', 'snapshot', 'picture', 'image', 'capture', 'document']);
const knownStatuses = new Set(['completed', 'pending', 'processing', 'failed', 'error']);

/** A media's type as the catalog names it; an unknown one as the platform wrote it. */
export const typeLabel = (locale: Locale, type: string): string =>
  knownTypes.has(type.toLowerCase())
    ? tPlain(locale, `media.type.${type.toLowerCase()}` as MessageKey)
    : clipPlain(type, 60);

/** A media's status as the catalog names it; an unknown one as the platform wrote it. */
export const statusLabel = (locale: Locale, status: string): string =>
  knownStatuses.has(status.toLowerCase())
    ? tPlain(locale, `media.status.${status.toLowerCase()}` as MessageKey)
    : clipPlain(status, 60);

/** Its name for people: the title, else the file name, else the type and id. */
const nameOf = (m: MediaLineItem, locale: Locale) =>
  clipPlain(
    m.title ||
      m.filename ||
      (m.type ? `${typeLabel(locale, m.type)} ${m.id}` : tPlain(locale, 'media.untitled', { id: m.id })),
    500,
  );

/**
 * One media item as every list shows it: icon and title, then type · status · creation time (each
 * viewer's own zone, Slack's date token) · size · format. `locale`: the reader's (English by default
 * for the lists of other families not yet translated: the conference's and the ticket's cards, unfurls).
 */
export function mediaLine(m: MediaLineItem, locale: Locale = 'en'): Mrkdwn {
  const bits = [
    m.type ? typeLabel(locale, m.type) : undefined,
    m.status && m.status !== 'completed' ? statusLabel(locale, m.status) : undefined,
    m.created ? date(locale, m.created, '{date_short_pretty} {time}') : undefined,
    m.size !== undefined ? formatSize(locale, m.size) : undefined,
    m.format ? clipPlain(m.format, 100) : undefined,
  ].filter((x) => x !== undefined);
  return md`${icons[m.type?.toLowerCase() ?? ''] ?? '📎'} *${nameOf(m, locale)}*\n${joinMd(bits, ' · ')}`;
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

const queryValue = (q: LibraryQuery) => clipPlain(JSON.stringify(q), limits.buttonValue);

/**
 * Items of a library page the person may not see, and why (the policy's `media.see`: a media is its
 * owner's, its group's members' and the platform admins'). `all`: the page shows none of its items.
 */
const hiddenOnPage = (locale: Locale, n: number, all: boolean): Mrkdwn =>
  t(locale, all ? 'media.library.hiddenAll' : 'media.library.hiddenSome', { count: n });

/** A row's menu: Show, Edit, Share, Delete (each checked again when chosen). */
const rowMenu = (locale: Locale, id: string): Overflow => ({
  type: 'overflow',
  action_id: `${ids.actions.mediaRow}:${id}`,
  options: (['show', 'edit', 'share', 'delete'] as const).map((verb) => ({
    text: plain(tPlain(locale, `media.row.${verb}`), 75),
    value: `${verb}:${id}`,
  })),
});

/**
 * The library modal: the filters in force and a Filter button, one row per item with its menu,
 * Previous/Next (updating the modal in place). `notice`: a line on top (a deletion, a failure).
 */
export function buildMediaLibrary(
  locale: Locale,
  q: LibraryQuery,
  page: MediaPage,
  notice?: Mrkdwn,
): ModalView {
  const blocks: Block[] = [];
  if (notice) blocks.push(context(notice));
  blocks.push(
    section(
      q.q
        ? t(locale, 'media.library.filters', { filters: clipPlain(q.q, 500) })
        : t(locale, 'media.library.all'),
      {
        accessory: button(tPlain(locale, 'media.library.filter'), ids.actions.mediaFilter, {
          value: queryValue(q),
        }),
      },
    ),
    { type: 'divider' },
  );
  // Room for the notice, filters, divider, paging and the count lines: the rest are rows.
  const rows = page.items.slice(0, limits.viewBlocks - 8);
  const hiddenCount = page.hidden ?? 0;
  if (rows.length === 0)
    blocks.push(
      section(
        hiddenCount > 0
          ? md`${hiddenOnPage(locale, hiddenCount, true)}${page.hasMore ? md` ${t(locale, 'media.library.tryNext')}` : md``}`
          : page.offset > 0
            ? t(locale, 'media.library.noMore')
            : t(locale, 'media.library.none'),
      ),
    );
  for (const m of rows) blocks.push(section(mediaLine(m, locale), { accessory: rowMenu(locale, m.id) }));
  const first = page.offset + 1;
  const last = page.offset + rows.length;
  const count =
    rows.length === 0
      ? undefined
      : page.total !== undefined
        ? t(locale, 'media.library.rangeOf', { first, last, total: page.total })
        : t(locale, 'media.library.range', { first, last });
  const hidden = hiddenCount > 0 ? md` · ${hiddenOnPage(locale, hiddenCount, false)}` : md``;
  if (count) blocks.push(context(md`${count}${hidden}`));
  const nav = [];
  if (page.offset > 0)
    nav.push(
      button(tPlain(locale, 'media.library.previous'), `${ids.actions.mediaPage}:prev`, {
        value: queryValue({ q: q.q, o: Math.max(0, page.offset - page.limit) }),
      }),
    );
  if (page.hasMore)
    nav.push(
      button(tPlain(locale, 'media.library.next'), `${ids.actions.mediaPage}:next`, {
        value: queryValue({ q: q.q, o: page.offset + page.limit }),
      }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return {
    type: 'modal',
    callback_id: ids.views.mediaLibrary,
    title: plain(tPlain(locale, 'media.library.title'), limits.viewTitle),
    close: plain(tPlain(locale, 'media.library.close'), limits.viewButton),
    private_metadata: queryValue(q),
    blocks,
  };
}

/** The detail view (pushed over the library): every field the record has, its thumbnail if any. */
export function buildMediaDetails(locale: Locale, m: MediaItem): ModalView {
  const fields = [
    ['type', m.type ? typeLabel(locale, m.type) : undefined],
    ['status', m.status ? statusLabel(locale, m.status) : undefined],
    ['format', m.format],
    ['size', m.size !== undefined ? formatSize(locale, m.size) : undefined],
    ['file', m.filename],
  ] as const;
  const blocks: KnownBlock[] = [
    section(md`*${nameOf(m, locale)}*${m.description ? md`\n${clipPlain(m.description, 2_000)}` : md``}`),
    section(
      m.created
        ? t(locale, 'media.details.created', { when: date(locale, m.created, '{date_long_pretty} {time}') })
        : t(locale, 'media.details.createdUnknown'),
      {
        fields: fields
          .filter(([, v]) => v)
          .map(([k, v]) =>
            mrkdwn(
              md`*${tPlain(locale, `media.field.${k}`)}*\n${clipPlain(String(v), 200)}`,
              limits.fieldText,
            ),
          ),
      },
    ),
  ];
  if (m.lat !== undefined && m.lng !== undefined)
    blocks.push(context(t(locale, 'media.details.location', { lat: String(m.lat), lng: String(m.lng) })));
  if (m.thumbnailUrl && m.thumbnailUrl.length <= limits.url)
    blocks.push({ type: 'image', image_url: m.thumbnailUrl, alt_text: clipPlain(nameOf(m, locale), 2_000) });
  blocks.push(context(t(locale, 'media.details.id', { id: clipPlain(m.id, 30) })));
  return {
    type: 'modal',
    callback_id: ids.views.mediaDetails,
    title: plain(tPlain(locale, 'media.details.title'), limits.viewTitle),
    close: plain(tPlain(locale, 'media.back'), limits.viewButton),
    blocks,
  };
}

/** Edit: title, description, location; `metadata` says which media and which library view to refresh. */
export function buildMediaEditForm(
  locale: Locale,
  m: Pick<MediaItem, 'title' | 'description' | 'lat' | 'lng'>,
  metadata: string,
): ModalView {
  const e = ids.mediaEdit;
  const say = (key: MessageKey) => tPlain(locale, key);
  return {
    type: 'modal',
    callback_id: ids.views.mediaEdit,
    title: plain(say('media.edit.title'), limits.viewTitle),
    submit: plain(say('media.edit.save'), limits.viewButton),
    close: plain(say('media.back'), limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(e.title, say('media.edit.titleLabel'), textInput(m.title, { max_length: 255 })),
      input(
        e.description,
        say('media.edit.description'),
        textInput(m.description, { multiline: true, max_length: 3_000 }),
      ),
      input(
        e.lat,
        say('media.edit.lat'),
        textInput(m.lat, { placeholder: plain(say('media.edit.latPlaceholder'), limits.placeholder) }),
        { hint: say('media.edit.latHint') },
      ),
      input(
        e.lng,
        say('media.edit.lng'),
        textInput(m.lng, { placeholder: plain(say('media.edit.lngPlaceholder'), limits.placeholder) }),
        { hint: say('media.edit.lngHint') },
      ),
    ],
  };
}

/** Share: a channel and, optionally, a thread (a message link or ts). */
export function buildMediaShareForm(
  locale: Locale,
  m: MediaItem,
  metadata: string,
  channel?: string,
): ModalView {
  const s = ids.mediaShare;
  const tooBig = m.size !== undefined && m.size > slackFileMaxBytes;
  return {
    type: 'modal',
    callback_id: ids.views.mediaShare,
    title: plain(tPlain(locale, 'media.share.title'), limits.viewTitle),
    submit: plain(tPlain(locale, 'media.share.submit'), limits.viewButton),
    close: plain(tPlain(locale, 'media.back'), limits.viewButton),
    private_metadata: metadata,
    blocks: [
      section(mediaLine(m, locale)),
      ...(tooBig ? [context(t(locale, 'media.share.tooBig'))] : []),
      input(
        s.channel,
        tPlain(locale, 'media.share.channel'),
        {
          type: 'conversations_select',
          filter: { include: ['public', 'private'], exclude_bot_users: true },
          ...(channel ? { initial_conversation: channel } : { default_to_current_conversation: true }),
        },
        { optional: false },
      ),
      input(s.thread, tPlain(locale, 'media.share.thread'), textInput(undefined), {
        hint: tPlain(locale, 'media.share.threadHint'),
      }),
    ],
  };
}

/** The filters as people type them, in the filter form's hint (the same in every language). */
const filterExample =
  'type:recording status:completed tag:x user:alice@example.com group:"Level 1" conversation:<id> since:2026-11-01 until:2026-11-30';

/** The filter form (pushed over the library): the same words as `/conference media …`. */
export function buildMediaFilterForm(locale: Locale, q: LibraryQuery, metadata: string): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.mediaFilter,
    title: plain(tPlain(locale, 'media.filter.title'), limits.viewTitle),
    submit: plain(tPlain(locale, 'media.filter.apply'), limits.viewButton),
    close: plain(tPlain(locale, 'media.back'), limits.viewButton),
    private_metadata: metadata,
    blocks: [
      input(
        ids.mediaFilter.filters,
        tPlain(locale, 'media.filter.label'),
        textInput(q.q, { multiline: false, max_length: 1_000 }),
        { hint: tPlain(locale, 'media.filter.hint', { syntax: filterExample }) },
      ),
    ],
  };
}

/** Delete, in the library modal: what goes, and the button (with Slack's confirmation dialog). */
export function buildMediaDeletePrompt(locale: Locale, m: MediaItem, q: LibraryQuery): ModalView {
  const value = clipPlain(JSON.stringify({ ...q, m: m.id }), limits.buttonValue);
  return {
    type: 'modal',
    callback_id: ids.views.mediaLibrary,
    title: plain(tPlain(locale, 'media.library.title'), limits.viewTitle),
    close: plain(tPlain(locale, 'media.library.close'), limits.viewButton),
    private_metadata: clipPlain(JSON.stringify(q), limits.privateMetadata),
    blocks: [
      section(md`${t(locale, 'media.delete.prompt')}\n\n${mediaLine(m, locale)}`),
      {
        type: 'actions',
        elements: [
          button(tPlain(locale, 'media.delete.button'), ids.actions.mediaDeleteConfirm, {
            value,
            style: 'danger',
            confirm: confirmDialog({
              title: tPlain(locale, 'media.delete.confirmTitle'),
              text: t(locale, 'media.delete.confirmText', { name: nameOf(m, locale) }),
              confirm: tPlain(locale, 'media.delete.button'),
              deny: tPlain(locale, 'media.delete.keep'),
              danger: true,
            }),
          }),
          button(tPlain(locale, 'media.delete.cancel'), ids.actions.mediaDeleteCancel, {
            value: queryValue(q),
          }),
        ],
      },
    ],
  };
}

/** Shared: where the file went. */
export function buildMediaShared(locale: Locale, channel: Mrkdwn, inThread: boolean): Mrkdwn {
  return t(locale, inThread ? 'media.shared.thread' : 'media.shared.channel', { channel });
}

/**
 * Past Slack's size limit: said to the person, with the link to fetch it from (the media's own URL,
 * else the platform's download path), and posted in the channel with the same link.
 */
export function buildMediaTooBig(
  locale: Locale,
  m: MediaLineItem,
  size: number,
  url: string | undefined,
  limit: number,
): Mrkdwn {
  const said = t(locale, 'media.tooBig', {
    name: nameOf(m, locale),
    size: formatSize(locale, size),
    limit: formatSize(locale, limit),
  });
  if (!url) return said;
  const where = link(url, tPlain(locale, 'media.tooBig.linkLabel'));
  return md`${said}\n${t(locale, 'media.tooBig.link', { link: where })}`;
}

/** The comment of a media file someone shared into a channel or thread, in the channel's language. */
export const buildMediaFileComment = (locale: Locale, userId: string, m: MediaLineItem): MrkdwnText =>
  finish(
    t(locale, 'media.fileComment', { person: mention(userId), name: nameOf(m, locale) }),
    limits.messageTextAdvised,
  );
