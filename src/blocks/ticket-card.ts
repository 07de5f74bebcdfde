import type { ActionsBlockElement, Button } from '@slack/types';
import type { TicketMediaItem, TicketSummary } from '../domain/ticket.js';
import { movesFor, stateIcon } from '../domain/ticket-workflow.js';
import type { Locale } from '../i18n/locale.js';
import { formatMinutes } from './format.js';
import { ids } from './ids.js';
import {
  actions,
  type Block,
  button,
  confirmDialog,
  context,
  fallbackText,
  type MessagePayload,
  message,
  mrkdwn,
  plain,
  section,
} from './kit.js';
import { limits } from './limits.js';
import { mediaLine } from './media.js';
import {
  clipMd,
  clipPlain,
  date,
  empty,
  escaped,
  joinMd,
  type Mrkdwn,
  type MrkdwnText,
  md,
  mention,
} from './mrkdwn.js';
import { dateAt, t as say, tPlain } from './text.js';
import { eventLabel, moveLabel, sourceLabel, stateLabel } from './ticket-labels.js';

const titleOf = (t: TicketSummary) =>
  [t.reference ?? `Ticket ${t.id}`, t.subject].filter((x): x is string => Boolean(x)).join(' — ');

const field = (title: string, value: Mrkdwn | string) => mrkdwn(md`*${title}*\n${value}`, limits.fieldText);

/** The card's menu (Slack shows at most 5 entries in an overflow). */
export const ticketMenu = [
  { value: 'timeline', label: 'ticket.menu.timeline' },
  { value: 'media', label: 'ticket.menu.media' },
  { value: 'export', label: 'ticket.menu.export' },
  { value: 'edit', label: 'ticket.menu.edit' },
  { value: 'delete', label: 'ticket.menu.delete' },
] as const;

/**
 * The moves a ticket's state allows, as buttons (destructive ones ask first): the card's and App
 * Home's, so one route (`ticket_move`) applies them wherever they are clicked.
 */
export function ticketMoveButtons(locale: Locale, t: TicketSummary, unique = false): Button[] {
  // Several tickets in one view (Home): the ticket id keeps each action id unique there.
  return movesFor(t.state).map((m) =>
    button(moveLabel(locale, m), `${ids.actions.ticketMove}:${m.id}${unique ? `:${t.id}` : ''}`, {
      value: t.id,
      ...(m.style ? { style: m.style } : {}),
      ...(m.confirm
        ? {
            confirm: confirmDialog({
              title: tPlain(locale, `ticket.move.${m.id as 'close' | 'cancel' | 'reject'}.title`),
              text: say(locale, `ticket.move.${m.id as 'close' | 'cancel' | 'reject'}.text`),
              confirm: tPlain(locale, `ticket.move.${m.id as 'close' | 'cancel' | 'reject'}.button`),
              deny: tPlain(locale, 'ticket.move.keep'),
              danger: m.style === 'danger',
            }),
          }
        : {}),
    }),
  );
}

/**
 * The card's tools: Join as agent (when the ticket has a link), Refresh and the menu. Join links grant
 * a role in the session: given on a click, privately, to those who may have them.
 */
export function ticketToolButtons(locale: Locale, t: TicketSummary): ActionsBlockElement[] {
  return [
    ...(t.agentUrl || t.guestUrl
      ? [
          button(tPlain(locale, 'ticket.tool.join'), ids.actions.ticketJoin, {
            value: t.id,
            style: 'primary',
          }),
        ]
      : []),
    button(tPlain(locale, 'ticket.tool.refresh'), ids.actions.ticketRefresh, { value: t.id }),
    {
      type: 'overflow',
      action_id: ids.actions.ticketMenu,
      options: ticketMenu.map((o) => ({
        text: plain(tPlain(locale, o.label), limits.optionText),
        value: `${o.value}:${t.id}`,
      })),
    },
  ];
}

/** A ticket's title as people know it: its reference (or number) and subject. */
export const ticketTitle = (t: TicketSummary): string => titleOf(t);

/**
 * The live ticket card: one message per ticket, edited in place. Its buttons are the moves the
 * ticket's state allows (destructive ones ask first), the agent's join link, Refresh and a menu.
 */
