import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { ids } from '../../blocks/ids.js';
import type { ConferenceDeps } from '../deps.js';
import { openConferenceForm } from '../openers/forms.js';
import { requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** The global "New conference" shortcut. */
export const handleConferenceNew =
  (deps: ConferenceDeps) =>
  async ({
    ack,
    shortcut,
    client,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const user = shortcut.user.id;
    const log = requestLog(deps.logger, { user, team: shortcut.team?.id, callback: shortcut.callback_id });
    openConferenceForm(deps, client, shortcut.trigger_id, { user, log });
  };

/** Registers `handleConferenceNew`. */
export function registerConferenceNew(app: Listeners, deps: ConferenceDeps): void {
  app.shortcut(ids.shortcuts.conferenceNew, handleConferenceNew(deps));
}
