import type { App } from '@slack/bolt';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { ActionRoutes } from './action-routes.js';
import { type Listeners, ListenerTables } from './listener-tables.js';

/**
 * What every registrar adds its rows to: the commands', views', shortcuts', menus' options' and
 * events' tables (`ListenerTables`, Bolt's own calls) and the buttons' and menus' routes
 * (`ActionRoutes`). A whole confdesk and a workspace that waits for its settings fill the same ones.
 */
export interface Surfaces {
  listeners: Listeners;
  actions: ActionRoutes;
}

/**
 * Builds the tables, lets `register` add every surface's rows, then gives Bolt each kind's one
 * listener. `logger`, `waitMs` and `locale` are the buttons' (their requests' lines, their "Working…",
 * the clicker's language).
 */
export function installSurfaces(
  app: App,
  o: { logger: Logger; waitMs: () => number; locale?: (user: string) => Promise<Locale> },
  register: (on: Surfaces) => void,
): void {
  const tables = new ListenerTables();
  const actions = new ActionRoutes(o.logger, o.waitMs, o.locale);
  register({ listeners: tables.listeners, actions });
  actions.install(app);
  tables.install(app);
}
