import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { HomeDeps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';

/**
 * App Home: published when the person opens it, with what the policy lets them see (their
 * conferences, tickets, what they set up; the enterprise for admins). The reads run in the
 * background lane and are cached (`services/home.ts`): opening Home twice in a minute reads once.
 */
export const handleHome =
  (deps: HomeDeps) =>
  async ({ event }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    await deps.homes.opened(event.user);
  };

/** Registers `handleHome`. */
export function registerHome(app: Listeners, deps: HomeDeps): void {
  app.event('app_home_opened', handleHome(deps));
}
