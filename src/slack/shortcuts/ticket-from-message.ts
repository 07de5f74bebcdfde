import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { ids } from '../../blocks/ids.js';
import { tPlain } from '../../blocks/text.js';
import { responderFor } from '../../outbound/respond.js';
import type { TicketFormDeps } from '../deps.js';
import { openTicketForm } from '../openers/forms.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** "Create assistance ticket" on a message: the form, with the message as description and a link back. */
export const handleTicketFromMessage =
  (deps: TicketFormDeps) =>
  async ({
    ack,
    shortcut,
    client,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const channel = shortcut.channel.id;
    const messageTs = shortcut.message_ts;
    const messageText = shortcut.message.text ?? '';
    const user = shortcut.user.id;
    const log = requestLog(deps.logger, { user, team: shortcut.team?.id, callback: shortcut.callback_id });
    // A failure is said privately beside the message (the shortcut's response_url).
    const respond = responderFor(shortcut.response_url);
    // The person's language (at most a second, then kept in their profile for the form).
    const locale = await deps.locales.person(user);
    afterAck({ kind: 'button', respond, client, user, channel, log, locale }, async () => {
      const link = await client.chat.getPermalink({ channel, message_ts: messageTs }).then(
        (r) => r.permalink,
        () => undefined,
      );
      const description = [messageText, link ? tPlain(locale, 'ticketForm.fromSlack', { link }) : undefined]
        .filter(Boolean)
        .join('\n\n');
      await openTicketForm(deps, client, shortcut.trigger_id, user, {
        channel,
        emails: [],
        phones: [],
        scopes: [],
        description,
      });
    });
  };

/** Registers `handleTicketFromMessage`. */
export function registerTicketFromMessage(app: Listeners, deps: TicketFormDeps): void {
  app.shortcut<MessageShortcut>(ids.shortcuts.ticketFromMessage, handleTicketFromMessage(deps));
}
