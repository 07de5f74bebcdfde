import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { buildGroupsBrowser, buildPeopleBrowser } from '../../blocks/people.js';
import { tPlain } from '../../blocks/text.js';
import type { MessageKey } from '../../i18n/catalog.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import type { PeopleService } from '../../services/people.js';
import { workingText } from '../replies/working-notice.js';
import { openModalThenLoad } from './working-modal.js';

/*
 * The People and Groups browsers as any door opens them: `/conference admin people|groups`,
 * the App Home's buttons (`ids.actions.peopleOpen`, `groupsOpen`), and the screens pushed over them.
 * They are written in the language of the admin who opens them (`locale`).
 */

/** Who opens a browser, and from where (a command's or a click's trigger), and their language. */
export interface BrowserOpen {
  user: string;
  triggerId: string;
  client: WebClient;
  log: Logger;
  channel?: string | undefined;
  locale: Locale;
}

/** What the browsers need of the bot. */
export interface BrowserDeps {
  people: PeopleService;
  waitMs: () => number;
}

/** Opens the People browser (a working view at once, the first page in place); refusals are told in it. */
export function openPeopleBrowser(deps: BrowserDeps, o: BrowserOpen & { search?: string }): Promise<void> {
  const { locale } = o;
  return openModalThenLoad(
    o.client,
    {
      ...o,
      title: tPlain(locale, 'people.browser.title'),
      working: peopleWorking(deps, locale, 'people.working.people'),
    },
    async () =>
      buildPeopleBrowser(locale, await deps.people.list(o.user, { search: o.search ?? '', offset: 0 })),
  );
}

/** Opens the Groups browser. */
export function openGroupsBrowser(deps: BrowserDeps, o: BrowserOpen): Promise<void> {
  const { locale } = o;
  return openModalThenLoad(
    o.client,
    {
      ...o,
      title: tPlain(locale, 'people.groups.title'),
      working: peopleWorking(deps, locale, 'people.working.groups'),
    },
    async () => buildGroupsBrowser(locale, await deps.people.groups(o.user)),
  );
}

/** The "working" sentence of a screen in `locale`, with the rate budget's wait. */
export const peopleWorking = (deps: { waitMs: () => number }, locale: Locale, what: MessageKey): Mrkdwn =>
  workingText(locale, tPlain(locale, what), deps.waitMs());
