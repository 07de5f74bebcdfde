import type { App } from '@slack/bolt';
import { buildHome } from '../../blocks/home.js';
import { type ConferenceDeps, formFromText } from '../conference-flows.js';
import { ids } from '../ids.js';

/**
 * App Home, the global "New conference" shortcut, and the installation events: the Home tab is
 * published when opened; uninstall and token revocation are logged (a single-workspace install has
 * nothing else to clean up until the installation store lands).
 */
export function registerHome(app: App, deps: ConferenceDeps): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await client.views.publish({ user_id: event.user, view: buildHome() as never });
  });

  const openForm = async (client: App['client'], triggerId: string, user: string, channel?: string) => {
    const view = await formFromText(deps, user, channel, '');
    await client.views.open({ trigger_id: triggerId, view: view as never });
  };
  app.shortcut(ids.shortcuts.conferenceNew, async ({ ack, shortcut, client }) => {
    await ack();
    await openForm(client, shortcut.trigger_id, shortcut.user.id);
  });
  app.action(ids.actions.conferenceNew, async ({ ack, body, client }) => {
    await ack();
    if (body.type === 'block_actions')
      await openForm(client, body.trigger_id, body.user.id, body.channel?.id);
  });

  app.event('app_uninstalled', async ({ body }) => {
    deps.logger.warn({ team: body.team_id }, 'confdesk was uninstalled from the workspace');
  });
  app.event('tokens_revoked', async ({ event, body }) => {
    deps.logger.warn({ team: body.team_id, revoked: event.tokens }, 'Slack tokens were revoked');
  });
}
