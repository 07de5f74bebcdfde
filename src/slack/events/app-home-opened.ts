import type { App } from '@slack/bolt';
import { buildResultView } from '../../blocks/conference-form.js';
import { buildHome } from '../../blocks/home.js';
import { type ConferenceDeps, formFromText } from '../conference-flows.js';
import { describeError } from '../describe-error.js';
import { ids } from '../ids.js';

/**
 * App Home, the global "New conference" shortcut, and the installation events: the Home tab is
 * published when opened; uninstall and token revocation are logged (a single-workspace install has
 * nothing else to clean up until the installation store lands).
 */
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
    await client.views.publish({ user_id: event.user, view: view as never });
  });

  // A refusal (no account) is shown in a modal: a shortcut from Home has no channel to answer in.
  const openForm = async (client: App['client'], triggerId: string, user: string, channel?: string) => {
    const view = await formFromText(deps, user, channel, '').catch((error: unknown) =>
      buildResultView('New conference', describeError(error, deps.logger)),
    );
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
