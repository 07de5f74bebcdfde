import type { Db, Row } from './db.js';

/** Where a ticket's card lives: the channel that follows the ticket, and the card message. */
export interface TicketCardLink {
  ticketId: string;
  channel: string;
  ts: string;
}

/**
 * The ticket ↔ card links: the part of the store the ticket listeners and the publisher use.
 */
export interface TicketCardRepository {
  /** Records (or moves) the card of a ticket in a channel. */
  save(link: TicketCardLink): Promise<void>;
  /** The card of a ticket in a channel, if one was posted there. */
  find(ticketId: string, channel: string): Promise<TicketCardLink | undefined>;
  /** Every channel card of a ticket (the channels following it). */
  forTicket(ticketId: string): Promise<TicketCardLink[]>;
  /**
   * The card posted as this message, if the bot posted one there: the trusted answer to "which
   * ticket is this button about", whatever the button's value says.
   */
  at(channel: string, ts: string): Promise<TicketCardLink | undefined>;
}

export const ticketCardRepository = ({ db }: Db): TicketCardRepository => ({
  async save(link) {
    await db
      .insertInto('ticket_cards')
      .values({ ticket_id: link.ticketId, channel: link.channel, ts: link.ts })
      .onConflict((oc) => oc.columns(['ticket_id', 'channel']).doUpdateSet({ ts: link.ts }))
      .execute();
  },

  async find(ticketId, channel) {
    const r = await db
      .selectFrom('ticket_cards')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return r && toLink(r);
  },

  async forTicket(ticketId) {
    const rows = await db.selectFrom('ticket_cards').selectAll().where('ticket_id', '=', ticketId).execute();
    return rows.map(toLink);
  },

  async at(channel, ts) {
    const r = await db
      .selectFrom('ticket_cards')
      .selectAll()
      .where('channel', '=', channel)
      .where('ts', '=', ts)
      .executeTakeFirst();
    return r && toLink(r);
  },
});

const toLink = (r: Row<'ticket_cards'>): TicketCardLink => ({
  ticketId: r.ticket_id,
  channel: r.channel,
  ts: r.ts,
});
