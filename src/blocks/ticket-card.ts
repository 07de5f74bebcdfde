import type { ActionsBlockElement, Button } from '@slack/types';
import type { TicketMediaItem, TicketSummary } from '../domain/ticket.js';
import { movesFor, stateIcon } from '../domain/ticket-workflow.js';
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

const titleOf = (t: TicketSummary) =>
  [t.reference ?? `Ticket ${t.id}`, t.subject].filter((x): x is string => Boolean(x)).join(' — ');

const field = (title: string, value: Mrkdwn | string) => mrkdwn(md`*${title}*\n${value}`, limits.fieldText);

/** The card's menu (Slack shows at most 5 entries in an overflow). */
export const ticketMenu = [
  { value: 'timeline', label: 'Timeline in the thread' },
  { value: 'media', label: 'Media' },
  { value: 'export', label: 'Export' },
  { value: 'edit', label: 'Edit' },
  { value: 'delete', label: 'Delete' },
] as const;

/**
 * The moves a ticket's state allows, as buttons (destructive ones ask first): the card's and App
 * Home's, so one route (`ticket_move`) applies them wherever they are clicked.
 */
export function ticketMoveButtons(t: TicketSummary, unique = false): Button[] {
  // Several tickets in one view (Home): the ticket id keeps each action id unique there.
  return movesFor(t.state).map((m) =>
    button(m.label, `${ids.actions.ticketMove}:${m.id}${unique ? `:${t.id}` : ''}`, {
      value: t.id,
      ...(m.style ? { style: m.style } : {}),
      ...(m.confirm
        ? {
            confirm: confirmDialog({
              title: m.confirm.title,
              text: escaped(m.confirm.text),
              confirm: m.confirm.button,
              deny: 'Keep it',
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
export function ticketToolButtons(t: TicketSummary): ActionsBlockElement[] {
  return [
    ...(t.agentUrl || t.guestUrl
      ? [button('Join as agent', ids.actions.ticketJoin, { value: t.id, style: 'primary' })]
      : []),
    button('Refresh', ids.actions.ticketRefresh, { value: t.id }),
    {
      type: 'overflow',
      action_id: ids.actions.ticketMenu,
      options: ticketMenu.map((o) => ({
        text: plain(o.label, limits.optionText),
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
export function buildTicketCard(t: TicketSummary): MessagePayload {
  const known = [t.requestor.name, ...t.requestor.emails, ...t.requestor.phones].filter((x): x is string =>
    Boolean(x),
  );
  const requestor = known.length ? joinMd(known, '\n') : md`_unknown_`;
  const moves = ticketMoveButtons(t);
  const tools = ticketToolButtons(t);
  const blocks: Block[] = [
    { type: 'header', text: plain(`${stateIcon(t.state)} ${titleOf(t)}`, limits.headerText) },
    {
      type: 'section',
      fields: [
        field('State', md`${stateIcon(t.state)} ${t.state ?? 'unknown'}`),
        field('Requestor', requestor),
        field('Agent', t.agent ? clipPlain(t.agent.label, 200) : md`_unassigned_`),
        field('Group', t.group ? clipPlain(t.group.name ?? `group ${t.group.id}`, 200) : md`_none_`),
        field('Start', t.start ? date(t.start) : md`_not set_`),
        field('Duration', t.duration ? formatMinutes(t.duration) : md`_not set_`),
      ],
    },
    ...(moves.length ? [actions(moves, `ticket_moves_${t.id}`)] : []),
    actions(tools, `ticket_tools_${t.id}`),
    context(
      joinMd(
        [
          md`Ticket ${t.id}`,
          t.type ? clipPlain(t.type, 200) : undefined,
          t.modified ? md`updated ${date(t.modified, '{date_short_pretty} {time}')}` : undefined,
        ].filter((x) => x !== undefined),
        ' · ',
      ),
    ),
  ];
  return message(md`${clipPlain(titleOf(t), 300)}: ${t.state ?? 'unknown state'}`, blocks);
}

/** What a deleted ticket's card becomes: kept in the channel's history, without buttons. */
export function buildDeletedTicketCard(t: TicketSummary, byUserId: string): MessagePayload {
  return message(md`${clipPlain(titleOf(t), 300)}: deleted`, [
    section(md`~${clipMd(escaped(titleOf(t)), 2_900)}~\n:wastebasket: Deleted by ${mention(byUserId)}.`),
    context(md`Ticket ${t.id}`),
  ]);
}

/** A platform event as the thread and the timeline show it. */
export interface TicketEventLine {
  eventName: string;
  timestamp?: Date | undefined;
  source?: string | undefined;
}

/** One event's line: its time in each viewer's zone, its name and its source, all escaped. */
export const eventLine = (e: TicketEventLine): Mrkdwn =>
  md`${e.timestamp && !Number.isNaN(e.timestamp.getTime()) ? md`${date(e.timestamp, '{date_short_pretty} {time}')} · ` : empty}*${clipPlain(e.eventName, 500)}*${e.source ? md` · ${clipPlain(e.source, 500)}` : empty}`;

/** One line of a ticket's thread for a platform event, from the event's outbox payload. */
export function eventText(payload: Record<string, unknown>): MrkdwnText {
  return fallbackText(eventPayloadLine(payload));
}

/** The line of a platform event as the outbox keeps it (`{eventName, timestamp, source}`). */
export const eventPayloadLine = (payload: Record<string, unknown>): Mrkdwn =>
  eventLine({
    eventName: String(payload.eventName ?? 'event'),
    timestamp: typeof payload.timestamp === 'string' ? new Date(payload.timestamp) : undefined,
    source: typeof payload.source === 'string' ? payload.source : undefined,
  });

/**
 * The message a channel that asked for it (`broadcast`) gets when a ticket changes state, from the
 * facts the poller queued ({reference, from, to}). Items queued before those facts carry a ready
 * `text`, composed from platform values: it is shown escaped.
 */
export function buildStateBroadcast(
  ticketId: string,
  payload: Record<string, unknown>,
): { text: MrkdwnText } {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  if (payload.to === undefined && typeof payload.text === 'string')
    return { text: fallbackText(escaped(payload.text)) };
  const to = str(payload.to);
  return {
    text: fallbackText(
      md`${clipPlain(str(payload.reference) ?? `Ticket ${ticketId}`, 300)} is now *${to ?? 'unknown'}* (was ${str(payload.from) ?? 'unknown'}).`,
    ),
  };
}

/** A ticket's timeline for its thread: one line per event, time in each viewer's zone. */
export function buildTimeline(
  t: TicketSummary,
  events: { eventName: string; timestamp: Date; source?: string | undefined }[],
): MessagePayload {
  const title = md`Timeline of ${clipPlain(titleOf(t), 200)}`;
  if (events.length === 0) return message(title, [section(md`*${title}*\nNo events yet.`)]);
  const lines = events.map(eventLine);
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
    ...(sections.length > shown.length ? [context(md`Older events are not shown.`)] : []),
    ...shown.map((text) => section(text)),
  ];
  return message(title, blocks);
}

/** One page of `/ticket list`: a row per ticket with a Show button, and paging buttons. */
export function buildTicketList(
  queryText: string,
  offset: number,
  pageSize: number,
  page: { items: TicketSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const title = queryText ? md`Tickets: ${clipPlain(queryText, 100)}` : md`Your tickets`;
  const blocks: Block[] = [section(md`*${title}*`)];
  if (page.items.length === 0)
    blocks.push(section(offset ? md`No more tickets.` : md`No ticket found. Try \`/ticket list all\`.`));
  for (const t of page.items) {
    const details = joinMd(
      [
        t.state ?? 'unknown',
        t.agent ? clipPlain(t.agent.label, 200) : 'unassigned',
        ...(t.start ? [date(t.start)] : []),
      ],
      ' · ',
    );
    blocks.push(
      section(md`${stateIcon(t.state)} *${clipPlain(titleOf(t), 1_000)}*\n${details}`, {
        accessory: button('Show', `${ids.actions.ticketShow}:${t.id}`, { value: t.id }),
      }),
    );
  }
  if (page.items.length)
    blocks.push(
      context(
        md`${offset + 1}–${offset + page.items.length}${page.total !== undefined ? md` of ${page.total}` : empty}`,
      ),
    );
  const nav: Button[] = [];
  // The query rides in the button's value (2,000 characters, and JSON may write a character as six): a longer one is cut, not the JSON.
  const to = (o: number) => JSON.stringify({ q: queryText.slice(0, 300), offset: o });
  if (offset > 0)
    nav.push(
      button('‹ Previous', `${ids.actions.ticketPage}:prev`, { value: to(Math.max(0, offset - pageSize)) }),
    );
  if (page.hasMore)
    nav.push(button('Next ›', `${ids.actions.ticketPage}:next`, { value: to(offset + pageSize) }));
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return message(title, blocks);
}

/**
 * A ticket's media, privately: type, size, date, and a button that posts the file in the card's
 * thread (`place` says where the card is); with any media, a last button posts them all in one zip
 * file (the platform's archive of the ticket's media, `downloadTicketMedias`).
 */
export function buildTicketMediaList(
  t: TicketSummary,
  items: TicketMediaItem[],
  total: number | undefined,
  place: { channel?: string | undefined; ts?: string | undefined },
): MessagePayload {
  const title = md`Media of ${clipPlain(titleOf(t), 200)}`;
  const blocks: Block[] = [section(md`*${title}*`)];
  if (items.length === 0) blocks.push(context(md`No snapshot, document or recording yet.`));
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
            accessory: button('Post in the thread', `${ids.actions.ticketMediaPost}:${m.id}`, {
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
  if ((total ?? items.length) > shown) blocks.push(context(md`${shown} of ${total ?? items.length} shown`));
  if (all)
    blocks.push(
      actions([
        button('Post all in the thread (zip)', ids.actions.ticketMediaPostAll, {
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
export function buildTicketJoinReply(t: TicketSummary): MessagePayload {
  const title = md`Join ${clipPlain(titleOf(t), 200)}`;
  const links: Button[] = [
    ...(t.agentUrl
      ? [button('Join as agent', ids.actions.ticketJoinLink, { url: t.agentUrl, style: 'primary' })]
      : []),
    ...(t.guestUrl ? [button('Guest link', `${ids.actions.ticketJoinLink}:guest`, { url: t.guestUrl })] : []),
  ];
  if (links.length === 0)
    return message(md`No join link yet`, [
      section(md`The video platform has no join link for *${clipPlain(titleOf(t), 200)}* yet.`),
    ]);
  return message(title, [
    section(
      md`*${title}*\nThese links are for you alone: the guest link is the requestor's, to send them if they lost their invitation.`,
    ),
    { type: 'actions', elements: links },
  ]);
}
