import { summarize } from '../domain/conference.js';
import {
  dueBy,
  holdOf,
  inviteesOf,
  maxLeadMinutes,
  type PlannedReminder,
  type ReminderConference,
  type ReminderPeople,
  reminderKey,
  reminderMinutesOf,
  remindersOf,
} from '../domain/reminders.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import { type DirectMessages, SlackBusyError } from '../outbound/direct-messages.js';
import type { PlatformClient } from '../platform/client.js';
import { conferenceJoinLink } from '../platform/join-links.js';
import type { ConferenceRecord } from '../platform/schemas.js';
import type { Directory } from '../services/directory.js';
import type { NewOutboxItem, OutboxRepository, ReminderRepository } from '../store/store.js';

/** Conferences read per page: one request covers the look-ahead of a busy enterprise (the client learns a lower cap). */
export const reminderPageSize = 500;

export interface ReminderJobOptions {
  platform: Pick<PlatformClient, 'paginate' | 'findings'>;
  store: Pick<OutboxRepository, 'advance'> &
    Pick<ReminderRepository, 'allReminderPrefs' | 'linkedPeople' | 'waitingReminders' | 'dropReminders'>;
  /** Who is a Slack member by e-mail, and each one's DM channel (Slack calls, kept). */
  slack: Pick<DirectMessages, 'memberByEmail' | 'channelOf'>;
  /**
   * The enterprise's people in memory: a moderator's or a linked account's e-mail without a request
   * per person. Loaded (backfill lane) the first time a moderator can be found no other way; its own
   * job keeps it fresh from then on (a few requests every 15 minutes).
   */
  directory?: Pick<Directory, 'user' | 'snapshot' | 'within'> | undefined;
  logger: Logger;
  /**
   * Each recipient's language (their cached Slack profile's: no platform request); unset or failing:
   * English. Written into the reminder's outbox item, which delivery renders.
   */
  localeOf?: ((user: string) => Promise<Locale>) | undefined;
  /** Until the next scan (the reminders due before it are written now, held until their time). */
  scanEveryMs: () => number;
  now?: () => Date;
}

/** What one scan did. */
export interface ReminderScan {
  /** Conferences in the look-ahead (not started, starting within the longest lead time and the next scan). */
  conferences: number;
  /** Reminders written to the outbox by this scan (held until their time). */
  written: number;
  /** Reminders taken back (a conference deleted or moved, a person who turned them off). */
  dropped: number;
  /** The next scan should come sooner (Slack asked to slow down: people left unmatched this time). */
  retryInMs?: number | undefined;
}

/**
 * A conference that started less than this ago keeps the reminders delivery has not posted yet (they
 * wait for Slack's pace); one that started longer ago (the bot was stopped) gets none.
 */
export const startedGraceMs = 2 * 60_000;

/** A scan writes what is due until the next scan and this margin (a scan that runs late misses none). */
const marginMs = 60_000;

/** How long a scan waits for the directory's first load (it goes on loading; the next scan has it). */
const directoryWaitMs = 30_000;

const isEmail = (s: string) => /^[^\s@]+@[^\s@]+$/.test(s);

/** A list item as the reminders need it; one without a start cannot be reminded of. */
function conferenceOf(
  r: ConferenceRecord,
  platform: ReminderJobOptions['platform'],
): ReminderConference | undefined {
  const s = summarize(r, conferenceJoinLink(r, platform.findings));
  if (!s.start) return undefined;
  return {
    id: s.id,
    title: s.name,
    start: s.start,
    reminderMinutes: reminderMinutesOf((r as Record<string, unknown>).reminder),
    joinUrl: s.joinUrl,
    participants: s.participants,
  };
}

/** The moderator as the list item names them: their platform id and whatever e-mail it shows. */
function moderatorOf(r: ConferenceRecord): { id: string | undefined; emails: string[] } {
  const m = r.moderator;
  if (m === undefined || m === null) return { id: undefined, emails: [] };
  if (typeof m !== 'object') return { id: String(m), emails: [] };
  const o = m as Record<string, unknown>;
  const emails = [o.email, o.username].filter((x): x is string => typeof x === 'string' && isEmail(x));
  return { id: o.id === undefined ? undefined : String(o.id), emails };
}

/**
 * Conference reminders: each scan reads the conference list ONCE (every conference starting within
 * the longest lead time and the next scan: one request, in the background lane), matches each
 * participant with a Slack member by e-mail or identity link (Slack calls, kept, never a platform
 * request per person), and writes to the outbox the reminders due before the next scan, each held
 * until its time and keyed by conference, person and start: delivery posts each once, across
 * restarts and replicas. Reminders written and not yet taken whose conference is gone from the list
 * (deleted, moved, started) or whose person turned them off are taken back.
 */
export class ReminderJob {
  private readonly now: () => Date;

  constructor(private readonly o: ReminderJobOptions) {
    this.now = o.now ?? (() => new Date());
  }

