/*
 * Conference reminders, decided: who is reminded of which conference, and when. Pure: the job
 * (jobs/reminder-job.ts) reads the conference list, finds the Slack people, and hands them here
 * with the clock.
 */

/** A person's own choice (App Home): off, or a lead time; absent, the conference's setting or 10 min. */
export interface ReminderPrefs {
  enabled: boolean;
  /** Minutes before the start; undefined: the conference's own reminder setting, else the default. */
  leadMinutes?: number | undefined;
}

/** The lead times App Home offers. */
export const leadChoices = [5, 10, 15, 30] as const;

/** The lead time when neither the person nor the conference chose one. */
export const defaultLeadMinutes = 10;

/** The conference's own reminder may say up to an hour (platform-api.md §4.1: 1 to 60 minutes). */
export const maxLeadMinutes = 60;

/** A conference as the reminders need it (read from a list item by the job). */
export interface ReminderConference {
  id: string;
  title: string;
  start: Date;
  /** The conference's own reminder setting, in minutes (absent: it has none, or the platform does not say). */
  reminderMinutes?: number | undefined;
  joinUrl?: string | undefined;
  /** The participants as the moderator entered them (e-mails, phone numbers). */
  participants: readonly string[];
}

/** Who a conference's people are in Slack: each participant's address → Slack id, and the moderator's. */
export interface ReminderPeople {
  /** Participant address (as entered) → Slack user id, for those who are members of the workspace. */
  members: ReadonlyMap<string, string>;
  /** The moderator's Slack user id, when they are a member. */
  moderator?: string | undefined;
}

/** One reminder to send: to whom, for which conference, when. */
export interface PlannedReminder {
  conferenceId: string;
  /** The Slack person reminded. */
  user: string;
  start: Date;
  /** When it is due (start − lead time). */
  dueAt: Date;
  leadMinutes: number;
  /** The moderator's reminder also says who was invited and who is not in the workspace. */
  moderator: boolean;
}

/** The outbox's key of a reminder: conference, person, start (a moved conference is another reminder). */
export const reminderKey = (r: Pick<PlannedReminder, 'conferenceId' | 'user' | 'start'>) => ({
  ticketId: `conference:${r.conferenceId}`,
  eventId: `reminder:${r.user}:${r.start.toISOString()}`,
});

/** The outbox's item ids of reminders start with this (their `ticketId`). */
export const reminderItemPrefix = 'conference:';

/** A conference's own reminder setting, read tolerantly: a whole number of minutes 1 to 60, else none. */
export function reminderMinutesOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= maxLeadMinutes ? n : undefined;
}

/** The lead time for one person: their choice, else the conference's setting, else the default; null: off. */
export function leadMinutesFor(
  prefs: ReminderPrefs | undefined,
  conference: ReminderConference,
): number | null {
  if (prefs && !prefs.enabled) return null;
  return prefs?.leadMinutes ?? conference.reminderMinutes ?? defaultLeadMinutes;
}

/**
 * Every reminder the conferences call for, due or not: each Slack member among the participants, and
 * the moderator, once each. A conference that has started gets none (the bot back from a long stop
 * does not remind of a meeting under way); nor does someone who turned reminders off.
 */
export function remindersOf(
  conferences: readonly ReminderConference[],
  peopleOf: (c: ReminderConference) => ReminderPeople,
  prefsOf: (user: string) => ReminderPrefs | undefined,
  now: Date,
): PlannedReminder[] {
  const out: PlannedReminder[] = [];
  for (const c of conferences) {
    if (Number.isNaN(c.start.getTime()) || c.start.getTime() <= now.getTime()) continue;
    const people = peopleOf(c);
    const users = new Set(people.members.values());
    if (people.moderator) users.add(people.moderator);
    for (const user of users) {
      const lead = leadMinutesFor(prefsOf(user), c);
      if (lead === null) continue;
      out.push({
        conferenceId: c.id,
        user,
        start: c.start,
        dueAt: new Date(c.start.getTime() - lead * 60_000),
        leadMinutes: lead,
        moderator: user === people.moderator,
      });
    }
  }
  return out;
}

/**
 * Of the reminders planned, those to write now: due before the next scan could write them (`aheadMs`
 * from now), each held until its time. One due already (the bot was stopped, or the conference was
 * planned at short notice) goes at once: the conference has not started.
 */
export function dueBy(reminders: readonly PlannedReminder[], now: Date, aheadMs: number): PlannedReminder[] {
  return reminders.filter((r) => r.dueAt.getTime() <= now.getTime() + aheadMs);
}

/** How long to hold a reminder written now: until it is due. */
export const holdOf = (r: PlannedReminder, now: Date): number =>
  Math.max(0, r.dueAt.getTime() - now.getTime());

/**
 * Which participants the moderator is told about: the Slack members (by mention) and the others by the
 * address the moderator entered. No address a Slack member has is shown (their mention says who they
 * are), and nobody but the moderator sees the addresses: they are what the moderator typed.
 */
export function inviteesOf(
  conference: ReminderConference,
  people: ReminderPeople,
): { members: string[]; outside: string[] } {
  const members: string[] = [];
  const outside: string[] = [];
  for (const address of conference.participants) {
    const user = people.members.get(address);
    if (user) {
      if (!members.includes(user)) members.push(user);
    } else if (!outside.includes(address)) outside.push(address);
  }
  return { members, outside };
}
