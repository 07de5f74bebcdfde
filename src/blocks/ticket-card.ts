import { movesFor, stateIcon } from '../domain/ticket-workflow.js';
import { slackDate } from '../domain/time.js';
import { ids } from '../slack/ids.js';
import {
  type Block,
  button,
  context,
  escapeText,
  formatMinutes,
  humanSize,
  type Json,
  type MessagePayload,
  mrkdwn,
  plain,
} from './conference-card.js';
import { clip, limits } from './limits.js';

/** A ticket as its card shows it, mapped from the platform record (never from what the bot remembers). */
export interface TicketSummary {
  id: string;
  reference?: string | undefined;
  subject?: string | undefined;
  description?: string | undefined;
  state?: string | undefined;
  type?: string | undefined;
  requestor: { name?: string | undefined; emails: string[]; phones: string[] };
  agent?: { id?: string | undefined; label: string } | undefined;
  group?: { id: string; name?: string | undefined } | undefined;
  start?: Date | undefined;
  duration?: number | undefined;
  modified?: Date | undefined;
  agentUrl?: string | undefined;
  guestUrl?: string | undefined;
}

const titleOf = (t: TicketSummary) =>
  [t.reference ?? `Ticket ${t.id}`, t.subject].filter((x): x is string => Boolean(x)).join(' — ');

const field = (title: string, value: string) => mrkdwn(`*${title}*\n${value}`, limits.fieldText);

/** The card's menu (Slack shows at most 5 entries in an overflow). */
export const ticketMenu = [
  { value: 'timeline', label: 'Timeline in the thread' },
  { value: 'media', label: 'Media' },
  { value: 'export', label: 'Export' },
  { value: 'edit', label: 'Edit' },
  { value: 'delete', label: 'Delete' },
] as const;

/**
 * The live ticket card: one message per ticket, edited in place. Its buttons are the moves the
 * ticket's state allows (destructive ones ask first), the agent's join link, Refresh and a menu.
 */
