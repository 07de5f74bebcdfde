import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** What uninstall and revocation need: in distribution mode, how to forget the workspace. */
export interface LeaveDeps {
  logger: Logger;
  /**
   * Distribution mode: stops the workspace's jobs and removes its tokens, settings, subscriptions,
   * cards, digests and queued items. Unset (one workspace, tokens from the environment): logged only.
   * `at`: when Slack says it happened (a retry of the event may arrive after a reinstall).
   */
  forgetWorkspace?: ((team: string, at?: Date) => Promise<void>) | undefined;
}

/** When an event happened, as Slack stamps it (`event_time`, in seconds). */
export function eventTimeOf(body: { event_time?: unknown }): Date | undefined {
  return typeof body.event_time === 'number' && Number.isFinite(body.event_time)
    ? new Date(body.event_time * 1000)
    : undefined;
}

/** Uninstall: the workspace is forgotten (distribution mode), or logged. */
export const handleAppUninstalled =
  (deps: LeaveDeps) =>
  async ({ body }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs): Promise<void> => {
    deps.logger.warn({ team: body.team_id }, 'confdesk was uninstalled from the workspace');
    await deps.forgetWorkspace?.(body.team_id, eventTimeOf(body));
  };

/** Registers `handleAppUninstalled`. */
export function registerAppUninstalled(app: Listeners, deps: LeaveDeps): void {
  app.event('app_uninstalled', handleAppUninstalled(deps));
}
