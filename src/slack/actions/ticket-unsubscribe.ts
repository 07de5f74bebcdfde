import { buildSubscriptions } from '../commands/ticket-subscriptions.js';
import { ids } from '../ids.js';
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
      const sub = (await deps.store.subscriptionsOf(channel)).find((s) => s.id === id);
      if (!sub) throw staleValue();
      const asker = await deps.access.asker(user);
      deps.access.check(asker, 'subscription.remove', { kind: 'subscription', createdBy: sub.createdBy });
      await deps.store.removeSubscription(id);
      const subs = await deps.store.subscriptionsOf(channel);
      await respond({
        response_type: 'ephemeral',
        replace_original: true,
        ...buildSubscriptions(channel, subs),
      });
    },
    { working: 'Removing the subscription' },
  );
}
