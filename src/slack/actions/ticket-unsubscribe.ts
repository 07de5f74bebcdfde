import { ids } from '../../blocks/ids.js';
import { buildSubscriptions } from '../commands/ticket-subscriptions.js';
import { readValue, staleValue, subscriptionId } from '../payloads.js';
import type { ActionRoutes } from '../route.js';
import type { TicketDeps } from './ticket-card.js';

/** The Remove buttons of `/ticket subscriptions`: the list is shown again without the subscription. */
export function registerTicketUnsubscribe(routes: ActionRoutes, deps: TicketDeps): void {
  routes.on(
    ids.actions.ticketUnsubscribe,
    async ({ user, value, channel: where, respond }) => {
      const channel = where ?? '';
      // Only a subscription of the channel the list was shown in, by its author or an admin.
      const id = readValue(subscriptionId, value);
      const subs = await deps.subscriptions.remove(channel, id, async (sub) => {
        const asker = await deps.access.asker(user);
        deps.access.check(asker, 'subscription.remove', { kind: 'subscription', createdBy: sub.createdBy });
      });
      if (!subs) throw staleValue();
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        ...buildSubscriptions(channel, subs),
      });
    },
    { working: 'Removing the subscription' },
  );
}
