import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/**
 * Uninstall is logged: a single-workspace install has nothing else to clean up until the
 * installation store lands.
 */
export const handleAppUninstalled =
  (deps: { logger: Logger }) =>
  async ({ body }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs): Promise<void> => {
    deps.logger.warn({ team: body.team_id }, 'confdesk was uninstalled from the workspace');
  };

/** Registers `handleAppUninstalled`. */
export function registerAppUninstalled(app: App, deps: { logger: Logger }): void {
  app.event('app_uninstalled', handleAppUninstalled(deps));
}
