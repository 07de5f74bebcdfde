import { sql } from 'kysely';
import { type Db, iso, type Row } from './db.js';

/** An event waiting to be (or already) posted in a channel. */
export interface OutboxItem {
  ticketId: string;
  eventId: string;
  channel: string;
  payload: Record<string, unknown>;
  /** `parked`: kept while its channel refuses the bot; `dead`: Slack refused it for good, set aside. */
  status: 'pending' | 'delivered' | 'unknown' | 'parked' | 'dead';
  attempts: number;
  slackTs: string | undefined;
  /** When it was written to the outbox: its message cannot be older (the ledger looks from there). */
  createdAt: Date;
  /** Who holds it (set on claimed items): only that owner may settle it. */
  leaseOwner?: string | undefined;
}

/** Each claimer's row in `leases` (renewed by every claim): how many share the outbox. */
export const claimerPrefix = 'claimer:';
/**
 * Any constant: with a hash of the store's schema, the PostgreSQL advisory lock that serialises one
 * store's claims across replicas (the two-key form: each workspace's schema has a lock of its own, so
 * the workspaces' claims do not wait for each other).
 */
export const claimLock = 5_270_001;
const open = ['pending', 'unknown'] as const;

/**
 * PostgreSQL: waits for the store's claims lock (`claimLock`) until the transaction `tx` ends. A
 * claim takes it, and so does a write that settles items (`advance`): each sees the other's work
 * whole, as SQLite's single writer does.
 */
export const lockClaims = (tx: Db['db'], schema: string | undefined) =>
  sql`select pg_advisory_xact_lock(${claimLock}, hashtext(${schema ?? ''}))`.execute(tx);

/** Claiming the outbox's due items: the delivery's side of the outbox (`outbox.ts` has the rest). */
export interface OutboxClaims {
  /**
   * Leases up to `limit` items due now (pending, or of unknown outcome) to `owner` for `leaseMs`, in
   * the platform's order of their events where known (`event_at`), else the order they were written
   * (a webhook's event arriving late still goes out in its place if it is held meanwhile). A channel
   * belongs to one owner at a time, and an item waiting (its hold, a retry) holds back the items after
   * it, never those before, so each channel's messages go out in order and at one pace, whatever the
   * number of replicas. At most `perChannel` items of one channel, so one batch spans many channels,
   * and the claimer's share of the channels with due items (they are split between the claimers seen
   * within `leaseMs`). Claimed items are `unknown` until settled, and are answered with the status
   * they had: an item whose claimer died comes back `unknown`. A lease that runs out frees the items.
   */
  claim(owner: string, limit: number, leaseMs: number, perChannel?: number): Promise<OutboxItem[]>;
}

export const outboxClaims = ({ db, backend, schema, now: clock }: Db): OutboxClaims => ({
  async claim(owner, limit, leaseMs, perChannel = limit) {
    const now = iso(clock());
    const until = iso(new Date(clock().getTime() + leaseMs));
    const me = `${claimerPrefix}${owner}`;
    // Every claimer counts, busy or idle; its row is rewritten only once half its time has passed,
    // so an idle claim costs no disk write most of the time.
    const renewBy = iso(new Date(clock().getTime() + leaseMs / 2));
    const countMe = async (q: typeof db) => {
      const seen = await q.selectFrom('leases').select('until').where('name', '=', me).executeTakeFirst();
      if (!seen || seen.until < renewBy)
        await q
          .insertInto('leases')
          .values({ name: me, owner, until })
          .onConflict((oc) => oc.column('name').doUpdateSet({ until }))
          .execute();
    };
    // Nothing free and due at all (an idle workspace's heartbeat, most claims of a thousand idle
    // workspaces): no transaction and no lock, only this claimer counted. A superset of what the
    // claim below takes, so nothing it would take is missed.
    const anyDue = await db
      .selectFrom('outbox')
      .select('channel')
      .where('status', 'in', open)
      .where('available_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .limit(1)
      .executeTakeFirst();
    if (!anyDue) {
      await countMe(db);
      return [];
    }
    return db.transaction().execute(async (tx) => {
      // One claim at a time (SQLite has a single writer anyway), so no two replicas take one channel.
      if (backend === 'postgres') await lockClaims(tx, schema);
      // A channel another claim holds waits for it; an item held back (a webhook's event waiting out
      // its hold, a retry's wait) holds back only the items after it in its channel's order, so a
      // channel that gets an event more often than the hold still has its earlier items served.
      const busy = tx
        .selectFrom('outbox')
        .select('channel')
        .where('status', 'in', open)
        .where('lease_until', '>=', now);
      const due = tx
        .selectFrom('outbox')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by channel order by coalesce(event_at, created_at), created_at, position)`.as(
            'rank',
          ),
        )
        .where('status', 'in', open)
        .where('available_at', '<=', now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .where('channel', 'not in', busy)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('outbox as held')
                .select('held.channel')
                .whereRef('held.channel', '=', 'outbox.channel')
                .where('held.status', 'in', open)
                .where('held.available_at', '>', now)
                .where(
                  sql<boolean>`(coalesce(held.event_at, held.created_at), held.created_at, held.position) < (coalesce(outbox.event_at, outbox.created_at), outbox.created_at, outbox.position)`,
                ),
            ),
          ),
        );
      const rows = await tx
        .selectFrom(due.as('due'))
        .selectAll()
        .where('rank', '<=', perChannel)
        .orderBy(sql`coalesce(event_at, created_at)`)
        .orderBy('created_at')
        .orderBy('position')
        .limit(limit)
        .execute();
      await countMe(tx);
      if (!rows.length) return [];
      const claimers = await tx
        .selectFrom('leases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', 'like', `${claimerPrefix}%`)
        .where('until', '>=', now)
        .executeTakeFirstOrThrow();
      // This claimer's share of the channels, in the order of their items.
      const channels = [...new Set(rows.map((r) => r.channel))];
      const mine = new Set(channels.slice(0, Math.ceil(channels.length / Math.max(1, Number(claimers.n)))));
      const taken = rows.filter((r) => mine.has(r.channel));
      for (const r of taken)
        await tx
          .updateTable('outbox')
          // In flight: until settled, whether it reached Slack is unknown (the claimer may die).
          .set({
            status: 'unknown',
            lease_owner: owner,
            lease_until: until,
            attempts: Number(r.attempts) + 1,
          })
          .where('ticket_id', '=', r.ticket_id)
          .where('event_id', '=', r.event_id)
          .where('channel', '=', r.channel)
          .execute();
      return taken.map((r) => ({ ...toOutbox(r), attempts: Number(r.attempts) + 1, leaseOwner: owner }));
    });
  },
});

export const toOutbox = (r: Row<'outbox'>): OutboxItem => ({
  ticketId: r.ticket_id,
  eventId: r.event_id,
  channel: r.channel,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  status: r.status as OutboxItem['status'],
  attempts: Number(r.attempts),
  slackTs: r.slack_ts ?? undefined,
  createdAt: new Date(r.created_at),
  leaseOwner: r.lease_owner ?? undefined,
});
