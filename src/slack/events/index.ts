import type { Deps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerHome } from './app-home-opened.js';
import { registerAppUninstalled } from './app-uninstalled.js';
import { registerLinkShared } from './link-shared.js';
import { registerMemberJoinedChannel } from './member-joined-channel.js';
import { registerReactionAdded } from './reaction-added.js';
import { registerTokensRevoked } from './tokens-revoked.js';
import { registerUserChange } from './user-change.js';

/** Events API listeners: Home, the bot joining a channel again, uninstall, token revocation, links, reactions, profile changes. */
export function registerEvents(app: Listeners, deps: Deps): void {
  registerHome(app, deps);
  registerMemberJoinedChannel(app, deps);
  registerAppUninstalled(app, deps);
  registerTokensRevoked(app, deps);
  registerLinkShared(app, deps);
  registerReactionAdded(app, deps);
  registerUserChange(app, deps);
}
