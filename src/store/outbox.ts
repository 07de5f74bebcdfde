import { sql } from 'kysely';
import { toldByLines } from '../domain/change-cover.js';
import { type OutboxDepth, waitingStates } from '../observability/metrics.js';
import { type Db, iso } from './db.js';
import { type OutboxClaims, type OutboxItem, outboxClaims, toOutbox } from './outbox-claims.js';

export { claimerPrefix, type OutboxItem } from './outbox-claims.js';

/** An item Slack refused for good, as the operator lists it. */
export interface DeadLetter extends OutboxItem {
  /** Slack's error code. */
  reason: string | undefined;
  settledAt: Date | undefined;
}

/** An item to write to the outbox. */
export interface NewOutboxItem extends Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel' | 'payload'> {
  /** The platform's time of the event (ISO): a channel's items go out in that order. */
  eventAt?: string | undefined;
  /** Not before this long (a webhook's event waits for its neighbours, and for a person's line that tells it). */
  holdMs?: number | undefined;
}

/** A ticket whose timeline is still to be read (`read_wants`). */
export interface ReadWant {
  ticketId: string;
  /** The oldest change waiting (ISO): the backlog is read oldest first. */
  since: string;
  /** 0: a change no webhook told; 1: a check that the webhooks told everything (read last). */
  priority: 0 | 1;
  /** The channels waiting for it (fairness between channels). */
  channels: string[];
  addedAt: string;
}

/** A ticket's version as the poller writes it with its events (`advance`). */
export interface SeenVersion {
  ticketId: string;
  /** The version seen (undefined: the last one seen stays). */
  modified?: string | undefined;
  state?: string | undefined;
  /** Its timeline is still to be read: added to the read backlog in the same transaction. */
  want?: Omit<ReadWant, 'ticketId' | 'addedAt'> | undefined;
  /** Its timeline was read from this time (ISO): the wants added until then are done. */
  readFrom?: string | undefined;
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
  advance(items: NewOutboxItem[], seen?: SeenVersion): Promise<number>;
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
  /** How many items are dead (App Home's overview, `npm run outbox`). */
  deadLetterCount(): Promise<number>;
  /**
   * The items still waiting, by state (pending, unknown, parked, dead), with the time the oldest of
   * each was written: one grouped query on the status index, cheap enough for every metrics scrape.
   */
  outboxDepth(): Promise<OutboxDepth>;
  /**
   * Gives dead items another try once their cause is fixed (the bot invited back, a scope granted):
   * every one, or one channel's. They are pending again at once; delivery's ledger still keeps each
   * message to one post. Answers how many.
   */
  requeueDead(channel?: string): Promise<number>;
  outboxOf(ticketId: string): Promise<OutboxItem[]>;
  lastSeen(
    ticketId: string,
  ): Promise<{ modified: string; state: string | undefined; checkedAt: string } | undefined>;
  markSeen(ticketId: string, modified: string, state: string | undefined): Promise<void>;
  /** Adds a ticket to the read backlog (or keeps its older `since` and higher priority). */
  wantRead(want: Omit<ReadWant, 'addedAt'>): Promise<void>;
  /** The read backlog, changes before checks, oldest first (at most `limit`). */
  wantedReads(limit: number): Promise<ReadWant[]>;
  /** The backlog's size by priority, and its oldest change waiting. */
  backlogSize(): Promise<{ reads: number; verify: number; oldest: string | undefined }>;
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
              event_at: i.eventAt ?? null,
              ...(i.holdMs ? { available_at: iso(new Date(now().getTime() + i.holdMs)) } : {}),
            })
            .onConflict((oc) => oc.columns(['ticket_id', 'event_id', 'channel']).doNothing())
            .executeTakeFirst();
          fresh += Number(r.numInsertedOrUpdatedRows ?? 0);
        }
        if (seen) {
          if (seen.modified !== undefined) {
            const v = version(seen.modified, seen.state);
            await tx
              .insertInto('ticket_versions')
              .values({ ticket_id: seen.ticketId, ...v })
              .onConflict((oc) => oc.column('ticket_id').doUpdateSet(v))
              .execute();
          }
          if (seen.readFrom)
            await tx
              .deleteFrom('read_wants')
              .where('ticket_id', '=', seen.ticketId)
              .where('added_at', '<=', seen.readFrom)
              .execute();
          if (seen.want) await upsertWant(tx, { ticketId: seen.ticketId, ...seen.want }, at);
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

    async deadLetterCount() {
      const r = await db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('status', '=', 'dead')
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    async outboxDepth() {
      const rows = await db
        .selectFrom('outbox')
        .select([
          'status',
          (eb) => eb.fn.countAll<string | number>().as('n'),
          (eb) => eb.fn.min('created_at').as('oldest'),
        ])
        .where('status', 'in', waitingStates)
        .groupBy('status')
        .execute();
      const depth = Object.fromEntries(
        waitingStates.map((state) => [state, { items: 0, oldestAt: undefined }]),
      ) as OutboxDepth;
      for (const r of rows) {
        const oldest = r.oldest as string | null;
        depth[r.status as keyof OutboxDepth] = {
          items: Number(r.n),
          oldestAt: oldest ? new Date(oldest) : undefined,
        };
      }
      return depth;
    },

    async requeueDead(channel) {
      let q = db
        .updateTable('outbox')
        .set({ status: 'pending', reason: null, settled_at: null, available_at: iso(now()) })
        .where('status', '=', 'dead');
      if (channel) q = q.where('channel', '=', channel);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
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

    wantRead: (want) => upsertWant(db, want, iso(now())),

    async wantedReads(limit) {
      const rows = await db
        .selectFrom('read_wants')
        .selectAll()
        .orderBy('priority')
        .orderBy('since')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ticketId: r.ticket_id,
        since: r.since,
        priority: r.priority === 0 ? 0 : 1,
        channels: JSON.parse(r.channels) as string[],
        addedAt: r.added_at,
      }));
    },

    backlogSize: () => backlogOf(db),

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

