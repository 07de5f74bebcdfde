import { sql } from 'kysely';
import { tellsOrTold, toldByLines } from '../domain/change-cover.js';
import { type OutboxDepth, waitingStates } from '../observability/metrics.js';
import { type Db, iso } from './db.js';
import { lockClaims, type OutboxClaims, type OutboxItem, outboxClaims, toOutbox } from './outbox-claims.js';
import { notePushed } from './ticket-records.js';

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
  /** A webhook told its events up to this time (ISO): kept if later (`knownTicket`'s `pushedAt`). */
  pushedAt?: string | undefined;
}

/**
 * The outbox of ticket events (written by the poller, claimed and settled by delivery), and the last
 * version of each ticket the poller saw, written with it.
 */
export interface OutboxRepository extends OutboxClaims {
  /**
   * Records new events in the outbox and what was seen of a ticket (its version, its read backlog,
   * how far webhooks told it), in one transaction: a crash leaves either all or none. Events already
   * in the outbox (same ticket, event id, channel) are ignored. In the same transaction, the items
   * waiting of each ticket written to that a line in their thread tells (`toldByLines`: a person's
   * line or a state line, and the platform event it tells) are settled without a post (`toldByLine`):
   * whichever of a line and its event is written second settles the other. No claim comes between
   * the write and the settle (on PostgreSQL such a write takes the claims' lock), so an item in
   * flight is never one settled here. Answers how many items were new.
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
  const { db, now, backend, schema } = c;
  const version = (modified: string, state: string | undefined) => ({
    modified,
    state: state ?? null,
    checked_at: iso(now()),
  });
  return {
    ...outboxClaims(c),

    advance: (items, seen) =>
      db.transaction().execute(async (tx) => {
        // Lines and events may settle each other (below): the claims wait, so none takes an item
        // between its write and its settle, and two writers of one thread see each other's items
        // (PostgreSQL's snapshots would otherwise hide each from the other). SQLite has one writer.
        if (backend === 'postgres' && items.some((i) => tellsOrTold(i.payload))) await lockClaims(tx, schema);
        const at = iso(now());
        let fresh = 0;
        const written = new Set<string>();
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
          const inserted = Number(r.numInsertedOrUpdatedRows ?? 0);
          fresh += inserted;
          if (inserted && tellsOrTold(i.payload)) written.add(i.ticketId);
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
          if (seen.pushedAt) await notePushed(tx, seen.ticketId, seen.pushedAt);
        }
        for (const ticketId of written) await settleTold(tx, ticketId, at);
        return fresh;
      }),

    async settle(item, outcome) {
      let q = settleItem(db, item, outcome, iso(now()));
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

    outboxOf: (ticketId) => itemsOf(db, ticketId),

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
 * Settles the pending items of a ticket that a line in the same thread already tells (`advance`,
 * in its transaction): a webhook's event waits a moment (`holdMs`) before it may go out, so the line
 * a person's click writes a few milliseconds later still tells it once. Only a pending item: one a
 * claim took meanwhile is its claimer's.
 */
async function settleTold(tx: Db['db'], ticketId: string, at: string): Promise<void> {
  for (const i of toldByLines(await itemsOf(tx, ticketId)))
    await settleItem(tx, i, { status: 'delivered', reason: toldByLine }, at)
      .where('status', '=', 'pending')
      .execute();
}

/** The update that settles one item with `outcome` at `at` (the caller adds who may settle it). */
function settleItem(
  db: Db['db'],
  item: Pick<OutboxItem, 'ticketId' | 'eventId' | 'channel'>,
  outcome: Parameters<OutboxRepository['settle']>[1],
  at: string,
) {
  return db
    .updateTable('outbox')
    .set({
      status: outcome.status,
      slack_ts: outcome.slackTs ?? null,
      reason: outcome.reason ?? null,
      settled_at: at,
      lease_owner: null,
      lease_until: null,
      ...(outcome.retryAt ? { available_at: iso(outcome.retryAt) } : {}),
    })
    .where('ticket_id', '=', item.ticketId)
    .where('event_id', '=', item.eventId)
    .where('channel', '=', item.channel);
}

/** A ticket's outbox items, in the order they were written. */
async function itemsOf(db: Db['db'], ticketId: string): Promise<OutboxItem[]> {
  const rows = await db
    .selectFrom('outbox')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .orderBy('position')
    .execute();
  return rows.map(toOutbox);
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
