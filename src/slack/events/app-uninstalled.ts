import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/** What uninstall and revocation need: in distribution mode, how to forget the workspace. */
export interface LeaveDeps {
  logger: Logger;
  /**
   * Distribution mode: stops the workspace's jobs and removes its tokens, settings, subscriptions,
   * cards, digests and queued items. Unset (one workspace, tokens from the environment): logged only.
   */
  forgetWorkspace?: ((team: string) => Promise<void>) | undefined;
}

/** Uninstall: the workspace is forgotten (distribution mode), or logged. */
export const handleAppUninstalled =
  (deps: LeaveDeps) =>
  async ({ body }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs): Promise<void> => {
    deps.logger.warn({ team: body.team_id }, 'confdesk was uninstalled from the workspace');
    await deps.forgetWorkspace?.(body.team_id);
  };

/** Registers `handleAppUninstalled`. */
export function registerAppUninstalled(app: App, deps: LeaveDeps): void {
  app.event('app_uninstalled', handleAppUninstalled(deps));
}
