import type { App } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { ids } from '../../blocks/ids.js';
import type { Logger } from '../../observability/logger.js';
import { type ConferenceDeps, formFromText } from '../conference-flows.js';
import { afterAck, requestLog } from '../route.js';

/**
 * Opens the create form for a door without a command's text (the global shortcut, Home's button).
 * A refusal (no account) is shown in a modal: a shortcut from Home has no channel to answer in.
 */
export function openConferenceForm(
  deps: ConferenceDeps,
  client: WebClient,
  triggerId: string,
  who: { user: string; channel?: string | undefined; log: Logger },
): void {
  const show = (view: ModalView) => client.views.open({ trigger_id: triggerId, view });
  afterAck({ kind: 'modal', show, title: 'New conference', log: who.log }, async () =>
    show(await formFromText(deps, who.user, who.channel, '')),
  );
}

/** The global "New conference" shortcut. */
export function registerConferenceNew(app: App, deps: ConferenceDeps): void {
  app.shortcut(ids.shortcuts.conferenceNew, async ({ ack, shortcut, client }) => {
    await ack();
    const user = shortcut.user.id;
    const log = requestLog(deps.logger, { user, team: shortcut.team?.id, callback: shortcut.callback_id });
    openConferenceForm(deps, client, shortcut.trigger_id, { user, log });
  });
}
