import { z } from 'zod';
import { ids } from '../../blocks/ids.js';
import type { TicketFormDeps } from '../deps.js';
import { readJson, staleValue } from '../input/payloads.js';
import { openTicketForm } from '../openers/forms.js';
import { reactedMessagePrefill } from '../openers/reacted-message.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** The reacted message a *Create ticket* button names (`blocks/reactions.ts`): its channel and ts. */
const reactedMessage = z.object({
  c: z.string().regex(/^[A-Z0-9]{2,30}$/),
  ts: z.string().regex(/^\d{1,12}\.\d{1,8}$/),
});

/**
 * *Create ticket*, offered privately to whoever reacted with the create emoji: its click carries the
 * trigger a modal needs. The ticket form opens at once ("Loading…"), then shows, prefilled, the
 * message's text (where the bot may read it) and its permalink in the description, and the channel
 * as the card's; `ticket.create` is checked as for any form, and again on submission.
 */
export const handleReactionTicket =
  (deps: TicketFormDeps): ClickHandler =>
  async ({ user, value, channel, client, triggerId, respond }) => {
    const place = readJson(reactedMessage, value);
    // The offer was posted beside the message: a value naming another channel is not one the bot wrote.
    if (channel && place.c !== channel) throw staleValue();
    await openTicketForm(
      deps,
      client,
      triggerId,
      user,
      { channel: place.c, emails: [], phones: [], scopes: [] },
      () => reactedMessagePrefill(client, place.c, place.ts),
    );
    // The offer has done its work.
    await respond({ delete_original: true }).catch(() => undefined);
  };

/** Registers `handleReactionTicket`. */
export function registerReactionTicket(routes: ActionRoutes, deps: TicketFormDeps): void {
  routes.on(ids.actions.reactionTicket, handleReactionTicket(deps));
}