/** Why an item was settled without a post (kept with it: the operator sees it). */
export const toldByLine = 'told by a line already in the thread';

/**
 * Settles the pending platform events of a ticket that a line in the same thread already tells (a
 * person's line, or a state line): a webhook's event waits a moment (`holdMs`) before it may go out,
 * so the line a person's click writes a few milliseconds later still tells it once. Both writers call
 * this after writing, so whichever comes second sees the other. Answers how many it settled.
 */
export async function settleToldEvents(
  store: Pick<OutboxRepository, 'outboxOf' | 'settle'>,
  ticketId: string,
): Promise<number> {
  let settled = 0;
  for (const i of toldByLines(await store.outboxOf(ticketId)))
    settled += Number(await store.settle(i, { status: 'delivered', reason: toldByLine }));
  return settled;
}

/** Adds a want, keeping the older `since` and the higher priority (0) of the two. */
async function upsertWant(db: Db['db'], want: Omit<ReadWant, 'addedAt'>, at: string): Promise<void> {
  await db
    .insertInto('read_wants')
    .values({
      ticket_id: want.ticketId,
      since: want.since,
      added_at: at,
      priority: want.priority,
      channels: JSON.stringify(want.channels),
    })
    .onConflict((oc) =>
      oc.column('ticket_id').doUpdateSet({
        since: sql`case when read_wants.since < excluded.since then read_wants.since else excluded.since end`,
        priority: sql`case when read_wants.priority < excluded.priority then read_wants.priority else excluded.priority end`,
        added_at: at,
        channels: (eb) => eb.ref('excluded.channels'),
      }),
    )
    .execute();
}

/** The read backlog's size by priority and its oldest change (also what `inspect.ts` reports). */
export async function backlogOf(
  db: Db['db'],
): Promise<{ reads: number; verify: number; oldest: string | undefined }> {
  const rows = await db
    .selectFrom('read_wants')
    .select(['priority', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('since').as('oldest')])
    .groupBy('priority')
    .execute();
  const of = (p: number) => rows.find((r) => Number(r.priority) === p);
  return {
    reads: Number(of(0)?.n ?? 0),
    verify: Number(of(1)?.n ?? 0),
    oldest: (of(0)?.oldest as string | null | undefined) ?? undefined,
  };
}
