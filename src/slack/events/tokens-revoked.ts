import type { App } from '@slack/bolt';
import type { Logger } from '../../observability/logger.js';

/** Token revocation is logged (which tokens; never their values, which Slack does not send). */
export function registerTokensRevoked(app: App, deps: { logger: Logger }): void {
  app.event('tokens_revoked', async ({ event, body }) => {
    deps.logger.warn({ team: body.team_id, revoked: event.tokens }, 'Slack tokens were revoked');
  });
}
