import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildWorkingView } from '../blocks/modal.js';
import type { Mrkdwn } from '../blocks/mrkdwn.js';
import { buildGroupsBrowser, buildPeopleBrowser } from '../blocks/people.js';
import type { Logger } from '../observability/logger.js';
import type { PeopleService } from '../services/people.js';
import { workingText } from './describe-error.js';
import { openModalThenLoad } from './modal-flow.js';
import { afterAck } from './route.js';

/*
 * The People and Groups browsers as any door opens them (issue 22): `/conference admin people|groups`,
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
export interface PeopleFlowDeps {
  people: PeopleService;
  waitMs: () => number;
}

/** Opens the People browser (a working view at once, the first page in place); refusals are told in it. */
export function openPeopleBrowser(deps: PeopleFlowDeps, o: BrowserOpen & { search?: string }): Promise<void> {
  return openModalThenLoad(
    o.client,
    { ...o, title: 'People', working: workingText('Looking up the people', deps.waitMs()) },
    async () => buildPeopleBrowser(await deps.people.list(o.user, { search: o.search ?? '', offset: 0 })),
  );
}

/** Opens the Groups browser. */
export function openGroupsBrowser(deps: PeopleFlowDeps, o: BrowserOpen): Promise<void> {
  return openModalThenLoad(
    o.client,
    { ...o, title: 'Groups', working: workingText('Looking up the groups', deps.waitMs()) },
    async () => buildGroupsBrowser(await deps.people.groups(o.user)),
  );
}

/**
 * Pushes a modal over the one clicked in at once (a trigger lasts 3 s), then shows what `load` builds
 * in its place; what `load` throws is told in the pushed modal.
 */
export async function pushThenLoad(
  client: WebClient,
  o: { triggerId: string; title: string; working: Mrkdwn; log: Logger },
  load: () => Promise<ModalView>,
): Promise<void> {
  const pushed = await client.views.push({
    trigger_id: o.triggerId,
    view: buildWorkingView(o.title, o.working),
  });
  const viewId = pushed.view?.id;
  if (!viewId) return;
  const show = (view: ModalView) => client.views.update({ view_id: viewId, view });
  afterAck({ kind: 'modal', show, title: o.title, log: o.log }, async () => show(await load()));
}

/** The "working" sentence of a screen, with the rate budget's wait. */
export const peopleWorking = (deps: PeopleFlowDeps, what: string): Mrkdwn => workingText(what, deps.waitMs());
