import type { Deps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { registerConferenceForm } from './conference-form.js';
import { registerDigestForm } from './digest-form.js';
import { registerMediaForms } from './media-forms.js';
import { registerPeopleViews } from './people.js';
import { registerTicketEdit } from './ticket-edit.js';
import { registerTicketExport } from './ticket-export.js';
import { registerTicketForm } from './ticket-form.js';

/** Modal submissions, by callback id. */
export function registerViews(app: Listeners, deps: Deps): void {
  registerConferenceForm(app, deps);
  registerDigestForm(app, deps);
  registerTicketForm(app, deps);
  registerTicketEdit(app, deps);
  registerTicketExport(app, deps);
  registerPeopleViews(app, deps);
  registerMediaForms(app, deps);
}
