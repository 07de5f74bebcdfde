import { randomUUID } from 'node:crypto';
import { IANAZone } from 'luxon';
import { nextRunAfter } from '../domain/digest-schedule.js';
import { formatPlain } from '../i18n/catalog.js';
import type { Locale } from '../i18n/locale.js';
import type { DigestRepository, StoredDigestSchedule } from '../store/store.js';

/** A schedule as a person gives it, from the command or the form: unchecked. */
export interface DigestScheduleDraft {
  /** Set: replaces this schedule (the form's edit). */
  id?: string | undefined;
  channel: string | undefined;
  time: string | undefined;
  zone: string;
  weekdays: number[];
  createdBy: string;
}

/** What is wrong with a draft, by input (the form's block ids), in words a person can act on. */
export type DigestScheduleProblems = Partial<Record<'channel' | 'time' | 'zone' | 'days', string>>;

/**
 * Creating, replacing, listing and removing a channel's daily digests: the one place that checks a
 * schedule and says what was set up, for `/conference digest` and the digest form alike.
 */
export class DigestScheduleService {
  constructor(
    private readonly store: Pick<
      DigestRepository,
      'addDigestSchedule' | 'replaceDigestSchedule' | 'removeDigestSchedule' | 'digestSchedules'
    >,
    private readonly now: () => Date,
  ) {}

  /**
   * Plain text in the person's `locale` (the form shows it under its input; the command escapes it).
   * Empty: it can be saved.
   */
  problems(d: DigestScheduleDraft, locale: Locale): DigestScheduleProblems {
    const problems: DigestScheduleProblems = {};
    if (!IANAZone.isValidZone(d.zone))
      problems.zone = formatPlain(locale, 'digestSchedule.zone', { zone: d.zone });
    if (!d.weekdays.length) problems.days = formatPlain(locale, 'digestSchedule.days');
    if (!d.time) problems.time = formatPlain(locale, 'digestSchedule.time');
    if (!d.channel) problems.channel = formatPlain(locale, 'digestSchedule.channel');
    return problems;
  }

  /**
   * Saves a checked draft: a new schedule, or the replacement of `d.id` in one transaction (never
   * none, never two). Answers what was saved, its next run and whether it replaced one (for the
   * confirmation, `blocks/digest-replies.ts`); throws when the draft has problems.
   */
  async save(
    d: DigestScheduleDraft,
  ): Promise<{ schedule: StoredDigestSchedule; next: Date | undefined; replaced: boolean }> {
    const problem = Object.values(this.problems(d, 'en'))[0];
    if (problem) throw new Error(`digest schedule not saved: ${problem}`);
    const s: StoredDigestSchedule = {
      id: d.id ?? randomUUID(),
      channel: d.channel as string,
      zone: d.zone,
      time: d.time as string,
      weekdays: d.weekdays,
      createdBy: d.createdBy,
    };
    if (d.id) await this.store.replaceDigestSchedule(s);
    else await this.store.addDigestSchedule(s);
    return { schedule: s, next: nextRunAfter(s, this.now()) ?? undefined, replaced: d.id !== undefined };
  }

  list(channel: string): Promise<StoredDigestSchedule[]> {
    return this.store.digestSchedules(channel);
  }

  /** The channel's schedule whose id starts with `prefix` (the short id `list` shows). */
  async find(channel: string, prefix: string): Promise<StoredDigestSchedule | undefined> {
    return (await this.list(channel)).find((s) => s.id.startsWith(prefix));
  }

  /** Removes the channel's schedules whose id starts with `prefix` (all without one); answers how many. */
  async remove(channel: string, prefix = ''): Promise<number> {
    const gone = (await this.list(channel)).filter((s) => s.id.startsWith(prefix));
    for (const s of gone) await this.store.removeDigestSchedule(s.id);
    return gone.length;
  }
}
