import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Unfurl } from '../../blocks/unfurl.js';
import { unfurlLinksMax } from '../../services/unfurls.js';
import type { UnfurlDeps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';

type LinkSharedArgs = SlackEventMiddlewareArgs<'link_shared'> & AllMiddlewareArgs;

/**
 * A message (or the composer) holds links of the app's `unfurl_domains`: each that is a ticket, a
 * conference or a media the person who posted it may see becomes a compact card under it
 * (`chat.unfurl`, one call for the message's links). The channel sees the card, so it shows what the
 * poster may see and no contact detail; a link they may not see, or posted by someone without a
 * platform account, stays a plain link, and nothing is said in the channel. Slack acks the event
 * before this runs; the reads are background work (`UnfurlService`).
 */
export const handleLinkShared =
  (deps: UnfurlDeps) =>
  async ({ event, client }: LinkSharedArgs): Promise<void> => {
    const user = event.user;
    const links = [...new Set((event.links ?? []).map((l) => l.url))]
      .filter((url) => typeof url === 'string' && deps.unfurls.target(url) !== undefined)
      .slice(0, unfurlLinksMax);
    if (!user || links.length === 0) return;
    const unfurls: Record<string, Unfurl> = {};
    for (const url of links) {
      try {
        const unfurl = await deps.unfurls.preview(user, url, deps.locales.channel);
        if (unfurl) unfurls[url] = unfurl;
      } catch (error) {
        // A platform or Slack failure leaves the link plain; the channel is told nothing.
        deps.logger.warn({ err: error, channel: event.channel }, 'could not unfurl a link');
      }
    }
    if (Object.keys(unfurls).length === 0) return;
    // The composer's links (before the message exists) are addressed by their unfurl id; a posted
    // message's by its channel and ts, which a click's unfurl again uses too.
    const target =
      event.source === 'composer' && event.unfurl_id
        ? { unfurl_id: event.unfurl_id, source: 'composer' as const }
        : { channel: event.channel, ts: event.message_ts };
    await client.chat
      .unfurl({ ...target, unfurls })
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, channel: event.channel }, 'Slack refused an unfurl'),
      );
  };

/** Registers `handleLinkShared`: a row of the event table, keyed by the event's type. */
export function registerLinkShared(app: Listeners, deps: UnfurlDeps): void {
  app.event('link_shared', handleLinkShared(deps));
}
