import type { Deps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerConferenceCommand } from './conference.js';
import { registerTicketCommand } from './ticket.js';

/** The slash commands: `/conference` (with `digest` and `admin`) and `/ticket` (with its subscriptions). */
export function registerCommands(app: Listeners, deps: Deps): void {
  registerConferenceCommand(app, deps);
  registerTicketCommand(app, deps);
}
