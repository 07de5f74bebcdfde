import type { HomeView } from '@slack/types';
import type { ConferenceSummary } from '../domain/conference.js';
import type { DayStatistics, Metric } from '../domain/digest.js';
import { type DigestSchedule, describeWeekdays } from '../domain/digest-schedule.js';
import { describeFilter } from '../domain/follow-filter.js';
import type { ReminderPrefs } from '../domain/reminders.js';
import type { TicketSummary } from '../domain/ticket.js';
import { stateIcon, ticketStates } from '../domain/ticket-workflow.js';
import { formatNumber } from '../i18n/format.js';
import type { Locale } from '../i18n/locale.js';

import { whenText } from './conference-card.js';
import { formatMetric, metricLabels } from './digest.js';
import { ids } from './ids.js';
import { actions, type Block, button, context, mrkdwn, plain, section } from './kit.js';
import { limits } from './limits.js';
import { channelLink, clipPlain, date, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';
import { buildReminderSettings } from './reminder.js';
import { type Phrase, sayIn, t, tPlain } from './text.js';
import { ticketMoveButtons, ticketTitle } from './ticket-card.js';

/** A list on Home: what was read (the first few, and whether there are more), or why it could not be. */
export type HomeList<T> = { items: T[]; more: boolean } | { failed: Mrkdwn | Phrase };

/** A subscription the person set up, in whichever channel. */
export interface HomeSubscription {
  id: string;
  channel: string;
  kind: 'watch' | 'follow' | 'reactions';
  ticketId: string | undefined;
  filter: Record<string, unknown>;
}

/** The admins' part: the enterprise's head counts, yesterday's figures, the doctor's verdict. */
export interface HomeAdmin {
  users?: number | undefined;
  groups?: number | undefined;
  yesterday?: { date: string; stats: DayStatistics | undefined } | undefined;
  /** `checking`: the first run is under way; undefined: no doctor in this process. */
  doctor?: 'checking' | { blocking: number; warnings: number; at: Date } | undefined;
  /** Ticket messages Slack refused for good (dead letters), waiting for their cause to be fixed. */
  deadLetters?: number | undefined;
}

/** A person's Home, as the Home service reads it (`services/home.ts`). */
export interface HomeData {
  /** Their platform account (absent: `noAccount` says how to get one). */
  account?:
    | { id: string; username?: string | undefined; role?: string | undefined; email: string }
    | undefined;
  noAccount?: Mrkdwn | Phrase | undefined;
  /** The admin who linked this person to their account by hand (absent: matched by Slack e-mail). */
  linkedBy?: string | undefined;
  /** The platform lists are being read (the first look): they show in a moment. */
  loading: boolean;
  conferences?: HomeList<ConferenceSummary> | undefined;
  tickets?: HomeList<TicketSummary> | undefined;
  subscriptions: readonly HomeSubscription[];
  digests: readonly DigestSchedule[];
  admin?: HomeAdmin | undefined;
  /** The buttons of the tools the person may open (People, Groups, Media library…), policy-checked. */
  tools?: readonly { label: Phrase; actionId: string }[] | undefined;
  /** Their conference reminders (absent: Home has no reminder settings); `prefs` absent: the default. */
  reminders?: { prefs: ReminderPrefs | undefined } | undefined;
}

/** What Home shows of each list at most (more is a command away), so Home stays within 100 blocks. */
export const homeLimits = { conferences: 10, tickets: 10, subscriptions: 10, digests: 5 } as const;

const overviewMetrics: readonly Metric[] = ['session_count', 'session_duration', 'user_count', 'disk_usage'];

const heading = (text: Mrkdwn): Block => section(md`*${text}*`);

/** The command that lists the dead letters, as it is typed. */
const outboxDead = md`\`npm run outbox -- dead\``;

/** A list's state when it has no items to show: loading, failed, or empty with what to type. */
function listNotice<T>(
  locale: Locale,
  list: HomeList<T> | undefined,
  loading: boolean,
  empty: Mrkdwn,
): Block | undefined {
  if (!list) return loading ? context(t(locale, 'home.loading')) : undefined;
  if ('failed' in list) return context(md`:warning: ${sayIn(locale, list.failed)}`);
  return list.items.length === 0 ? context(empty) : undefined;
}

function conferenceBlocks(
  locale: Locale,
  list: HomeList<ConferenceSummary> | undefined,
  loading: boolean,
): Block[] {
  const out: Block[] = [heading(t(locale, 'home.conferences.heading'))];
  const notice = listNotice(locale, list, loading, t(locale, 'home.conferences.empty'));
  if (notice) return [...out, notice];
  const { items, more } = list as { items: ConferenceSummary[]; more: boolean };
  const join = tPlain(locale, 'home.conferences.join');
  for (const c of items.slice(0, homeLimits.conferences))
    out.push(
      section(md`*${clipPlain(c.name, 200)}*\n${whenText(locale, c)}`, {
        // Home is the person's own: their link can be on it (cards in channels never carry it).
        accessory: c.joinUrl
          ? button(join, `${ids.actions.conferenceJoinLink}:${c.id}`, { url: c.joinUrl, style: 'primary' })
          : button(join, `${ids.actions.conferenceJoin}:${c.id}`, { value: c.id }),
      }),
    );
  if (more || items.length > homeLimits.conferences) out.push(context(t(locale, 'home.conferences.more')));
  return out;
}

/** A ticket's state as Home names it (the raw value for a state the catalog does not know). */
const stateText = (locale: Locale, state: string | undefined): Mrkdwn =>
  state === undefined
    ? t(locale, 'home.tickets.unknownState')
    : t(locale, 'home.tickets.state', {
        state: (ticketStates as readonly string[]).includes(state) ? state : 'other',
        raw: state,
      });

function ticketBlocks(locale: Locale, list: HomeList<TicketSummary> | undefined, loading: boolean): Block[] {
  const out: Block[] = [heading(t(locale, 'home.tickets.heading'))];
  const notice = listNotice(locale, list, loading, t(locale, 'home.tickets.empty'));
  if (notice) return [...out, notice];
  const { items, more } = list as { items: TicketSummary[]; more: boolean };
  for (const k of items.slice(0, homeLimits.tickets)) {
    const facts = joinMd(
      [
        stateText(locale, k.state),
        k.group
          ? md`${clipPlain(k.group.name ?? tPlain(locale, 'home.tickets.group', { id: k.group.id }), 100)}`
          : undefined,
        k.modified
          ? t(locale, 'home.tickets.updated', {
              when: date(locale, k.modified, '{date_short_pretty} {time}'),
            })
          : undefined,
      ].filter((x) => x !== undefined),
      ' · ',
    );
    out.push(section(md`${stateIcon(k.state)} *${clipPlain(ticketTitle(k), 200)}*\n${facts}`));
    const moves = ticketMoveButtons(locale, k, true);
    if (moves.length) out.push(actions(moves, `home_ticket_${k.id}`));
  }
  if (more || items.length > homeLimits.tickets) out.push(context(t(locale, 'home.tickets.more')));
  return out;
}

function setUpBlocks(
  locale: Locale,
  subs: readonly HomeSubscription[],
  digests: readonly DigestSchedule[],
): Block[] {
  if (!subs.length && !digests.length) return [];
  const out: Block[] = [heading(t(locale, 'home.setUp.heading'))];
  const remove = tPlain(locale, 'home.setUp.remove');
  for (const s of subs.slice(0, homeLimits.subscriptions)) {
    const channel = channelLink(s.channel);
    const filter = describeFilter(s.filter);
    out.push(
      section(
        s.kind === 'watch'
          ? typeof s.filter.reference === 'string'
            ? t(locale, 'home.setUp.watchReference', { channel, reference: s.filter.reference })
            : t(locale, 'home.setUp.watchTicket', { channel, id: s.ticketId ?? '?' })
          : s.kind === 'reactions'
            ? t(locale, 'home.setUp.reactions', { channel })
            : Object.keys(s.filter).some((k) => k !== 'groupId')
              ? t(locale, 'home.setUp.follow', { channel, filter })
              : t(locale, 'home.setUp.followAll', { channel }),
        { accessory: button(remove, `${ids.actions.homeSubscriptionRemove}:${s.id}`, { value: s.id }) },
      ),
    );
  }
  for (const d of digests.slice(0, homeLimits.digests))
    out.push(
      section(
        t(locale, 'home.setUp.digest', {
          channel: channelLink(d.channel),
          time: d.time,
          zone: d.zone,
          days: describeWeekdays(d.weekdays),
        }),
        {
          accessory: button(remove, `${ids.actions.homeDigestRemove}:${d.id}`, { value: d.id }),
        },
      ),
    );
  const hidden =
    Math.max(0, subs.length - homeLimits.subscriptions) + Math.max(0, digests.length - homeLimits.digests);
  if (hidden) out.push(context(t(locale, 'home.setUp.more', { count: formatNumber(locale, hidden) })));
  return out;
}

function adminBlocks(locale: Locale, a: HomeAdmin): Block[] {
  const stats = a.yesterday?.stats;
  const figures = overviewMetrics.flatMap((m) => {
    const v = stats?.[m];
    return typeof v === 'number' && Number.isFinite(v)
      ? [mrkdwn(md`*${metricLabels[m]}*\n${formatMetric(m, v)}`, limits.fieldText)]
      : [];
  });
  const count = (n: number | undefined) => (n === undefined ? '—' : formatNumber(locale, n));
  const at = (d: { at: Date }) => date(locale, d.at, '{date_short_pretty} {time}');
  const doctor =
    a.doctor === undefined
      ? undefined
      : a.doctor === 'checking'
        ? t(locale, 'home.admin.doctorChecking')
        : a.doctor.blocking
          ? t(locale, 'home.admin.doctorBlocking', {
              blocking: a.doctor.blocking,
              warnings: a.doctor.warnings,
              at: at(a.doctor),
            })
          : a.doctor.warnings
            ? t(locale, 'home.admin.doctorWarnings', { warnings: a.doctor.warnings, at: at(a.doctor) })
            : t(locale, 'home.admin.doctorFine', { at: at(a.doctor) });
  return [
    heading(t(locale, 'home.admin.heading')),
    {
      type: 'section',
      fields: [
        mrkdwn(t(locale, 'home.admin.users', { count: count(a.users) }), limits.fieldText),
        mrkdwn(t(locale, 'home.admin.groups', { count: count(a.groups) }), limits.fieldText),
        ...figures,
      ],
    },
    context(
      stats
        ? a.yesterday?.date
          ? t(locale, 'home.admin.figuresOf', { date: a.yesterday.date })
          : t(locale, 'home.admin.figuresOfYesterday')
        : t(locale, 'home.admin.noFigures'),
    ),
    ...(doctor ? [context(doctor)] : []),
    ...(a.deadLetters
      ? [
          section(t(locale, 'home.admin.deadLetters', { count: a.deadLetters, command: outboxDead }), {
            accessory: button(tPlain(locale, 'home.admin.requeue'), ids.actions.homeRequeueDead),
          }),
        ]
      : []),
  ];
}

/**
 * A person's App Home, in their language: their account, their upcoming conferences (Join), their
 * open tickets (the card's move buttons), what they set up (Remove), and for admins the enterprise at
 * a glance and the doctor's verdict. Each list shows its first few, so Home stays within Slack's 100
 * blocks however much there is; without an account, how to get one.
 */
export function buildHome(locale: Locale, data: HomeData): HomeView {
  const a = data.account;
  const blocks: Block[] = [
    { type: 'header', text: plain('confdesk', limits.headerText) },
    section(t(locale, 'home.intro')),
  ];
  if (!a) {
    blocks.push(section(sayIn(locale, data.noAccount ?? { key: 'home.noAccount' })));
  } else {
    blocks.push(
      context(
        t(locale, 'home.account', {
          name: clipPlain(a.username ?? a.email, 100),
          email: clipPlain(a.email, 100),
          hasRole: a.role ? 'yes' : 'no',
          role: clipPlain(a.role ?? '', 40),
          linked: data.linkedBy ? 'yes' : 'no',
          admin: data.linkedBy ? mention(data.linkedBy) : '',
        }),
      ),
      actions(
        [
          button(tPlain(locale, 'home.newConference'), ids.actions.conferenceNew, { style: 'primary' }),
          ...(data.tools ?? []).map((k) => button(tPlain(locale, k.label.key), k.actionId)),
        ].slice(0, 25),
        'home_tools',
      ),
      { type: 'divider' },
      ...conferenceBlocks(locale, data.conferences, data.loading),
      { type: 'divider' },
      ...ticketBlocks(locale, data.tickets, data.loading),
    );
  }
  if (data.reminders)
    blocks.push({ type: 'divider' }, ...buildReminderSettings(locale, data.reminders.prefs));
  const setUp = setUpBlocks(locale, data.subscriptions, data.digests);
  if (setUp.length) blocks.push({ type: 'divider' }, ...setUp);
  if (data.admin) blocks.push({ type: 'divider' }, ...adminBlocks(locale, data.admin));
  blocks.push(context(t(locale, 'home.footer')));
  return { type: 'home', blocks: blocks.slice(0, limits.viewBlocks) };
}