export function buildTicketCard(locale: Locale, t: TicketSummary): MessagePayload {
  const known = [t.requestor.name, ...t.requestor.emails, ...t.requestor.phones].filter((x): x is string =>
    Boolean(x),
  );
  const requestor = known.length ? joinMd(known, '\n') : say(locale, 'ticket.card.unknown');
  const moves = ticketMoveButtons(locale, t);
  const tools = ticketToolButtons(locale, t);
  const notSet = say(locale, 'ticket.card.notSet');
  const label = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  const blocks: Block[] = [
    { type: 'header', text: plain(`${stateIcon(t.state)} ${titleOf(t)}`, limits.headerText) },
    {
      type: 'section',
      fields: [
        field(label('ticket.card.state'), md`${stateIcon(t.state)} ${stateLabel(locale, t.state)}`),
        field(label('ticket.card.requestor'), requestor),
        field(
          label('ticket.card.agent'),
          t.agent ? clipPlain(t.agent.label, 200) : say(locale, 'ticket.card.unassigned'),
        ),
        field(
          label('ticket.card.group'),
          t.group
            ? clipPlain(t.group.name ?? tPlain(locale, 'ticket.card.groupNumber', { id: t.group.id }), 200)
            : say(locale, 'ticket.card.none'),
        ),
        field(label('ticket.card.start'), t.start ? dateAt(locale, t.start) : notSet),
        field(label('ticket.card.duration'), t.duration ? formatMinutes(t.duration) : notSet),
      ],
    },
    ...(moves.length ? [actions(moves, `ticket_moves_${t.id}`)] : []),
    actions(tools, `ticket_tools_${t.id}`),
    context(
      joinMd(
        [
          say(locale, 'ticket.card.number', { id: t.id }),
          t.type ? clipPlain(t.type, 200) : undefined,
          t.modified
            ? say(locale, 'ticket.card.updated', {
                date: date(locale, t.modified, '{date_short_pretty} {time}'),
              })
            : undefined,
        ].filter((x) => x !== undefined),
        ' · ',
      ),
    ),
  ];
  const title = clipPlain(titleOf(t), 300);
  return message(
    t.state
      ? say(locale, 'ticket.card.fallback', { title, state: stateLabel(locale, t.state) })
      : say(locale, 'ticket.card.fallbackUnknown', { title }),
    blocks,
  );
}

/** What a deleted ticket's card becomes: kept in the channel's history, without buttons. */
export function buildDeletedTicketCard(locale: Locale, t: TicketSummary, byUserId: string): MessagePayload {
  return message(say(locale, 'ticket.deleted.fallback', { title: clipPlain(titleOf(t), 300) }), [
    section(
      say(locale, 'ticket.deleted.text', {
        title: clipMd(escaped(titleOf(t)), 2_900),
        user: mention(byUserId),
      }),
    ),
    context(say(locale, 'ticket.card.number', { id: t.id })),
  ]);
}

/** A platform event as the thread and the timeline show it. */
export interface TicketEventLine {
  eventName: string;
  timestamp?: Date | undefined;
  source?: string | undefined;
}

/**
 * One event's line: its time in each viewer's zone, its name and its source (their labels where the
 * catalog knows them), all escaped.
 */
export const eventLine = (locale: Locale, e: TicketEventLine): Mrkdwn =>
  md`${e.timestamp && !Number.isNaN(e.timestamp.getTime()) ? md`${date(locale, e.timestamp, '{date_short_pretty} {time}')} · ` : empty}*${clipPlain(eventLabel(locale, e.eventName), 500)}*${e.source ? md` · ${clipPlain(sourceLabel(locale, e.source), 500)}` : empty}`;

/** One line of a ticket's thread for a platform event, from the event's outbox payload. */
export function eventText(locale: Locale, payload: Record<string, unknown>): MrkdwnText {
  return fallbackText(eventPayloadLine(locale, payload));
}

