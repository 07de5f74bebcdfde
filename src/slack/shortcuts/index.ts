import type { Deps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerConferenceNew } from './conference-new.js';
import { registerTicketFromMessage } from './ticket-from-message.js';

/** The global "New conference" shortcut and the "Create assistance ticket" message shortcut. */
export function registerShortcuts(app: Listeners, deps: Deps): void {
  registerConferenceNew(app, deps);
  registerTicketFromMessage(app, deps);
}
