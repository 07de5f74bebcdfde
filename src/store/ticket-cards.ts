/** Where a ticket's card lives: the channel that follows the ticket, and the card message. */
export interface TicketCardLink {
  ticketId: string;
  channel: string;
  ts: string;
}

/**
 * The ticket ↔ card links: the part of the store (`store.ts`) the ticket listeners use.
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
