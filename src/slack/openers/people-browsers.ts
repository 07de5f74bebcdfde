import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { buildGroupsBrowser, buildPeopleBrowser } from '../../blocks/people.js';
import type { Logger } from '../../observability/logger.js';
import type { PeopleService } from '../../services/people.js';
import { workingText } from '../replies/working-notice.js';
import { openModalThenLoad } from './working-modal.js';

/*
 * The People and Groups browsers as any door opens them: `/conference admin people|groups`,
 * the App Home's buttons (`ids.actions.peopleOpen`, `groupsOpen`), and the screens pushed over them.
 */

/** Who opens a browser, and from where (a command's or a click's trigger). */
export interface BrowserOpen {
  user: string;
  triggerId: string;
  client: WebClient;
  log: Logger;
  channel?: string | undefined;
}

/** What the browsers need of the bot. */
export interface BrowserDeps {
  people: PeopleService;
  waitMs: () => number;
}

/** Opens the People browser (a working view at once, the first page in place); refusals are told in it. */
export function openPeopleBrowser(deps: BrowserDeps, o: BrowserOpen & { search?: string }): Promise<void> {
  return openModalThenLoad(
    o.client,
    { ...o, title: 'People', working: workingText('Looking up the people', deps.waitMs()) },
    async () => buildPeopleBrowser(await deps.people.list(o.user, { search: o.search ?? '', offset: 0 })),
  );
}

/** Opens the Groups browser. */
export function openGroupsBrowser(deps: BrowserDeps, o: BrowserOpen): Promise<void> {
  return openModalThenLoad(
    o.client,
    { ...o, title: 'Groups', working: workingText('Looking up the groups', deps.waitMs()) },
    async () => buildGroupsBrowser(await deps.people.groups(o.user)),
  );
}

/** The "working" sentence of a screen, with the rate budget's wait. */
export const peopleWorking = (deps: BrowserDeps, what: string): Mrkdwn => workingText(what, deps.waitMs());
