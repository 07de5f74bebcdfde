import type { TicketDeps } from '../deps.js';
import { type CardPlace, idValue, readValue } from './payloads.js';

/*
 * Where a ticket's card lives, as the bot trusts it: the store's record of where it posted each card,
 * never a channel or message a button's value or a form's metadata claims.
 */

/**
 * Which ticket a click on a card is about: the card's own record (channel + message) when the bot
 * posted it, else the button's value, which the policy then checks like any other request.
 */
export async function ticketOfCard(
  deps: Pick<TicketDeps, 'store'>,
  place: { channel?: string | undefined; ts?: string | undefined },
  value: string | undefined,
): Promise<string> {
  const card = place.channel && place.ts ? await deps.store.at(place.channel, place.ts) : undefined;
  return card?.ticketId ?? readValue(idValue, value);
}

/**
 * A card place read from a value or a form: its channel and message are kept only when the store
 * says the bot posted this ticket's card there, so a forged place cannot make the bot edit or post
 * under another message.
 */
export async function trustedPlace(deps: Pick<TicketDeps, 'store'>, place: CardPlace): Promise<CardPlace> {
  if (!place.channel || !place.ts) return { ticketId: place.ticketId };
  const card = await deps.store.at(place.channel, place.ts);
  return card?.ticketId === place.ticketId ? place : { ticketId: place.ticketId };
}
