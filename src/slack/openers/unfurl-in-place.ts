import type { WebClient } from '@slack/web-api';
import type { Unfurl } from '../../blocks/unfurl.js';

/**
 * Shows a link's unfurl again, in place: `chat.unfurl` on the same message and link replaces the
 * card it attached before (https://api.slack.com/methods/chat.unfurl). A click on an unfurl's button
 * ends here where a click on a card would edit the card: the message is the poster's, not the bot's.
 */
export async function showUnfurl(
  client: Pick<WebClient, 'chat'>,
  place: { url: string; channel: string; ts: string },
  unfurl: Unfurl,
): Promise<void> {
  await client.chat.unfurl({ channel: place.channel, ts: place.ts, unfurls: { [place.url]: unfurl } });
}
