import type { Deps } from '../deps.js';
import type { ActionRoutes } from '../runtime/action-routes.js';
import { registerConferenceActions } from './conference-card.js';
import { registerConferenceNewButton } from './conference-new.js';
import { registerHomeActions } from './home.js';
import { registerMediaLibrary } from './media-library.js';
import { registerPeopleActions } from './people.js';
import { registerReactionTicket } from './reaction-ticket.js';
import { registerReminderActions } from './reminders.js';
import { registerTicketActions } from './ticket-card.js';
import { registerTicketList } from './ticket-list.js';
import { registerTicketMenu } from './ticket-menu.js';
import { registerTicketUnsubscribe } from './ticket-unsubscribe.js';

/** Every button and menu, routed by action id behind one Bolt listener (`runtime/action-routes.ts`). */
export function registerActions(routes: ActionRoutes, deps: Deps): void {
  registerConferenceActions(routes, deps);
  registerConferenceNewButton(routes, deps);
  registerTicketActions(routes, deps);
  registerTicketMenu(routes, deps);
  registerTicketList(routes, deps);
  registerTicketUnsubscribe(routes, deps);
  registerHomeActions(routes, deps);
  registerPeopleActions(routes, deps);
  registerMediaLibrary(routes, deps);
  registerReactionTicket(routes, deps);
  registerReminderActions(routes, deps);
}
