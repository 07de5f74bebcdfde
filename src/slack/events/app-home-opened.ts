import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import { buildHome } from '../../blocks/home.js';
import type { ConferenceDeps } from '../deps.js';

/** App Home: the Home tab is published when opened, showing what the policy lets the person do. */
export const handleHome =
  (deps: ConferenceDeps) =>
  async ({
    event,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home') return;
    // Each person sees what the policy lets them do; a platform failure shows the plain help.
    const asker = await deps.access.asker(event.user).catch(() => undefined);
    const view = buildHome({
      account: asker ? deps.access.may(asker, 'home.new-conference') : false,
      admin: asker ? deps.access.may(asker, 'digest.set') : false,
      noAccount: asker?.noAccount?.userMessage,
    });
    await client.views.publish({ user_id: event.user, view: view });
  };

/** Registers `handleHome`. */
export function registerHome(app: App, deps: ConferenceDeps): void {
  app.event('app_home_opened', handleHome(deps));
}
