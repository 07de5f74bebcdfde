import type { App } from '@slack/bolt';
import { buildHome } from '../../blocks/home.js';
import type { ConferenceDeps } from '../conference-flows.js';

/** App Home: the Home tab is published when opened, showing what the policy lets the person do. */
export function registerHome(app: App, deps: ConferenceDeps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    // Each person sees what the policy lets them do; a platform failure shows the plain help.
    const asker = await deps.access.asker(event.user).catch(() => undefined);
    const view = buildHome({
      account: asker ? deps.access.may(asker, 'home.new-conference') : false,
      admin: asker ? deps.access.may(asker, 'digest.set') : false,
      noAccount: asker?.noAccount?.userMessage,
    });
    await client.views.publish({ user_id: event.user, view: view });
  });
}
