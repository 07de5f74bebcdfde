import { type HomeAdmin, type HomeData, type HomeList, homeLimits } from '../blocks/home.js';
import { ids } from '../blocks/ids.js';
import type { Mrkdwn } from '../blocks/mrkdwn.js';
import { type Phrase, phrase } from '../blocks/text.js';
import type { ConferenceSummary } from '../domain/conference.js';
import type { DoctorReport } from '../domain/doctor-report.js';
import type { Action } from '../domain/policy.js';
import type { TicketSummary } from '../domain/ticket.js';
import { isActiveState } from '../domain/ticket-workflow.js';
import { PlatformError } from '../platform/errors.js';
import { runInLane } from '../platform/lane.js';
import type {
  DigestRepository,
  OutboxRepository,
  ReminderRepository,
  SubscriptionRepository,
  UserLinkRepository,
} from '../store/store.js';
import type { AccessService } from './access.js';
import type { ConferenceService } from './conferences.js';
import type { DigestService } from './digest.js';
import { ConfdeskError } from './errors.js';
import type { TicketService } from './tickets.js';

/** How long a person's platform data on Home is reused: opening Home twice in a minute reads once. */
export const homeTtlMs = 60_000;
/** The admin overview and the doctor's verdict change slowly and cost more: kept longer. */
export const overviewTtlMs = 15 * 60_000;

export interface HomeServiceOptions {
  access: AccessService;
  tickets: Pick<TicketService, 'openOf'>;
  conferences: Pick<ConferenceService, 'list'>;
  digests: Pick<DigestService, 'day'>;
  store: Pick<SubscriptionRepository, 'subscriptionsBy'> &
    Pick<DigestRepository, 'digestSchedules'> &
    Pick<UserLinkRepository, 'userLink'> &
    Pick<OutboxRepository, 'deadLetterCount'>;
  /** The enterprise's head counts (users, groups), for the admins' overview. */
  counts: () => Promise<{ users?: number | undefined; groups?: number | undefined }>;
  /** Each person's reminder choice (absent: Home shows no reminder settings). */
  reminders?: Pick<ReminderRepository, 'reminderPrefs'> | undefined;
  /** The doctor (absent: no verdict on Home). */
  doctor?: (() => Promise<DoctorReport>) | undefined;
  now: () => Date;
}

interface Kept<T> {
  at: number;
  value: T;
}

/** The tools Home offers, each to those the policy lets open it. */
const homeTools: readonly { label: Phrase; actionId: string; action: Action }[] = [
  { label: phrase('home.tool.media'), actionId: ids.actions.mediaOpen, action: 'media.list' },
  { label: phrase('home.tool.people'), actionId: ids.actions.peopleOpen, action: 'people.list' },
  { label: phrase('home.tool.groups'), actionId: ids.actions.groupsOpen, action: 'groups.list' },
  {
    label: phrase('home.tool.passwordReset'),
    actionId: ids.actions.passwordResetOwn,
    action: 'password.reset-own',
  },
];

/** Why a Home list is missing, in a sentence written in the reader's language (the rest of Home still shows). */
const unreadable = (error: unknown): Mrkdwn | Phrase =>
  error instanceof ConfdeskError
    ? error.said
    : error instanceof PlatformError
      ? phrase('home.unreadable.platform', { reason: error.userMessage })
      : phrase('home.unreadable.other');

/**
 * What each person's App Home shows, read within the budget: every platform read runs in the
 * background lane (a person's command never waits behind a Home), a person's lists are kept a
 * minute, the admins' overview and the doctor's verdict fifteen. What the store holds (their
 * subscriptions and digests) is read afresh each time. The service also remembers whose Home shows
 * which ticket, so a ticket's change (a click anywhere, a webhook, a scan) updates those Homes from
 * the change itself, with no platform read (`ticketChanged`).
 */
export class HomeService {
  private readonly lists = new Map<
    string,
    Kept<{ conferences: HomeList<ConferenceSummary>; tickets: HomeList<TicketSummary> }>
  >();
  private overview: Kept<Omit<HomeAdmin, 'doctor'>> | undefined;
  private doctorReport: Kept<DoctorReport> | undefined;
  private doctorRun: Promise<void> | undefined;
  /** Who each kept Home belongs to on the platform (to know whom a conference concerns). */
  private readonly accounts = new Map<string, { id: string; email: string }>();
  /** ticket id → the people whose kept Home lists it. */
  private readonly viewers = new Map<string, Set<string>>();

  constructor(private readonly o: HomeServiceOptions) {}

  /**
   * The person's Home as far as it is known without waiting (`cachedOnly`), or read now (in the
   * background lane). A list that could not be read says so, and the rest still shows.
   */
  async data(slackId: string, cachedOnly = false): Promise<HomeData> {
    return runInLane('background', async () => {
      const asker = await this.o.access.asker(slackId);
      const base = {
        subscriptions: await this.o.store.subscriptionsBy(slackId),
        digests: (await this.o.store.digestSchedules()).filter((d) => d.createdBy === slackId),
        ...(this.o.reminders ? { reminders: { prefs: await this.o.reminders.reminderPrefs(slackId) } } : {}),
      };
      if (!asker.account)
        return {
          ...base,
          loading: false,
          noAccount: asker.noAccount?.said ?? phrase('home.noAccount'),
        };
      const admin = this.o.access.may(asker, 'admin.doctor');
      const now = this.o.now().getTime();
      let lists = this.lists.get(slackId);
      if (!cachedOnly && (!lists || now - lists.at >= homeTtlMs)) {
        lists = { at: now, value: await this.readLists(slackId) };
        this.keepLists(slackId, lists);
        this.accounts.set(slackId, { id: asker.account.id, email: asker.account.email.toLowerCase() });
      }
      let adminPart: HomeAdmin | undefined;
      if (admin) {
        if (!cachedOnly && (!this.overview || now - this.overview.at >= overviewTtlMs))
          this.overview = { at: now, value: await this.readOverview() };
        adminPart = {
          ...(this.overview?.value ?? {}),
          doctor: this.verdict(now, cachedOnly),
          deadLetters: await this.o.store.deadLetterCount(),
        };
      }
      return {
        ...base,
        loading: lists === undefined,
        account: asker.account,
        linkedBy: (await this.o.store.userLink(slackId))?.linkedBy,
        tools: homeTools
          .filter((t) => this.o.access.may(asker, t.action))
          .map(({ label, actionId }) => ({ label, actionId })),
        ...(lists ? lists.value : {}),
        ...(adminPart ? { admin: adminPart } : {}),
      };
    });
  }

