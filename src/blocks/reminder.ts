import type { KnownBlock } from '@slack/types';
import { leadChoices, type ReminderPrefs } from '../domain/reminders.js';
import type { Locale } from '../i18n/locale.js';
import { dateToken } from './conference-card.js';
import { ids } from './ids.js';
import { actions, button, context, type MessagePayload, message, section } from './kit.js';
import { limits } from './limits.js';
import { clipPlain, escaped, joinMd, type Mrkdwn, mention } from './mrkdwn.js';
import { t, tPlain } from './text.js';

/** A conference reminder as the person's DM shows it (the outbox item's payload, read back). */
export interface ReminderView {
  title: string;
  start: Date;
  leadMinutes: number;
  /** The conference's join link (outside input: a Join button only when `joinButtonUrl` takes it). */
  joinUrl?: string | undefined;
  /** Only in the moderator's reminder: who was invited (Slack people) and who is not in the workspace. */
  invited?: { members: readonly string[]; outside: readonly string[] } | undefined;
}

/** How many invitees the moderator's reminder names of each kind (the rest are counted). */
export const inviteesShown = 20;

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A join link the Join button may carry: a platform URL is outside input, so only an https link
 * (http only on loopback, the simulator's) within Slack's URL limit; anything else gets no button.
 */
export function joinButtonUrl(url: string | undefined): string | undefined {
  if (!url || url.length > limits.url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password) return undefined;
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback.has(parsed.hostname)))
    return parsed.href;
  return undefined;
}

const people = (locale: Locale, list: readonly string[], show: (x: string) => Mrkdwn) => {
  const shown = list.slice(0, inviteesShown).map(show);
  const more = list.length - shown.length;
  return more > 0
    ? t(locale, 'conference.card.more', { list: joinMd(shown, ', '), more })
    : joinMd(shown, ', ');
};

/**
 * The reminder in a participant's direct messages: the title (the platform's text, escaped), the
 * start as a date token (each reader sees their own zone), and a Join button with the conference's
 * link. The moderator's also names who was invited: Slack people by mention, the others by the
 * address the moderator entered (they typed it; nobody else's reminder shows an address).
 */
export function buildReminder(locale: Locale, v: ReminderView): MessagePayload {
  const title = clipPlain(v.title, 200);
  const when = dateToken(locale, v.start);
  // No "in N minutes": a reminder Slack's pace held back must not say a time that has passed.
  const blocks: KnownBlock[] = [section(t(locale, 'reminder.starts', { title, when }))];
  if (v.invited) {
    const { members, outside } = v.invited;
    const lines = [
      members.length
        ? t(locale, 'reminder.invited', { people: people(locale, members, mention) })
        : t(locale, 'reminder.invitedNobody'),
      ...(outside.length
        ? [
            t(locale, 'reminder.outside', {
              people: people(locale, outside, (a) => escaped(clipPlain(a, 100))),
            }),
          ]
        : []),
    ];
    blocks.push(section(joinMd(lines, '\n')), context(t(locale, 'reminder.moderator')));
  }
  const url = joinButtonUrl(v.joinUrl);
  if (url)
    blocks.push(
      actions(
        [button(tPlain(locale, 'reminder.join'), ids.actions.reminderJoin, { style: 'primary', url })],
        'reminder',
      ),
    );
  else blocks.push(context(t(locale, 'reminder.noLink')));
  return message(t(locale, 'reminder.fallback', { title, when }), blocks);
}

/** What a choice on App Home is called, and its button's value. */
const choicesIn = (locale: Locale): readonly { value: string; label: string }[] => [
  { value: 'off', label: tPlain(locale, 'reminder.choice.off') },
  ...leadChoices.map((m) => ({
    value: String(m),
    label: tPlain(locale, 'reminder.choice.minutes', { minutes: m }),
  })),
  { value: 'default', label: tPlain(locale, 'reminder.choice.default') },
];

/** The value of the App Home button for `prefs` (absent: the default). */
export const reminderChoiceOf = (prefs: ReminderPrefs | undefined): string =>
  !prefs
    ? 'default'
    : !prefs.enabled
      ? 'off'
      : prefs.leadMinutes === undefined
        ? 'default'
        : String(prefs.leadMinutes);

/** App Home's reminder settings: what the person gets now, and a button per choice (theirs highlighted). */
export function buildReminderSettings(locale: Locale, prefs: ReminderPrefs | undefined): KnownBlock[] {
  const chosen = reminderChoiceOf(prefs);
  const now =
    chosen === 'off'
      ? t(locale, 'reminder.settings.off')
      : chosen === 'default'
        ? t(locale, 'reminder.settings.default')
        : t(locale, 'reminder.settings.lead', { minutes: Number(chosen) });
  return [
    section(t(locale, 'reminder.settings', { now })),
    actions(
      choicesIn(locale).map((c) =>
        // Action ids are unique within a view: the choice rides in the id too (the router reads the part before `:`).
        button(c.label, `${ids.actions.reminderLead}:${c.value}`, {
          value: c.value,
          ...(c.value === chosen ? { style: 'primary' as const } : {}),
        }),
      ),
      'home_reminders',
    ),
  ];
}
