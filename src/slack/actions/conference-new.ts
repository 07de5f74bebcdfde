import { ids } from '../../blocks/ids.js';
import type { ConferenceDeps } from '../conference-flows.js';
import type { ActionRoutes } from '../route.js';
import { openConferenceForm } from '../shortcuts/conference-new.js';

/** Home's "New conference" button: the create form, as the global shortcut opens it. */
export function registerConferenceNewButton(routes: ActionRoutes, deps: ConferenceDeps): void {
  routes.on(ids.actions.conferenceNew, async ({ user, channel, client, triggerId, log }) =>
    openConferenceForm(deps, client, triggerId, { user, channel, log }),
  );
}