/** The line of a platform event as the outbox keeps it (`{eventName, timestamp, source}`). */
export const eventPayloadLine = (locale: Locale, payload: Record<string, unknown>): Mrkdwn =>
  eventLine(locale, {
    eventName:
      payload.eventName === undefined ? tPlain(locale, 'ticket.event.unnamed') : String(payload.eventName),
    timestamp: typeof payload.timestamp === 'string' ? new Date(payload.timestamp) : undefined,
    source: typeof payload.source === 'string' ? payload.source : undefined,
  });

/**
 * The message a channel that asked for it (`broadcast`) gets when a ticket changes state, from the
 * facts the poller queued ({reference, from, to}). Items queued before those facts carry a ready
 * `text`, composed from platform values: it is shown escaped.
 */
export function buildStateBroadcast(
  locale: Locale,
  ticketId: string,
  payload: Record<string, unknown>,
): { text: MrkdwnText } {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (payload.to === undefined && typeof payload.text === 'string') {
    // The sentence those items carry, read back into its facts so that it is said in the channel's language.
    const old = /^(.*) is now \*(.*)\* \(was (.*)\)\.$/s.exec(payload.text);
    if (!old) return { text: fallbackText(escaped(payload.text)) };
    return buildStateBroadcast(locale, ticketId, { reference: old[1], to: old[2], from: old[3] });
  }
  const to = str(payload.to);
  return {
    text: fallbackText(
      say(locale, 'ticket.broadcast', {
        ticket: clipPlain(
          str(payload.reference) ?? tPlain(locale, 'ticket.card.number', { id: ticketId }),
          300,
        ),
        to: stateLabel(locale, to),
        from: stateLabel(locale, str(payload.from)),
      }),
    ),
  };
}

/** A ticket's timeline for its thread: one line per event, time in each viewer's zone. */
export function buildTimeline(
  locale: Locale,
  t: TicketSummary,
  events: { eventName: string; timestamp: Date; source?: string | undefined }[],
): MessagePayload {
  const title = say(locale, 'ticket.timeline.title', { title: clipPlain(titleOf(t), 200) });
  if (events.length === 0) return message(title, [section(say(locale, 'ticket.timeline.empty', { title }))]);
  const lines = events.map((e) => eventLine(locale, e));
  const sections: Mrkdwn[] = [];
  let current: Mrkdwn | undefined;
  for (const line of lines) {
    if (current && current.text.length + line.text.length + 1 > limits.sectionText) {
      sections.push(current);
      current = line;
    } else current = current ? md`${current}\n${line}` : line;
  }
  if (current) sections.push(current);
  // The newest events matter most: when they do not all fit, the oldest are left out.
  const shown = sections.slice(-(limits.messageBlocks - 2));
  const blocks: Block[] = [
    section(md`*${title}*`),
    ...(sections.length > shown.length ? [context(say(locale, 'ticket.timeline.older'))] : []),
    ...shown.map((text) => section(text)),
  ];
  return message(title, blocks);
}

