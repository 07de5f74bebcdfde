import type { App } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/**
 * Uninstall is logged: a single-workspace install has nothing else to clean up until the
 * installation store lands.
 */
export function registerAppUninstalled(app: App, deps: { logger: Logger }): void {
  app.event('app_uninstalled', async ({ body }) => {
    deps.logger.warn({ team: body.team_id }, 'confdesk was uninstalled from the workspace');
  });
}
