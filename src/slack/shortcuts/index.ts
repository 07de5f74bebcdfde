import type { App } from '@slack/bolt';
import type { Deps } from '../deps.js';
import { registerConferenceNew } from './conference-new.js';
import { registerTicketFromMessage } from './ticket-from-message.js';

/** The global "New conference" shortcut and the "Create assistance ticket" message shortcut. */
export function registerShortcuts(app: App, deps: Deps): void {
  registerConferenceNew(app, deps);
  registerTicketFromMessage(app, deps);
}
