import type { Kysely, Migration } from 'kysely';

/*
 * The store's tables, one code path for both backends (Kysely speaks SQLite and PostgreSQL). Times
 * are ISO 8601 UTC text (they sort as text), JSON is text; nothing dialect-specific.
 */

export interface Database {
  ticket_cards: { ticket_id: string; channel: string; ts: string };
  subscriptions: {
    id: string;
    channel: string;
    kind: string;
    ticket_id: string | null;
    filter: string;
    created_by: string;
    created_at: string;
  };
  cursors: { name: string; value: string; updated_at: string };
  ticket_versions: { ticket_id: string; modified: string; state: string | null; checked_at: string };
  outbox: {
    ticket_id: string;
    event_id: string;
    channel: string;
    payload: string;
    status: string;
    attempts: number;
    available_at: string;
    lease_owner: string | null;
    lease_until: string | null;
    slack_ts: string | null;
    created_at: string;
    /** Order of the items written by one `advance` (they share `created_at`). */
    position: number;
    /** Why a dead item was set aside: the Slack error code (0004). */
    reason: string | null;
    /** When the last outcome was recorded (0004; null for items settled before). */
    settled_at: string | null;
    /** The platform's time of the event, when known (0006): a channel's items go out in that order. */
    event_at: string | null;
  };
  /**
   * What is known of a ticket without asking the platform (0006): its latest record (a list page, a
   * read, a click's answer; never replaced by an older one) and the newest event a webhook told.
   */
  ticket_records: {
    ticket_id: string;
    record: string | null;
    record_modified: string | null;
    pushed_at: string | null;
  };
  /**
   * Tickets whose timeline is still to be read (0006): the read backlog. `priority` 0: a change no
   * webhook told; 1: a check that the webhooks told everything (read when nothing else is due).
   * `since`: the oldest change waiting (oldest first); `channels`: JSON array (fairness between them).
   */
  read_wants: { ticket_id: string; since: string; added_at: string; priority: number; channels: string };
  /** Channels' daily statistics digests. `weekdays`: JSON array, 1 = Monday … 7 = Sunday. */
  digest_schedules: {
    id: string;
    channel: string;
    zone: string;
    time: string;
    weekdays: string;
    created_by: string;
    created_at: string;
  };
  /** One row per schedule and local date: a digest is sent once across restarts and replicas. */
  digest_runs: {
    schedule_id: string;
    period: string;
    status: string;
    attempts: number;
    lease_owner: string | null;
    lease_until: string | null;
    retry_at: string | null;
    slack_ts: string | null;
    updated_at: string;
  };
  /** Named leases: which replica runs a singleton job (the poller) right now. */
  leases: { name: string; owner: string; until: string };
  settings: { scope: string; key: string; value: string };
  /**
   * Slack people linked by hand to a platform account (0007): identity uses the link before
   * the e-mail match, for people whose Slack and platform e-mails differ.
   */
  user_links: {
    team_id: string;
    slack_user_id: string;
    platform_user_id: string;
    linked_by: string;
    linked_at: string;
  };
  installations: { team_id: string; value: string; updated_at: string };
  /**
   * Each person's conference reminders (0008): off (`enabled` 0), or a lead time in minutes
   * (`lead_minutes` null: the conference's own setting, else 10).
   */
  reminder_prefs: { user_id: string; enabled: number; lead_minutes: number | null; updated_at: string };
}

/** Versioned migrations, applied at start in name order; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ticket_cards')
        .addColumn('ticket_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('ts', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ticket_cards_pk', ['ticket_id', 'channel'])
        .execute();
      await db.schema
        .createTable('subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ticket_id', 'text')
        .addColumn('filter', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('subscriptions_channel').on('subscriptions').column('channel').execute();
      await db.schema.createIndex('subscriptions_ticket').on('subscriptions').column('ticket_id').execute();
      await db.schema
        .createTable('cursors')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ticket_versions')
        .addColumn('ticket_id', 'text', (c) => c.primaryKey())
        .addColumn('modified', 'text', (c) => c.notNull())
        .addColumn('state', 'text')
        .addColumn('checked_at', 'text', (c) => c.notNull())
        .execute();
      // The outbox is also the ledger: its key makes a re-polled event a no-op.
      await db.schema
        .createTable('outbox')
        .addColumn('ticket_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('available_at', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('slack_ts', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('outbox_pk', ['ticket_id', 'event_id', 'channel'])
        .execute();
      await db.schema
        .createIndex('outbox_pending')
        .on('outbox')
        .columns(['status', 'available_at'])
        .execute();
      await db.schema
        .createTable('settings')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('settings_pk', ['scope', 'key'])
        .execute();
      await db.schema
        .createTable('user_links')
        .addColumn('slack_user_id', 'text', (c) => c.primaryKey())
        .addColumn('platform_user_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('installations')
        .addColumn('team_id', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_order_and_leases': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('outbox')
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('outbox_channel').on('outbox').columns(['channel', 'status']).execute();
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('until', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0003_digests': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('digest_schedules')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('zone', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('weekdays', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('digest_schedules_channel')
        .on('digest_schedules')
        .column('channel')
        .execute();
      await db.schema
        .createTable('digest_runs')
        .addColumn('schedule_id', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('retry_at', 'text')
        .addColumn('slack_ts', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('digest_runs_pk', ['schedule_id', 'period'])
        .execute();
    },
  },
  '0004_dead_letters': {
    async up(db: Kysely<unknown>) {
      // A message Slack refuses for good is set aside (status 'dead') with Slack's reason.
      await db.schema.alterTable('outbox').addColumn('reason', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('settled_at', 'text').execute();
    },
  },
  '0005_card_places': {
    async up(db: Kysely<unknown>) {
      // A click on a card finds its ticket by the message it is on (store.at): one index lookup.
      await db.schema
        .createIndex('ticket_cards_place')
        .on('ticket_cards')
        .columns(['channel', 'ts'])
        .execute();
    },
  },
  '0006_webhook_first': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('outbox').addColumn('event_at', 'text').execute();
      await db.schema
        .createTable('ticket_records')
        .addColumn('ticket_id', 'text', (c) => c.primaryKey())
        .addColumn('record', 'text')
        .addColumn('record_modified', 'text')
        .addColumn('pushed_at', 'text')
        .execute();
      await db.schema
        .createTable('read_wants')
        .addColumn('ticket_id', 'text', (c) => c.primaryKey())
        .addColumn('since', 'text', (c) => c.notNull())
        .addColumn('added_at', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('channels', 'text', (c) => c.notNull())
        .execute();
    },
  },
  // Identity links. 0001 made a `user_links` table no code ever wrote (keyed by
  // the Slack id alone, with an e-mail): it is replaced by the links admins make by hand.
  '0007_user_links': {
    async up(db: Kysely<unknown>) {
      await db.schema.dropTable('user_links').ifExists().execute();
      await db.schema
        .createTable('user_links')
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('slack_user_id', 'text', (c) => c.notNull())
        .addColumn('platform_user_id', 'text', (c) => c.notNull())
        .addColumn('linked_by', 'text', (c) => c.notNull())
        .addColumn('linked_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('user_links_pk', ['team_id', 'slack_user_id'])
        .execute();
      // Identity knows a person by their Slack id (unique across an Enterprise Grid's workspaces).
      await db.schema.createIndex('user_links_slack_user').on('user_links').column('slack_user_id').execute();
    },
  },
  // Conference reminders: each person's choice, from App Home.
  '0008_reminder_prefs': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('reminder_prefs')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('lead_minutes', 'integer')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
