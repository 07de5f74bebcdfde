import type { HomeView } from '@slack/types';
import type { ConferenceSummary } from '../domain/conference.js';
import type { DayStatistics, Metric } from '../domain/digest.js';
import { type DigestSchedule, describeWeekdays } from '../domain/digest-schedule.js';
import { describeFilter } from '../domain/follow-filter.js';
import type { ReminderPrefs } from '../domain/reminders.js';
import type { TicketSummary } from '../domain/ticket.js';
import { stateIcon } from '../domain/ticket-workflow.js';
import { whenText } from './conference-card.js';
import { formatMetric, metricLabels } from './digest.js';
import { ids } from './ids.js';
import { actions, type Block, button, context, mrkdwn, plain, section } from './kit.js';
import { limits } from './limits.js';
import { channelLink, clipPlain, date, escaped, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';
import { buildReminderSettings } from './reminder.js';
import { ticketMoveButtons, ticketTitle } from './ticket-card.js';

/** A list on Home: what was read (the first few, and whether there are more), or why it could not be. */
export type HomeList<T> = { items: T[]; more: boolean } | { failed: Mrkdwn };

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
  noAccount?: Mrkdwn | undefined;
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
  tools?: readonly { label: string; actionId: string }[] | undefined;
  /** Their conference reminders (absent: Home has no reminder settings); `prefs` absent: the default. */
  reminders?: { prefs: ReminderPrefs | undefined } | undefined;
}

/** What Home shows of each list at most (more is a command away), so Home stays within 100 blocks. */
export const homeLimits = { conferences: 10, tickets: 10, subscriptions: 10, digests: 5 } as const;

const overviewMetrics: readonly Metric[] = ['session_count', 'session_duration', 'user_count', 'disk_usage'];

const heading = (text: Mrkdwn): Block => section(md`*${text}*`);

/** A list's state when it has no items to show: loading, failed, or empty with what to type. */
function listNotice<T>(list: HomeList<T> | undefined, loading: boolean, empty: Mrkdwn): Block | undefined {
  if (!list) return loading ? context(md`:hourglass_flowing_sand: Loading…`) : undefined;
  if ('failed' in list) return context(md`:warning: ${list.failed}`);
  return list.items.length === 0 ? context(empty) : undefined;
}

function conferenceBlocks(list: HomeList<ConferenceSummary> | undefined, loading: boolean): Block[] {
  const out: Block[] = [heading(md`Your upcoming conferences`)];
  const notice = listNotice(list, loading, md`Nothing planned. \`/conference\` plans one.`);
  if (notice) return [...out, notice];
  const { items, more } = list as { items: ConferenceSummary[]; more: boolean };
  for (const c of items.slice(0, homeLimits.conferences))
    out.push(
      section(md`*${clipPlain(c.name, 200)}*\n${whenText('en', c)}`, {
        // Home is the person's own: their link can be on it (cards in channels never carry it).
        accessory: c.joinUrl
          ? button('Join', `${ids.actions.conferenceJoinLink}:${c.id}`, { url: c.joinUrl, style: 'primary' })
          : button('Join', `${ids.actions.conferenceJoin}:${c.id}`, { value: c.id }),
      }),
    );
  if (more || items.length > homeLimits.conferences) out.push(context(md`More in \`/conference list\`.`));
  return out;
}

function ticketBlocks(list: HomeList<TicketSummary> | undefined, loading: boolean): Block[] {
  const out: Block[] = [heading(md`Your open tickets`)];
  const notice = listNotice(list, loading, md`None open. \`/ticket\` opens one.`);
  if (notice) return [...out, notice];
  const { items, more } = list as { items: TicketSummary[]; more: boolean };
  for (const t of items.slice(0, homeLimits.tickets)) {
    const facts = joinMd(
      [
        md`${t.state ?? 'unknown state'}`,
        t.group ? md`${clipPlain(t.group.name ?? `group ${t.group.id}`, 100)}` : undefined,
        t.modified ? md`updated ${date(t.modified, '{date_short_pretty} {time}')}` : undefined,
      ].filter((x) => x !== undefined),
      ' · ',
    );
    out.push(section(md`${stateIcon(t.state)} *${clipPlain(ticketTitle(t), 200)}*\n${facts}`));
    const moves = ticketMoveButtons('en', t, true);
    if (moves.length) out.push(actions(moves, `home_ticket_${t.id}`));
  }
  if (more || items.length > homeLimits.tickets) out.push(context(md`More in \`/ticket list\`.`));
  return out;
}

