import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md } from '../../blocks/mrkdwn.js';
import { textNotRead } from '../../blocks/reactions.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { deliveryClient } from '../../outbound/clients.js';
import { slackAnswerOf } from '../../util/slack-errors.js';
import { within } from '../../util/within.js';

/*
 * A reacted message as the ticket form takes it (`reaction_added` carries neither its text nor a
 * trigger): its permalink, and its text where the bot may read it. Read on the *Create ticket* click,
 * once the form's "Loading…" is open, so that only a reaction someone acts on costs a read.
 */

/** How long the form waits for the message's text (Slack may hold history reads a minute). */
export const messageReadMs = 2_500;

/**
 * A client that neither retries nor waits out a 429 (Slack's history limits for apps outside the
 * Marketplace are as low as one read a minute): @slack/web-api's own waits pause every call of the
 * client, the form's `views.update` included. A test's recording client (no token) is used as it is.
 */
function readerFor(client: WebClient): WebClient {
  const token = (client as { token?: unknown }).token;
  if (typeof token !== 'string') return client;
  return deliveryClient({ token, apiUrl: client.slackApiUrl });
}

/** Why the text could not be read, in the form's words. */
function whyUnread(error: unknown): Mrkdwn {
  const answer = slackAnswerOf(error);
  if (answer?.kind === 'rate_limited')
    return md`Slack allows apps outside its Marketplace only a few reads of a channel’s messages a minute`;
  if (answer?.kind === 'refusal')
    return md`Slack refused the read: ${answer.code ?? 'no reason given'}; the app needs the history scopes of manifest.yml and to be in the channel`;
  return md`Slack did not answer in time`;
}

/**
 * The form's description for the message `ts` of `channel`: its text (one `conversations.replies`,
 * which finds a thread's reply as well as a channel's message) then "From Slack: <permalink>". When
 * the text cannot be read within `messageReadMs`, the link alone and a notice saying why.
 */
export async function reactedMessagePrefill(
  client: WebClient,
  channel: string,
  ts: string,
): Promise<{ values: Partial<TicketFormValues>; notices: Mrkdwn[] }> {
  const reader = readerFor(client);
  const [linked, read] = await Promise.all([
    within(
      reader.chat.getPermalink({ channel, message_ts: ts }).then((r) => r.permalink),
      messageReadMs,
    ),
    within(
      reader.conversations
        .replies({ channel, ts, oldest: ts, latest: ts, inclusive: true, limit: 2 })
        .then((r) => r.messages?.find((m) => m.ts === ts)),
      messageReadMs,
    ),
  ]);
  const permalink = linked && 'value' in linked ? linked.value : undefined;
  const notices: Mrkdwn[] = [];
  let text: string | undefined;
  if (read && 'value' in read) text = read.value?.text ?? undefined;
  else notices.push(textNotRead(whyUnread(read && 'error' in read ? read.error : undefined)));
  const description = [text, permalink ? `From Slack: ${permalink}` : undefined].filter(Boolean).join('\n\n');
  return { values: description ? { description } : {}, notices };
}