export function buildTicketCard(t: TicketSummary): MessagePayload {
  const requestor =
    [t.requestor.name, ...t.requestor.emails, ...t.requestor.phones]
      .filter((x): x is string => Boolean(x))
      .map(escapeText)
      .join('\n') || '_unknown_';
  const moves: Json[] = movesFor(t.state).map((m) =>
    button(m.label, `${ids.actions.ticketMove}:${m.id}`, {
      value: t.id,
      ...(m.style ? { style: m.style } : {}),
      ...(m.confirm
        ? {
            confirm: {
              title: plain(m.confirm.title, limits.confirmTitle),
              text: mrkdwn(m.confirm.text, limits.confirmText),
              confirm: plain(m.confirm.button, limits.confirmButton),
              deny: plain('Keep it', limits.confirmButton),
              ...(m.style === 'danger' ? { style: 'danger' } : {}),
            },
          }
        : {}),
    }),
  );
  // Join links grant a role in the session: given on a click, privately, to those who may have them.
  const tools: Json[] = [
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
  const blocks: Block[] = [
    { type: 'header', text: plain(`${stateIcon(t.state)} ${titleOf(t)}`, limits.headerText) },
    {
      type: 'section',
      fields: [
        field('State', `${stateIcon(t.state)} ${escapeText(t.state ?? 'unknown')}`),
        field('Requestor', requestor),
        field('Agent', t.agent ? escapeText(clip(t.agent.label, 200)) : '_unassigned_'),
        field('Group', t.group ? escapeText(t.group.name ?? `group ${t.group.id}`) : '_none_'),
        field('Start', t.start ? slackDate(t.start) : '_not set_'),
        field('Duration', t.duration ? formatMinutes(t.duration) : '_not set_'),
      ],
    },
    ...(moves.length ? [{ type: 'actions', block_id: `ticket_moves_${t.id}`, elements: moves }] : []),
    { type: 'actions', block_id: `ticket_tools_${t.id}`, elements: tools },
    context(
      [
        `Ticket ${escapeText(t.id)}`,
        t.type ? escapeText(t.type) : undefined,
        t.modified ? `updated ${slackDate(t.modified, '{date_short_pretty} {time}')}` : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  ];
  return { text: `${titleOf(t)}: ${t.state ?? 'unknown state'}`, blocks };
}

/** What a deleted ticket's card becomes: kept in the channel's history, without buttons. */
export function buildDeletedTicketCard(t: TicketSummary, byUserId: string): MessagePayload {
  return {
    text: `${titleOf(t)}: deleted`,
    blocks: [
      {
        type: 'section',
        text: mrkdwn(`~${escapeText(titleOf(t))}~\n:wastebasket: Deleted by <@${byUserId}>.`),
      },
      context(`Ticket ${escapeText(t.id)}`),
    ],
  };
}

/** A ticket's timeline for its thread: one line per event, time in each viewer's zone. */
export function buildTimeline(
  t: TicketSummary,
  events: { eventName: string; timestamp: Date; source?: string | undefined }[],
): MessagePayload {
  const title = `Timeline of ${titleOf(t)}`;
  if (events.length === 0)
    return {
      text: title,
      blocks: [{ type: 'section', text: mrkdwn(`*${escapeText(title)}*\nNo events yet.`) }],
    };
  const lines = events.map(
    (e) =>
      `${slackDate(e.timestamp, '{date_short_pretty} {time}')} · *${escapeText(e.eventName)}*${e.source ? ` · ${escapeText(e.source)}` : ''}`,
  );
  const sections: string[] = [];
  let current = '';
  for (const line of lines) {
    if (current && current.length + line.length + 1 > limits.sectionText) {
      sections.push(current);
      current = line;
    } else current = current ? `${current}\n${line}` : line;
  }
  sections.push(current);
  // The newest events matter most: when they do not all fit, the oldest are left out.
  const shown = sections.slice(-(limits.messageBlocks - 2));
  const blocks: Block[] = [
    { type: 'section', text: mrkdwn(`*${escapeText(clip(title, 200))}*`) },
    ...(sections.length > shown.length ? [context('Older events are not shown.')] : []),
    ...shown.map((text) => ({ type: 'section', text: mrkdwn(text) })),
  ];
  return { text: title, blocks };
}

/** One page of `/ticket list`: a row per ticket with a Show button, and paging buttons. */
export function buildTicketList(
  queryText: string,
  offset: number,
  pageSize: number,
  page: { items: TicketSummary[]; total?: number | undefined; hasMore: boolean },
): MessagePayload {
  const title = queryText ? `Tickets: ${clip(queryText, 100)}` : 'Your tickets';
  const blocks: Block[] = [{ type: 'section', text: mrkdwn(`*${escapeText(title)}*`) }];
  if (page.items.length === 0)
    blocks.push({
      type: 'section',
      text: mrkdwn(offset ? 'No more tickets.' : 'No ticket found. Try `/ticket list all`.'),
    });
  for (const t of page.items) {
    const line = [
      `${stateIcon(t.state)} *${escapeText(titleOf(t))}*`,
      [
        escapeText(t.state ?? 'unknown'),
        t.agent ? escapeText(t.agent.label) : 'unassigned',
        t.start ? slackDate(t.start) : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    ].join('\n');
    blocks.push({
      type: 'section',
      text: mrkdwn(line),
      accessory: button('Show', `${ids.actions.ticketShow}:${t.id}`, { value: t.id }),
    });
  }
  if (page.items.length)
    blocks.push(
      context(
        `${offset + 1}–${offset + page.items.length}${page.total !== undefined ? ` of ${page.total}` : ''}`,
      ),
    );
  const nav: Json[] = [];
  const to = (o: number) => JSON.stringify({ q: queryText, offset: o }).slice(0, limits.buttonValue);
  if (offset > 0)
    nav.push(
      button('‹ Previous', `${ids.actions.ticketPage}:prev`, { value: to(Math.max(0, offset - pageSize)) }),
    );
  if (page.hasMore)
    nav.push(button('Next ›', `${ids.actions.ticketPage}:next`, { value: to(offset + pageSize) }));
  if (nav.length) blocks.push({ type: 'actions', elements: nav });
  return { text: title, blocks };
}

/** A media item as the ticket's media list shows it. */
export interface TicketMediaItem {
  id: string;
  type?: string | undefined;
  title?: string | undefined;
  filename?: string | undefined;
  size?: number | undefined;
  created?: Date | undefined;
}

/**
 * A ticket's media, privately: type, size, date, and a button that posts the file in the card's
 * thread (`place` says where the card is).
 */
export function buildTicketMediaList(
  t: TicketSummary,
  items: TicketMediaItem[],
  total: number | undefined,
  place: { channel?: string | undefined; ts?: string | undefined },
): MessagePayload {
  const title = `Media of ${titleOf(t)}`;
  const blocks: Block[] = [{ type: 'section', text: mrkdwn(`*${escapeText(clip(title, 200))}*`) }];
  if (items.length === 0) blocks.push(context('No snapshot, document or recording yet.'));
  for (const m of items.slice(0, limits.messageBlocks - 2)) {
    const bits = [
      m.type,
      m.size ? humanSize(m.size) : undefined,
      m.created ? slackDate(m.created, '{date_short_pretty} {time}') : undefined,
    ];
    blocks.push({
      type: 'section',
      text: mrkdwn(
        `*${escapeText(m.title || m.filename || `Media ${m.id}`)}*\n${bits.filter(Boolean).join(' · ')}`,
      ),
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
  const shown = Math.min(items.length, limits.messageBlocks - 2);
  if ((total ?? items.length) > shown) blocks.push(context(`${shown} of ${total ?? items.length} shown`));
  return { text: title, blocks };
}

/** The answer to "Join as agent", privately: the agent's link, and the guest's to pass on to the requestor. */
export function buildTicketJoinReply(t: TicketSummary): MessagePayload {
  const title = `Join ${titleOf(t)}`;
  const links: Json[] = [
    ...(t.agentUrl
      ? [button('Join as agent', ids.actions.ticketJoinLink, { url: t.agentUrl, style: 'primary' })]
      : []),
    ...(t.guestUrl ? [button('Guest link', `${ids.actions.ticketJoinLink}:guest`, { url: t.guestUrl })] : []),
  ];
  if (links.length === 0)
    return {
      text: 'No join link yet',
      blocks: [
        {
          type: 'section',
          text: mrkdwn(`The video platform has no join link for *${escapeText(clip(title, 200))}* yet.`),
        },
      ],
    };
  return {
    text: escapeText(clip(title, 200)),
    blocks: [
      {
        type: 'section',
        text: mrkdwn(
          `*${escapeText(clip(title, 200))}*\nThese links are for you alone: the guest link is the requestor's, to send them if they lost their invitation.`,
        ),
      },
      { type: 'actions', elements: links },
    ],
  };
}