function setUpBlocks(subs: readonly HomeSubscription[], digests: readonly DigestSchedule[]): Block[] {
  if (!subs.length && !digests.length) return [];
  const out: Block[] = [heading(md`What you set up`)];
  for (const s of subs.slice(0, homeLimits.subscriptions))
    out.push(
      section(
        s.kind === 'watch'
          ? md`👁 ${channelLink(s.channel)} watches ${typeof s.filter.reference === 'string' ? escaped(s.filter.reference) : md`ticket ${s.ticketId ?? '?'}`}`
          : s.kind === 'reactions'
            ? md`🎫 ${channelLink(s.channel)}: reactions act on tickets`
            : md`📡 ${channelLink(s.channel)} follows ${describeFilter(s.filter)}`,
        { accessory: button('Remove', `${ids.actions.homeSubscriptionRemove}:${s.id}`, { value: s.id }) },
      ),
    );
  for (const d of digests.slice(0, homeLimits.digests))
    out.push(
      section(
        md`📊 Daily digest in ${channelLink(d.channel)} at ${d.time} (${d.zone}), ${describeWeekdays(d.weekdays)}`,
        {
          accessory: button('Remove', `${ids.actions.homeDigestRemove}:${d.id}`, { value: d.id }),
        },
      ),
    );
  const hidden =
    Math.max(0, subs.length - homeLimits.subscriptions) + Math.max(0, digests.length - homeLimits.digests);
  if (hidden)
    out.push(
      context(
        md`And ${hidden} more: \`/ticket subscriptions\` and \`/conference digest list\` in each channel.`,
      ),
    );
  return out;
}

function adminBlocks(a: HomeAdmin): Block[] {
  const stats = a.yesterday?.stats;
  const figures = overviewMetrics.flatMap((m) => {
    const v = stats?.[m];
    return typeof v === 'number' && Number.isFinite(v)
      ? [mrkdwn(md`*${metricLabels[m]}*\n${formatMetric(m, v)}`, limits.fieldText)]
      : [];
  });
  const doctor =
    a.doctor === undefined
      ? undefined
      : a.doctor === 'checking'
        ? md`:hourglass_flowing_sand: The doctor is checking the set-up.`
        : a.doctor.blocking
          ? md`⛔ The doctor finds ${a.doctor.blocking} blocking problem(s) and ${a.doctor.warnings} warning(s) (${date(a.doctor.at, '{date_short_pretty} {time}')}).`
          : a.doctor.warnings
            ? md`⚠️ The doctor finds ${a.doctor.warnings} warning(s) (${date(a.doctor.at, '{date_short_pretty} {time}')}).`
            : md`✅ The doctor finds nothing wrong (${date(a.doctor.at, '{date_short_pretty} {time}')}).`;
  return [
    heading(md`Your enterprise`),
    {
      type: 'section',
      fields: [
        mrkdwn(md`*Users*\n${a.users ?? '—'}`, limits.fieldText),
        mrkdwn(md`*Groups*\n${a.groups ?? '—'}`, limits.fieldText),
        ...figures,
      ],
    },
    context(
      stats
        ? md`Figures of ${a.yesterday?.date ?? 'yesterday'} (UTC).`
        : md`Yesterday's figures are not available from the platform.`,
    ),
    ...(doctor ? [context(md`${doctor} \`/conference admin doctor\` gives the report.`)] : []),
    ...(a.deadLetters
      ? [
          section(
            md`⚠️ ${a.deadLetters} ticket message(s) Slack refused for good (\`npm run outbox -- dead\` lists them with the reason). Once the cause is fixed, give them another try.`,
            { accessory: button('Requeue all', ids.actions.homeRequeueDead) },
          ),
        ]
      : []),
  ];
}

/**
 * A person's App Home: their account, their upcoming conferences (Join), their open tickets (the
 * card's move buttons), what they set up (Remove), and for admins the enterprise at a glance and the
 * doctor's verdict. Each list shows its first few, so Home stays within Slack's 100 blocks however
 * much there is; without an account, how to get one.
 */
export function buildHome(data: HomeData): HomeView {
  const a = data.account;
  const blocks: Block[] = [
    { type: 'header', text: plain('confdesk', limits.headerText) },
    section(md`Plan video conferences and follow remote-assistance tickets without leaving Slack.`),
  ];
  if (!a) {
    blocks.push(section(data.noAccount ?? md`confdesk needs your video platform account to act for you.`));
  } else {
    blocks.push(
      context(
        md`You act on the video platform as *${clipPlain(a.username ?? a.email, 100)}* (${clipPlain(a.email, 100)})${a.role ? md` · role ${clipPlain(a.role, 40)}` : ''} · ${data.linkedBy ? md`linked by hand by ${mention(data.linkedBy)}` : 'found by your Slack e-mail'}.`,
      ),
      actions(
        [
          button('New conference', ids.actions.conferenceNew, { style: 'primary' }),
          ...(data.tools ?? []).map((t) => button(t.label, t.actionId)),
        ].slice(0, 25),
        'home_tools',
      ),
      { type: 'divider' },
      ...conferenceBlocks(data.conferences, data.loading),
      { type: 'divider' },
      ...ticketBlocks(data.tickets, data.loading),
    );
  }
  if (data.reminders) blocks.push({ type: 'divider' }, ...buildReminderSettings('en', data.reminders.prefs));
  const setUp = setUpBlocks(data.subscriptions, data.digests);
  if (setUp.length) blocks.push({ type: 'divider' }, ...setUp);
  if (data.admin) blocks.push({ type: 'divider' }, ...adminBlocks(data.admin));
  blocks.push(
    context(
      md`\`/conference help\` and \`/ticket help\` list every command. Times are read in your Slack time zone and shown in each viewer’s own.`,
    ),
  );
  return { type: 'home', blocks: blocks.slice(0, limits.viewBlocks) };
}
