import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { IdentityService } from '../../services/identity.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** What `user_change` needs: the identity service whose cached profiles it drops. */
export interface UserChangeDeps {
  identity: Pick<IdentityService, 'forget'>;
}

/**
 * Slack's `user_change` (a person changed their profile: language, time zone, e-mail…): the bot
 * forgets the profile it kept for them, so their next request reads it again and is answered in
 * their new language at once, not when the cached profile expires. No request here: Slack sends this
 * event for every profile change in the workspace (a status too), so it must cost nothing.
 */
export const handleUserChange =
  (deps: UserChangeDeps) =>
  async ({ event }: SlackEventMiddlewareArgs<'user_change'> & AllMiddlewareArgs): Promise<void> => {
    const id = (event.user as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') deps.identity.forget(id);
  };

/** Registers `handleUserChange`. */
export function registerUserChange(app: Listeners, deps: UserChangeDeps): void {
  app.event('user_change', handleUserChange(deps));
}
