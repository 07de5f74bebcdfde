import type { App } from '@slack/bolt';
import { ids } from '../ids.js';

/** Usage of `/conference`, shown by `/conference help` and after a command the bot cannot read. */
export const conferenceUsage = [
  '*`/conference`* — plan a video conference',
  '• `/conference` opens the form',
  '• `/conference alice@example.com +33612345678 @bob tomorrow 3pm 45m "Weekly sync"` creates it directly',
  '• `/conference list [upcoming|past|<search>]`, `/conference show <id or room>`, `/conference delete <id>`',
  '• `/conference help` shows this message',
].join('\n');

/** Registers `/conference`. Today it answers `help`; the create flow lands with the rest of issue 3. */
export function registerConferenceCommand(app: App): void {
  app.command(ids.commands.conference, async ({ ack }) => {
    await ack({ response_type: 'ephemeral', text: conferenceUsage });
  });
}
