import { ids } from '../../blocks/ids.js';
import type { HomeDeps } from '../deps.js';
import { idValue, readValue, staleValue, subscriptionId } from '../input/payloads.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** Home's Remove on a subscription the person set up: the policy's `subscription.remove`, then Home again. */
export const handleHomeSubscriptionRemove =
  (deps: HomeDeps): ClickHandler =>
  async ({ user, value }) => {
    const id = readValue(subscriptionId, value);
    const sub = (await deps.store.subscriptionsBy(user)).find((s) => s.id === id);
    if (!sub) throw staleValue();
    const asker = await deps.access.asker(user);
    deps.access.check(asker, 'subscription.remove', { kind: 'subscription', createdBy: sub.createdBy });
    await deps.store.removeSubscription(id);
    await deps.homes.refresh(user);
  };

/** Home's Remove on a digest the person set up: the policy's `digest.remove` (admins), then Home again. */
export const handleHomeDigestRemove =
  (deps: HomeDeps): ClickHandler =>
  async ({ user, value }) => {
    const id = readValue(idValue, value);
    const digest = (await deps.store.digestSchedules()).find((d) => d.id === id && d.createdBy === user);
    if (!digest) throw staleValue();
    await deps.access.require(user, 'digest.remove');
    await deps.store.removeDigestSchedule(id);
    await deps.homes.refresh(user);
  };

/** Home's Requeue all (admins): the dead letters get another try, then Home again. */
export const handleHomeRequeueDead =
  (deps: HomeDeps): ClickHandler =>
  async ({ user }) => {
    await deps.access.require(user, 'outbox.requeue');
    await deps.store.requeueDead();
    await deps.homes.refresh(user);
  };

export function registerHomeActions(routes: ActionRoutes, deps: HomeDeps): void {
  routes.on(ids.actions.homeRequeueDead, handleHomeRequeueDead(deps));
  routes.on(ids.actions.homeSubscriptionRemove, handleHomeSubscriptionRemove(deps));
  routes.on(ids.actions.homeDigestRemove, handleHomeDigestRemove(deps));
}
