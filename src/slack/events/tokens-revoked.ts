import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Listeners } from '../runtime/listener-tables.js';
import { eventTimeOf, type LeaveDeps } from './app-uninstalled.js';

/**
 * Token revocation is logged (which tokens; never their values, which Slack does not send). When the
 * bot's token is among them, distribution mode forgets the workspace as on uninstall: nothing can
 * post there any more.
 */
export const handleTokensRevoked =
  (deps: LeaveDeps) =>
  async ({ event, body }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs): Promise<void> => {
    deps.logger.warn({ team: body.team_id, revoked: event.tokens }, 'Slack tokens were revoked');
    if ((event.tokens.bot ?? []).length > 0) await deps.forgetWorkspace?.(body.team_id, eventTimeOf(body));
  };

/** Registers `handleTokensRevoked`. */
export function registerTokensRevoked(app: Listeners, deps: LeaveDeps): void {
  app.event('tokens_revoked', handleTokensRevoked(deps));
}
