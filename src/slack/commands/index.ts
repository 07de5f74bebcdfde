import type { Deps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerConferenceCommand } from './conference.js';
import type { SettingsDeps } from './conference-admin.js';
import { registerTicketCommand } from './ticket.js';

/**
 * The slash commands: `/conference` (with `digest` and `admin`) and `/ticket` (with its subscriptions).
 * In distribution mode `deps` also holds the settings' handler (`SettingsDeps`).
 */
export function registerCommands(app: Listeners, deps: Deps & SettingsDeps): void {
  registerConferenceCommand(app, deps);
  registerTicketCommand(app, deps);
}