  async runOnce(): Promise<ReminderScan> {
    const { o } = this;
    const now = this.now();
    const aheadMs = o.scanEveryMs() + marginMs;
    const until = new Date(now.getTime() + maxLeadMinutes * 60_000 + aheadMs);
    const records: ConferenceRecord[] = [];
    // From a little before now: a conference that started in the last `startedGraceMs` keeps the
    // reminder delivery has not posted yet (Slack's pace), rather than pass for one deleted.
    const since = new Date(now.getTime() - startedGraceMs);
    for await (const r of o.platform.paginate(
      'listConferences',
      { moderator: 'all', since, until, scopes: ['participant'], order: 'asc' },
      { pageSize: reminderPageSize },
    ))
      records.push(r);
    const conferences: { c: ReminderConference; people: ReminderPeople }[] = [];
    /** The conferences that started within the grace: their waiting reminders stay, no new one is written. */
    const justStarted = new Set<string>();
    const [prefs, links] = await Promise.all([o.store.allReminderPrefs(), o.store.linkedPeople()]);
    // The directory knows the e-mails of linked accounts and of moderators the list names by id only:
    // loaded the first time one is needed (its own job keeps it fresh), never a request per person.
    const { directory } = o;
    const needed = (r: ConferenceRecord) => {
      const m = moderatorOf(r);
      return m.id !== undefined && !m.emails.length && !links.has(m.id);
    };
    if (directory && !directory.snapshot() && records.length && (links.size || records.some(needed)))
      await directory.within(directoryWaitMs);
    let retryInMs: number | undefined;
    try {
      for (const r of records) {
        const c = conferenceOf(r, o.platform);
        if (!c) continue;
        if (c.start.getTime() <= now.getTime()) {
          justStarted.add(`conference:${c.id} ${c.start.toISOString()}`);
          continue;
        }
        conferences.push({ c, people: await this.peopleOf(r, c, links) });
      }
    } catch (error) {
      if (!(error instanceof SlackBusyError)) throw error;
      // Those matched so far are reminded; the others at the next scan, once Slack allows it.
      retryInMs = error.retryAfterMs;
    }
    const byId = new Map(conferences.map((x) => [x.c.id, x]));
    const planned = remindersOf(
      conferences.map((x) => x.c),
      (c) => (byId.get(c.id) as { people: ReminderPeople }).people,
      (user) => prefs.get(user),
      now,
    );
    const items: NewOutboxItem[] = [];
    try {
      for (const r of dueBy(planned, now, aheadMs)) {
        const found = byId.get(r.conferenceId) as (typeof conferences)[number];
        items.push(await this.itemOf(r, found.c, found.people, now));
      }
    } catch (error) {
      if (!(error instanceof SlackBusyError)) throw error;
      retryInMs = error.retryAfterMs;
    }
    const written = items.length ? await o.store.advance(items) : 0;
    // Taken back: waiting reminders no longer called for. Only when every conference was matched:
    // a person left unmatched (Slack busy) is not a person who left.
    let dropped = 0;
    if (retryInMs === undefined) {
      const wanted = new Set(planned.map((r) => keyText(reminderKey(r))));
      const started = (i: { ticketId: string; eventId: string }) =>
        justStarted.has(`${i.ticketId} ${i.eventId.split(':').slice(2).join(':')}`);
      const stale = (await o.store.waitingReminders()).filter((i) => !wanted.has(keyText(i)) && !started(i));
      if (stale.length) dropped = await o.store.dropReminders(stale);
    }
    if (written || dropped)
      o.logger.info(
        { job: 'reminders', conferences: conferences.length, written, dropped },
        'conference reminders written',
      );
    return { conferences: conferences.length, written, dropped, retryInMs };
  }

  /** The Slack members among the conference's participants, and its moderator if they are one. */
  private async peopleOf(
    r: ConferenceRecord,
    c: ReminderConference,
    links: ReadonlyMap<string, string>,
  ): Promise<ReminderPeople> {
    const { slack, directory } = this.o;
    const members = new Map<string, string>();
    // An identity link: the account's e-mail (the directory knows it) is a participant's.
    const linkedByEmail = new Map<string, string>();
    if (directory)
      for (const [account, user] of links) {
        const email = directory.user(account)?.email?.toLowerCase();
        if (email) linkedByEmail.set(email, user);
      }
    for (const address of c.participants) {
      const linked = linkedByEmail.get(address.toLowerCase());
      const user = linked ?? (isEmail(address) ? await slack.memberByEmail(address) : undefined);
      if (user) members.set(address, user);
    }
    const m = moderatorOf(r);
    let moderator = m.id ? links.get(m.id) : undefined;
    const emails = [...m.emails, ...(m.id && directory ? [directory.user(m.id)?.email] : [])].filter(
      (e): e is string => !!e && isEmail(e),
    );
    for (const email of emails) {
      if (moderator) break;
      moderator = await slack.memberByEmail(email);
    }
    return { members, moderator };
  }

  /** A reminder's outbox item: the person's DM, held until it is due, with everything its message shows. */
  private async itemOf(
    r: PlannedReminder,
    c: ReminderConference,
    people: ReminderPeople,
    now: Date,
  ): Promise<NewOutboxItem> {
    const locale = await (this.o.localeOf?.(r.user) ?? Promise.resolve<Locale>('en')).catch(
      (): Locale => 'en',
    );
    return {
      ...reminderKey(r),
      channel: await this.o.slack.channelOf(r.user),
      eventAt: r.dueAt.toISOString(),
      holdMs: holdOf(r, now),
      payload: {
        reminder: true,
        title: c.title,
        start: c.start.toISOString(),
        leadMinutes: r.leadMinutes,
        ...(c.joinUrl ? { joinUrl: c.joinUrl } : {}),
        ...(r.moderator ? { invited: inviteesOf(c, people) } : {}),
        ...(locale !== 'en' ? { locale } : {}),
      },
    };
  }
}

const keyText = (k: { ticketId: string; eventId: string }) => `${k.ticketId} ${k.eventId}`;
