import { type Db, iso } from './db.js';
import { type OutboxClaims, type OutboxItem, outboxClaims, toOutbox } from './outbox-claims.js';

export { claimerPrefix, type OutboxItem } from './outbox-claims.js';

/** An item Slack refused for good, as the operator lists it. */
export interface DeadLetter extends OutboxItem {
  /** Slack's error code. */
  reason: string | undefined;
  settledAt: Date | undefined;
}

/**
 * The outbox of ticket events (written by the poller, claimed and settled by delivery), and the last
 * version of each ticket the poller saw, written with it.
 */
export interface OutboxRepository extends OutboxClaims {
  /**
   * Records new events in the outbox and the last version seen of a ticket, in one transaction: a
   * crash leaves either all or none. Events already in the outbox (same ticket, event id, channel)
   * are ignored. Answers how many were new.
   */
  advance(
    items: Omit<OutboxItem, 'status' | 'attempts' | 'slackTs' | 'createdAt'>[],
    seen?: { ticketId: string; modified: string; state: string | undefined },
  ): Promise<number>;
  /**
   * Records the outcome of a delivery attempt (`reason`: why it is dead). With `leaseOwner` (claimed
   * items), only while that owner still holds the lease; answers whether it was recorded. A dead item
   * holds nothing back: its channel's later items are claimed as if it were delivered.
   */
  settle(
    item: Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel' | 'leaseOwner'>,
    outcome: { status: OutboxItem['status']; slackTs?: string; retryAt?: Date; reason?: string },
  ): Promise<boolean>;
  /** The items Slack refused for good, the latest set aside first: what the operator looks at. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  outboxOf(ticketId: string): Promise<OutboxItem[]>;
  lastSeen(
    ticketId: string,
  ): Promise<{ modified: string; state: string | undefined; checkedAt: string } | undefined>;
  markSeen(ticketId: string, modified: string, state: string | undefined): Promise<void>;
}

export const outboxRepository = (c: Db): OutboxRepository => {
  const { db, now } = c;
  const version = (modified: string, state: string | undefined) => ({
    modified,
    state: state ?? null,
    checked_at: iso(now()),
  });
  return {
    ...outboxClaims(c),

    advance: (items, seen) =>
      db.transaction().execute(async (tx) => {
        const at = iso(now());
        let fresh = 0;
        for (const [position, i] of items.entries()) {
          const r = await tx
            .insertInto('outbox')
            .values({
              ticket_id: i.ticketId,
              event_id: i.eventId,
              channel: i.channel,
              payload: JSON.stringify(i.payload),
              status: 'pending',
              attempts: 0,
              available_at: at,
              lease_owner: null,
              lease_until: null,
              slack_ts: null,
              created_at: at,
              position,
            })
            .onConflict((oc) => oc.columns(['ticket_id', 'event_id', 'channel']).doNothing())
            .executeTakeFirst();
          fresh += Number(r.numInsertedOrUpdatedRows ?? 0);
        }
        if (seen) {
          const v = version(seen.modified, seen.state);
          await tx
            .insertInto('ticket_versions')
            .values({ ticket_id: seen.ticketId, ...v })
            .onConflict((oc) => oc.column('ticket_id').doUpdateSet(v))
            .execute();
        }
        return fresh;
      }),

    async settle(item, outcome) {
      let q = db
        .updateTable('outbox')
        .set({
          status: outcome.status,
          slack_ts: outcome.slackTs ?? null,
          reason: outcome.reason ?? null,
          settled_at: iso(now()),
          lease_owner: null,
          lease_until: null,
          ...(outcome.retryAt ? { available_at: iso(outcome.retryAt) } : {}),
        })
        .where('ticket_id', '=', item.ticketId)
        .where('event_id', '=', item.eventId)
        .where('channel', '=', item.channel);
      if (item.leaseOwner) q = q.where('lease_owner', '=', item.leaseOwner);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async deadLetters(limit = 100) {
      const rows = await db
        .selectFrom('outbox')
        .selectAll()
        .where('status', '=', 'dead')
        .orderBy('settled_at', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('position', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ...toOutbox(r),
        reason: r.reason ?? undefined,
        settledAt: r.settled_at ? new Date(r.settled_at) : undefined,
      }));
    },

    async outboxOf(ticketId) {
      const rows = await db
        .selectFrom('outbox')
        .selectAll()
        .where('ticket_id', '=', ticketId)
        .orderBy('created_at')
        .orderBy('position')
        .execute();
      return rows.map(toOutbox);
    },

    async lastSeen(ticketId) {
      const r = await db
        .selectFrom('ticket_versions')
        .selectAll()
        .where('ticket_id', '=', ticketId)
        .executeTakeFirst();
      return r && { modified: r.modified, state: r.state ?? undefined, checkedAt: r.checked_at };
    },

    async markSeen(ticketId, modified, state) {
      const v = version(modified, state);
      await db
        .insertInto('ticket_versions')
        .values({ ticket_id: ticketId, ...v })
        .onConflict((oc) => oc.column('ticket_id').doUpdateSet(v))
        .execute();
    },
  };
};
