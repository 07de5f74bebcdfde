import { type Db, iso, type Row } from './db.js';

/**
 * A channel's subscription: one ticket (`watch`), or new tickets and events matching a filter
 * (`follow`), or emoji reactions acting on tickets there (`reactions`: no ticket, no filter).
 */
export interface Subscription {
  id: string;
  channel: string;
  kind: 'watch' | 'follow' | 'reactions';
  ticketId: string | undefined;
  filter: Record<string, unknown>;
  createdBy: string;
  createdAt: Date;
}

/** What channels follow: written by `services/subscriptions.ts`, read by the poller and delivery. */
export interface SubscriptionRepository {
  addSubscription(s: Omit<Subscription, 'createdAt'>): Promise<void>;
  removeSubscription(id: string): Promise<boolean>;
  /** A channel's subscriptions, the oldest first. */
  subscriptionsOf(channel: string): Promise<Subscription[]>;
  /** The watches of a ticket and every follow (whose filter the caller applies). */
  subscriptionsForTicket(ticketId: string): Promise<Subscription[]>;
  /** What one person set up, in every channel, the oldest first (their App Home). */
  subscriptionsBy(user: string): Promise<Subscription[]>;
  /**
   * Whether anything keeps the scans at their pace: a subscription, or a card kept live. None: the
   * workspace is idle and its jobs sleep (see `jobs/pacing.ts`).
   */
  watchesAnything(): Promise<boolean>;
}

export const subscriptionRepository = ({ db, now }: Db): SubscriptionRepository => ({
  async addSubscription(s) {
    await db
      .insertInto('subscriptions')
      .values({
        id: s.id,
        channel: s.channel,
        kind: s.kind,
        ticket_id: s.ticketId ?? null,
        filter: JSON.stringify(s.filter),
        created_by: s.createdBy,
        created_at: iso(now()),
      })
      .execute();
  },

  async removeSubscription(id) {
    const r = await db.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  async subscriptionsOf(channel) {
    const rows = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('channel', '=', channel)
      .orderBy('created_at')
      .execute();
    return rows.map(toSubscription);
  },

  async subscriptionsForTicket(ticketId) {
    const rows = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where((eb) => eb.or([eb('ticket_id', '=', ticketId), eb('kind', '=', 'follow')]))
      .orderBy('created_at')
      .execute();
    return rows.map(toSubscription);
  },

  async subscriptionsBy(user) {
    const rows = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('created_by', '=', user)
      .orderBy('created_at')
      .execute();
    return rows.map(toSubscription);
  },

  async watchesAnything() {
    // Two lookups of one row each (a primary key's first entry), whatever the tables hold. A
    // channel's reactions alone give the scans nothing to watch.
    const sub = await db
      .selectFrom('subscriptions')
      .select('id')
      .where('kind', '<>', 'reactions')
      .limit(1)
      .executeTakeFirst();
    if (sub) return true;
    const card = await db.selectFrom('ticket_cards').select('ticket_id').limit(1).executeTakeFirst();
    return card !== undefined;
  },
});

const toSubscription = (r: Row<'subscriptions'>): Subscription => ({
  id: r.id,
  channel: r.channel,
  kind: r.kind as Subscription['kind'],
  ticketId: r.ticket_id ?? undefined,
  filter: JSON.parse(r.filter) as Record<string, unknown>,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
});
