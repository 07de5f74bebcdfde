import type { App } from '@slack/bolt';
import type { TicketDeps } from '../actions/ticket-card.js';

/** When the bot is invited back into a channel it had been removed from, the ticket events kept for that channel are delivered. */
export function registerMemberJoinedChannel(
  app: App,
  deps: Pick<TicketDeps, 'subscriptions' | 'logger'>,
): void {
  app.event('member_joined_channel', async ({ event, context }) => {
    if (event.user !== context.botUserId) return;
    const kept = await deps.subscriptions.backInChannel(event.channel);
    if (kept === undefined) return;
    deps.logger.info(
      { channel: event.channel, kept },
      'back in a channel: delivering its kept ticket events',
    );
  });
}
