import type { App } from '@slack/bolt';
import { goneScope } from '../../jobs/delivery.js';
import type { TicketDeps } from '../actions/ticket-card.js';

/** When the bot is invited back into a channel it had been removed from, the ticket events kept for that channel are delivered. */
export function registerMemberJoinedChannel(app: App, deps: Pick<TicketDeps, 'store' | 'logger'>): void {
  app.event('member_joined_channel', async ({ event, context }) => {
    if (event.user !== context.botUserId || !(await deps.store.getSetting(goneScope, event.channel))) return;
    await deps.store.deleteSetting(goneScope, event.channel);
    const kept = await deps.store.unpark(event.channel);
    deps.logger.info(
      { channel: event.channel, kept },
      'back in a channel: delivering its kept ticket events',
    );
  });
}