  /** Whether a kept Home lists this ticket. */
  showing(ticketId: string): boolean {
    return (this.viewers.get(ticketId)?.size ?? 0) > 0;
  }

  /** A person's Home lists are read again at the next look (they changed something there). */
  forget(slackId: string): void {
    this.lists.delete(slackId);
  }

  /**
   * A ticket changed: the people whose kept Home lists it get the new version in place (or lose it
   * when it no longer needs anyone). Answers whose Home to publish again. No platform read.
   */
  ticketChanged(ticket: TicketSummary): string[] {
    const who = [...(this.viewers.get(ticket.id) ?? [])];
    for (const slackId of who) {
      const kept = this.lists.get(slackId);
      const list = kept?.value.tickets;
      if (!kept || !list || !('items' in list)) continue;
      const items = list.items.flatMap((t) =>
        t.id !== ticket.id ? [t] : isActiveState(ticket.state) ? [ticket] : [],
      );
      kept.value = { ...kept.value, tickets: { ...list, items } };
    }
    return who;
  }

  /**
   * A conference was created, edited or deleted from Slack: the people it concerns (its moderator,
   * its participants, or whose Home lists it) whose Home was read in the last 15 minutes get their
   * lists read again at their next publish. Answers whose Home to publish again.
   */
  conferenceChanged(c: {
    id: string;
    participants: readonly string[];
    moderatorId?: string | undefined;
  }): string[] {
    const now = this.o.now().getTime();
    const emails = new Set(c.participants.map((p) => p.toLowerCase()));
    const who: string[] = [];
    for (const [slackId, kept] of this.lists) {
      const account = this.accounts.get(slackId);
      const listed =
        'items' in kept.value.conferences && kept.value.conferences.items.some((x) => x.id === c.id);
      const concerned = account && (emails.has(account.email) || account.id === c.moderatorId);
      if (now - kept.at >= overviewTtlMs || !(listed || concerned)) continue;
      this.lists.delete(slackId);
      who.push(slackId);
    }
    return who;
  }

  /** The doctor's verdict: kept 15 minutes; a stale one is shown while a new run goes in the background. */
  private verdict(now: number, cachedOnly: boolean): HomeAdmin['doctor'] {
    const kept = this.doctorReport;
    if (this.o.doctor && !cachedOnly && (!kept || now - kept.at >= overviewTtlMs)) void this.runDoctor();
    if (!kept) return this.o.doctor ? 'checking' : undefined;
    const count = (s: string) => kept.value.checks.filter((c) => c.status === s).length;
    return { blocking: count('blocking'), warnings: count('warning'), at: kept.value.at };
  }

  /** Runs the doctor once at a time, in the background lane; its report is kept for the next look. */
  runDoctor(): Promise<void> {
    const doctor = this.o.doctor;
    if (!doctor) return Promise.resolve();
    this.doctorRun ??= runInLane('background', doctor)
      .then((report) => {
        this.doctorReport = { at: this.o.now().getTime(), value: report };
      })
      .catch(() => undefined)
      .finally(() => {
        this.doctorRun = undefined;
      });
    return this.doctorRun;
  }

  private async readLists(slackId: string) {
    const shown = <T>(items: T[], more: boolean, max: number): HomeList<T> => ({
      items: items.slice(0, max),
      more: more || items.length > max,
    });
    const [conferences, tickets] = await Promise.all([
      this.o.conferences.list(slackId, { filter: 'upcoming', offset: 0 }, 50).then(
        (p): HomeList<ConferenceSummary> => shown(p.items, p.hasMore, homeLimits.conferences),
        (error: unknown): HomeList<ConferenceSummary> => ({ failed: unreadable(error) }),
      ),
      this.o.tickets.openOf(slackId, 100).then(
        (p): HomeList<TicketSummary> => shown(p.items, p.more, homeLimits.tickets),
        (error: unknown): HomeList<TicketSummary> => ({ failed: unreadable(error) }),
      ),
    ]);
    return { conferences, tickets };
  }

  private keepLists(
    slackId: string,
    kept: Kept<{ conferences: HomeList<ConferenceSummary>; tickets: HomeList<TicketSummary> }>,
  ): void {
    for (const set of this.viewers.values()) set.delete(slackId);
    this.lists.set(slackId, kept);
    const tickets = kept.value.tickets;
    if (!('items' in tickets)) return;
    for (const t of tickets.items) {
      const set = this.viewers.get(t.id) ?? new Set<string>();
      set.add(slackId);
      this.viewers.set(t.id, set);
    }
  }

  private async readOverview(): Promise<Omit<HomeAdmin, 'doctor'>> {
    const yesterday = new Date(this.o.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    const [counts, stats] = await Promise.all([
      this.o.counts().catch(() => ({})),
      this.o.digests.day(yesterday).catch(() => undefined),
    ]);
    return { ...counts, yesterday: { date: yesterday, stats } };
  }
}
