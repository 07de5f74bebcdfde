import type { DigestSchedule } from '../domain/digest-schedule.js';
import { type Db, iso } from './db.js';
import { deleteSetting, setSettingOnce } from './settings.js';

export type StoredDigestSchedule = DigestSchedule & { createdBy: string };

/** Digest schedules, their runs (each schedule's digest once a local day), and what owners were told. */
export interface DigestRepository {
  addDigestSchedule(s: StoredDigestSchedule): Promise<void>;
  /** Replaces the schedule `s.id` (added when missing) in one transaction: never none, never two. */
  replaceDigestSchedule(s: StoredDigestSchedule): Promise<void>;
  removeDigestSchedule(id: string): Promise<boolean>;
  /** A channel's digest schedules; every schedule without `channel`. */
  digestSchedules(channel?: string): Promise<StoredDigestSchedule[]>;
  /**
   * Takes the digest run of a schedule for a period (a local date) for `leaseMs` when nobody sent it,
   * nobody is sending it now, and its retry time (if any) has come: once across restarts and
   * replicas. Answers the attempt number, or undefined when it is not this caller's to send.
   */
  claimDigestRun(
    scheduleId: string,
    period: string,
    owner: string,
    leaseMs: number,
  ): Promise<number | undefined>;
  /** Records how a run went: `sent`, or `retry` at a later time (a metric or the platform was missing). */
  settleDigestRun(
    scheduleId: string,
    period: string,
    outcome: { status: 'sent' | 'retry'; retryAt?: Date; slackTs?: string },
  ): Promise<void>;
  digestRun(
    scheduleId: string,
    period: string,
  ): Promise<{ status: string; attempts: number; slackTs: string | undefined } | undefined>;
  /** Slack refused a schedule's digest (`error`); answers whether this is news (its owner is told once). */
  markDigestRefused(scheduleId: string, error: string): Promise<boolean>;
  /** The digest was posted: a later refusal is news again. */
  clearDigestRefused(scheduleId: string): Promise<void>;
  /** The schedule's owner may not have it sent; answers whether this is news (they are told once). */
  markDigestNotAllowed(scheduleId: string, owner: string): Promise<boolean>;
}

export const digestRepository = (c: Db): DigestRepository => {
  const { db, now } = c;
  const insert = (q: Db['db'], s: StoredDigestSchedule) =>
    q
      .insertInto('digest_schedules')
      .values({
        id: s.id,
        channel: s.channel,
        zone: s.zone,
        time: s.time,
        weekdays: JSON.stringify(s.weekdays),
        created_by: s.createdBy,
        created_at: iso(now()),
      })
      .execute();
  return {
    async addDigestSchedule(s) {
      await insert(db, s);
    },

    replaceDigestSchedule: (s) =>
      db.transaction().execute(async (tx) => {
        await tx.deleteFrom('digest_schedules').where('id', '=', s.id).execute();
        await insert(tx, s);
      }),

    async removeDigestSchedule(id) {
      const r = await db.deleteFrom('digest_schedules').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async digestSchedules(channel) {
      let q = db.selectFrom('digest_schedules').selectAll().orderBy('created_at').orderBy('id');
      if (channel) q = q.where('channel', '=', channel);
      return (await q.execute()).map((r) => ({
        id: r.id,
        channel: r.channel,
        zone: r.zone,
        time: r.time,
        weekdays: JSON.parse(r.weekdays) as number[],
        createdBy: r.created_by,
      }));
    },

    async claimDigestRun(scheduleId, period, owner, leaseMs) {
      const at = iso(now());
      const lease = { lease_owner: owner, lease_until: iso(new Date(now().getTime() + leaseMs)) };
      return db.transaction().execute(async (tx) => {
        const fresh = await tx
          .insertInto('digest_runs')
          .values({
            schedule_id: scheduleId,
            period,
            status: 'running',
            attempts: 1,
            retry_at: null,
            slack_ts: null,
            updated_at: at,
            ...lease,
          })
          .onConflict((oc) => oc.columns(['schedule_id', 'period']).doNothing())
          .executeTakeFirst();
        if (Number(fresh.numInsertedOrUpdatedRows ?? 0) > 0) return 1;
        // Someone's row: take it over only when it waits for a retry that is due, or its sender died.
        const taken = await tx
          .updateTable('digest_runs')
          .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), updated_at: at, ...lease }))
          .where('schedule_id', '=', scheduleId)
          .where('period', '=', period)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'retry'), eb('retry_at', '<=', at)]),
              eb.and([eb('status', '=', 'running'), eb('lease_until', '<', at)]),
            ]),
          )
          .returning('attempts')
          .executeTakeFirst();
        return taken ? Number(taken.attempts) : undefined;
      });
    },

    async settleDigestRun(scheduleId, period, outcome) {
      await db
        .updateTable('digest_runs')
        .set({
          status: outcome.status,
          retry_at: outcome.retryAt ? iso(outcome.retryAt) : null,
          slack_ts: outcome.slackTs ?? null,
          lease_owner: null,
          lease_until: null,
          updated_at: iso(now()),
        })
        .where('schedule_id', '=', scheduleId)
        .where('period', '=', period)
        .execute();
    },

    async digestRun(scheduleId, period) {
      const r = await db
        .selectFrom('digest_runs')
        .selectAll()
        .where('schedule_id', '=', scheduleId)
        .where('period', '=', period)
        .executeTakeFirst();
      return r && { status: r.status, attempts: Number(r.attempts), slackTs: r.slack_ts ?? undefined };
    },

    markDigestRefused: (scheduleId, error) => setSettingOnce(c, 'digest-refused', scheduleId, error),
    clearDigestRefused: async (scheduleId) => void (await deleteSetting(c, 'digest-refused', scheduleId)),
    markDigestNotAllowed: (scheduleId, owner) => setSettingOnce(c, 'digest-not-allowed', scheduleId, owner),
  };
};
