import { ids } from '../../blocks/ids.js';
import type { ConferenceDeps } from '../deps.js';
import { openConferenceForm } from '../openers/forms.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** Home's "New conference" button: the create form, as the global shortcut opens it. */
/** Home's "New conference" button: the create form. */
export const handleConferenceNewButton =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, channel, client, triggerId, log }) =>
    openConferenceForm(deps, client, triggerId, { user, channel, log });

export function registerConferenceNewButton(routes: ActionRoutes, deps: ConferenceDeps): void {
  routes.on(ids.actions.conferenceNew, handleConferenceNewButton(deps));
}
