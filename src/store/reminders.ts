import { type ReminderPrefs, reminderItemPrefix } from '../domain/reminders.js';
import { type Db, iso } from './db.js';
import { type OutboxItem, toOutbox } from './outbox-claims.js';

/**
 * Conference reminders: each person's choice (App Home), and the reminders written to the outbox and
 * not yet taken by delivery (a conference deleted or moved meanwhile takes its reminder back). The
 * reminders themselves are outbox items (`conference:<id>`, `reminder:<person>:<start>`, the
 * person's DM): sent once across restarts and replicas as every item is.
 */
export interface ReminderRepository {
  /** One person's choice, if they made one. */
  reminderPrefs(user: string): Promise<ReminderPrefs | undefined>;
  /** Everyone's choice (one query per scan: the table holds one row per person who chose). */
  allReminderPrefs(): Promise<Map<string, ReminderPrefs>>;
  /** Records a person's choice (replacing the earlier one). */
  setReminderPrefs(user: string, prefs: ReminderPrefs): Promise<void>;
  /**
   * Every identity link as platform user id → Slack person (few: admins make them by hand): how a
   * conference's moderator, or a participant the directory knows, is found without their e-mail.
   */
  linkedPeople(): Promise<Map<string, string>>;
  /** The reminders written and still waiting for their time, not claimed by delivery. */
  waitingReminders(): Promise<OutboxItem[]>;
  /**
   * Takes back reminders still waiting (a conference deleted or moved, a person who turned them off):
   * only those delivery has not claimed (a claimed one is on its way). Answers how many.
   */
  dropReminders(items: readonly Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel'>[]): Promise<number>;
}

const prefsOf = (r: { enabled: number; lead_minutes: number | null }): ReminderPrefs => ({
  enabled: Number(r.enabled) === 1,
  ...(r.lead_minutes === null ? {} : { leadMinutes: Number(r.lead_minutes) }),
});

export const reminderRepository = ({ db, now }: Db): ReminderRepository => ({
  async reminderPrefs(user) {
    const r = await db
      .selectFrom('reminder_prefs')
      .selectAll()
      .where('user_id', '=', user)
      .executeTakeFirst();
    return r && prefsOf(r);
  },
  async allReminderPrefs() {
    const rows = await db.selectFrom('reminder_prefs').selectAll().execute();
    return new Map(rows.map((r) => [r.user_id, prefsOf(r)]));
  },
  async setReminderPrefs(user, prefs) {
    const values = {
      enabled: prefs.enabled ? 1 : 0,
      lead_minutes: prefs.leadMinutes ?? null,
      updated_at: iso(now()),
    };
    await db
      .insertInto('reminder_prefs')
      .values({ user_id: user, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  },
  async linkedPeople() {
    const rows = await db.selectFrom('user_links').selectAll().orderBy('linked_at', 'asc').execute();
    // The latest link of an account wins (the same account linked twice, or from two workspaces).
    return new Map(rows.map((r) => [r.platform_user_id, r.slack_user_id]));
  },
  async waitingReminders() {
    const rows = await db
      .selectFrom('outbox')
      .selectAll()
      .where('ticket_id', 'like', `${reminderItemPrefix}%`)
      .where('status', '=', 'pending')
      .execute();
    return rows.map(toOutbox);
  },
  async dropReminders(items) {
    let dropped = 0;
    for (const i of items) {
      // A claim turns its items `unknown` first: a pending item is one no delivery holds.
      const r = await db
        .deleteFrom('outbox')
        .where('ticket_id', '=', i.ticketId)
        .where('event_id', '=', i.eventId)
        .where('channel', '=', i.channel)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      dropped += Number(r.numDeletedRows);
    }
    return dropped;
  },
});
