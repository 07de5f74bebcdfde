import { ids } from '../../blocks/ids.js';
import { buildSubscriptions } from '../../blocks/subscriptions.js';
import { phrase } from '../../blocks/text.js';
import type { TicketDeps } from '../deps.js';
import { readValue, staleValue, subscriptionId } from '../input/payloads.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** The Remove buttons of `/ticket subscriptions`: the list is shown again without the subscription. */
/** Remove: only a subscription of the channel the list was shown in, by its author or an admin. */
export const handleTicketUnsubscribe =
  (deps: TicketDeps): ClickHandler =>
  async ({ user, value, channel: where, respond }) => {
    const channel = where ?? '';
    const id = readValue(subscriptionId, value);
    const [subs, locale] = await Promise.all([
      deps.subscriptions.remove(channel, id, async (sub) => {
        const asker = await deps.access.asker(user);
        deps.access.check(asker, 'subscription.remove', { kind: 'subscription', createdBy: sub.createdBy });
      }),
      deps.locales.person(user),
    ]);
    if (!subs) throw staleValue();
    await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildSubscriptions(locale, channel, subs),
    });
  };

export function registerTicketUnsubscribe(routes: ActionRoutes, deps: TicketDeps): void {
  routes.on(ids.actions.ticketUnsubscribe, handleTicketUnsubscribe(deps), {
    working: phrase('working.removingSubscription'),
  });
}
