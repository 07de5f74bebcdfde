import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { TicketDeps } from '../deps.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** When the bot is invited back into a channel it had been removed from, the ticket events kept for that channel are delivered. */
export const handleMemberJoinedChannel =
  (deps: Pick<TicketDeps, 'subscriptions' | 'logger'>) =>
  async ({
    event,
    context,
  }: SlackEventMiddlewareArgs<'member_joined_channel'> & AllMiddlewareArgs): Promise<void> => {
    if (event.user !== context.botUserId) return;
    const kept = await deps.subscriptions.backInChannel(event.channel);
    if (kept === undefined) return;
    deps.logger.info(
      { channel: event.channel, kept },
      'back in a channel: delivering its kept ticket events',
    );
  };

/** Registers `handleMemberJoinedChannel`. */
export function registerMemberJoinedChannel(
  app: Listeners,
  deps: Pick<TicketDeps, 'subscriptions' | 'logger'>,
): void {
  app.event('member_joined_channel', handleMemberJoinedChannel(deps));
}