/** One page of `/ticket list`: a row per ticket with a Show button, and paging buttons. */
export function buildTicketList(
  locale: Locale,
  queryText: string,
  offset: number,
  pageSize: number,
  page: { items: TicketSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const title = queryText
    ? say(locale, 'ticket.page.titleQuery', { query: clipPlain(queryText, 100) })
    : say(locale, 'ticket.page.titleMine');
  const blocks: Block[] = [section(md`*${title}*`)];
  if (page.items.length === 0)
    blocks.push(section(say(locale, offset ? 'ticket.page.noMore' : 'ticket.page.noneFound')));
  for (const t of page.items) {
    const details = joinMd(
      [
        stateLabel(locale, t.state),
        t.agent ? clipPlain(t.agent.label, 200) : tPlain(locale, 'ticket.page.unassigned'),
        ...(t.start ? [dateAt(locale, t.start)] : []),
      ],
      ' · ',
    );
    blocks.push(
      section(md`${stateIcon(t.state)} *${clipPlain(titleOf(t), 1_000)}*\n${details}`, {
        accessory: button(tPlain(locale, 'ticket.page.show'), `${ids.actions.ticketShow}:${t.id}`, {
          value: t.id,
        }),
      }),
    );
  }
  if (page.items.length) {
    const range = { from: String(offset + 1), to: String(offset + page.items.length) };
    blocks.push(
      context(
        page.total !== undefined
          ? say(locale, 'ticket.page.rangeOf', { ...range, total: String(page.total) })
          : say(locale, 'ticket.page.range', range),
      ),
    );
  }
  const nav: Button[] = [];
  // The query rides in the button's value (2,000 characters, and JSON may write a character as six): a longer one is cut, not the JSON.
  const to = (o: number) => JSON.stringify({ q: queryText.slice(0, 300), offset: o });
  if (offset > 0)
    nav.push(
      button(tPlain(locale, 'ticket.page.previous'), `${ids.actions.ticketPage}:prev`, {
        value: to(Math.max(0, offset - pageSize)),
      }),
    );
  if (page.hasMore)
    nav.push(
      button(tPlain(locale, 'ticket.page.next'), `${ids.actions.ticketPage}:next`, {
        value: to(offset + pageSize),
      }),
    );
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return message(title, blocks);
}

/**
 * A ticket's media, privately: type, size, date, and a button that posts the file in the card's
 * thread (`place` says where the card is); with any media, a last button posts them all in one zip
 * file (the platform's archive of the ticket's media, `downloadTicketMedias`).
 */
export function buildTicketMediaList(
  locale: Locale,
  t: TicketSummary,
  items: TicketMediaItem[],
  total: number | undefined,
  place: { channel?: string | undefined; ts?: string | undefined },
): MessagePayload {
  const title = say(locale, 'ticket.media.title', { title: clipPlain(titleOf(t), 200) });
  const blocks: Block[] = [section(md`*${title}*`)];
  if (items.length === 0) blocks.push(context(say(locale, 'ticket.media.none')));
  const inThread = Boolean(place.channel && place.ts);
  const all = inThread && items.length > 0;
  // Room for the title, the count line and (with the zip button) its block.
  const room = limits.messageBlocks - (all ? 3 : 2);
  // One line per media, as the media library shows it (`blocks/media.ts`).
  for (const m of items.slice(0, room)) {
    blocks.push({
      type: 'section',
      text: mrkdwn(mediaLine(m)),
      ...(place.channel && place.ts
        ? {
            accessory: button(tPlain(locale, 'ticket.media.post'), `${ids.actions.ticketMediaPost}:${m.id}`, {
              value: JSON.stringify({
                k: t.id,
                m: m.id,
                c: place.channel,
                t: place.ts,
                s: m.size,
                n: m.filename ?? m.title,
              }).slice(0, limits.buttonValue),
            }),
          }
        : {}),
    });
  }
  const shown = Math.min(items.length, room);
  if ((total ?? items.length) > shown)
    blocks.push(
      context(
        say(locale, 'ticket.media.shown', { shown: String(shown), total: String(total ?? items.length) }),
      ),
    );
  if (all)
    blocks.push(
      actions([
        button(tPlain(locale, 'ticket.media.postAll'), ids.actions.ticketMediaPostAll, {
          value: JSON.stringify({ ticketId: t.id, channel: place.channel, ts: place.ts }).slice(
            0,
            limits.buttonValue,
          ),
        }),
      ]),
    );
  return message(title, blocks);
}

/** The answer to "Join as agent", privately: the agent's link, and the guest's to pass on to the requestor. */
export function buildTicketJoinReply(locale: Locale, t: TicketSummary): MessagePayload {
  const title = say(locale, 'ticket.join.title', { title: clipPlain(titleOf(t), 200) });
  const links: Button[] = [
    ...(t.agentUrl
      ? [
          button(tPlain(locale, 'ticket.tool.join'), ids.actions.ticketJoinLink, {
            url: t.agentUrl,
            style: 'primary',
          }),
        ]
      : []),
    ...(t.guestUrl
      ? [
          button(tPlain(locale, 'ticket.join.guest'), `${ids.actions.ticketJoinLink}:guest`, {
            url: t.guestUrl,
          }),
        ]
      : []),
  ];
  if (links.length === 0)
    return message(say(locale, 'ticket.join.noLinkTitle'), [
      section(say(locale, 'ticket.join.noLink', { title: clipPlain(titleOf(t), 200) })),
    ]);
  return message(title, [
    section(say(locale, 'ticket.join.text', { title })),
    { type: 'actions', elements: links },
  ]);
}
