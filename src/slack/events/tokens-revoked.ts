import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/** Token revocation is logged (which tokens; never their values, which Slack does not send). */
export const handleTokensRevoked =
  (deps: { logger: Logger }) =>
  async ({ event, body }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs): Promise<void> => {
    deps.logger.warn({ team: body.team_id, revoked: event.tokens }, 'Slack tokens were revoked');
  };

/** Registers `handleTokensRevoked`. */
export function registerTokensRevoked(app: App, deps: { logger: Logger }): void {
  app.event('tokens_revoked', handleTokensRevoked(deps));
}
