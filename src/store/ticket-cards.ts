/** Where a ticket's card lives: the channel that follows the ticket, and the card message. */
export interface TicketCardLink {
  ticketId: string;
  channel: string;
  ts: string;
}

/**
 * The ticket ↔ card links. A narrow repository so that the persistent store (issue 5) can take it
 * over unchanged; until then it lives in memory.
 */
export interface TicketCardRepository {
  /** Records (or moves) the card of a ticket in a channel. */
  save(link: TicketCardLink): Promise<void>;
  /** The card of a ticket in a channel, if one was posted there. */
  find(ticketId: string, channel: string): Promise<TicketCardLink | undefined>;
  /** Every channel card of a ticket (the channels following it). */
  forTicket(ticketId: string): Promise<TicketCardLink[]>;
}

export class InMemoryTicketCards implements TicketCardRepository {
  private readonly links = new Map<string, TicketCardLink>();

  async save(link: TicketCardLink): Promise<void> {
    this.links.set(`${link.ticketId} ${link.channel}`, { ...link });
  }

  async find(ticketId: string, channel: string): Promise<TicketCardLink | undefined> {
    return this.links.get(`${ticketId} ${channel}`);
  }

  async forTicket(ticketId: string): Promise<TicketCardLink[]> {
    return [...this.links.values()].filter((l) => l.ticketId === ticketId);
  }
}
