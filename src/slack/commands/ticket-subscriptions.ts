import type { App, BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import { button, context, escapeText, type MessagePayload, section } from '../../blocks/conference-card.js';
import { ids } from '../../blocks/ids.js';
import { describeFilter, parseFollowFilter } from '../../domain/follow-filter.js';
import type { Subscription } from '../../store/store.js';
import type { TicketDeps } from '../actions/ticket-card.js';
import { detach } from '../after-ack.js';
import { describeError, tellIfSlow } from '../describe-error.js';
import { readValue, staleValue, subscriptionId } from '../payloads.js';

/** The channel's subscriptions, privately, each with a Remove button. */
export function buildSubscriptions(channel: string, subs: Subscription[]): MessagePayload {
  const refOf = (s: Subscription) =>
    typeof s.filter.reference === 'string' ? s.filter.reference : `ticket ${s.ticketId ?? '?'}`;
  const title = `What <#${channel}> follows`;
  if (subs.length === 0)
    return {
      text: 'This channel follows nothing yet.',
      blocks: [
        section(`${title}: nothing yet. Try \`/ticket watch <id>\` or \`/ticket follow group:"Level 1"\`.`),
      ],
    };
  return {
    text: title,
    blocks: [
      section(`*${title}*`),
      ...subs
        .slice(0, 45)
        .map((s) =>
          section(
            s.kind === 'watch'
              ? `👁 *${escapeText(refOf(s))}* (watch)`
              : `📡 New tickets and events: ${escapeText(describeFilter(s.filter))}`,
            { accessory: button('Remove', `${ids.actions.ticketUnsubscribe}:${s.id}`, { value: s.id }) },
          ),
        ),
      context(`Added by ${[...new Set(subs.map((s) => `<@${s.createdBy}>`))].join(', ')}`),
    ],
  };
}

/**
 * `/ticket watch <id|ref>` (this channel gets the ticket's events in the card's thread; the card is
 * posted when the channel has none), `/ticket unwatch <id|ref>`, `/ticket follow [filter]` (new
 * tickets and events matching the filter), `/ticket subscriptions` (listed privately, removable).
 */
export async function handleSubscriptionCommand(
  deps: TicketDeps & { postCard: (channel: string, ref: string, respond: RespondFn) => Promise<void> },
  verb: 'watch' | 'unwatch' | 'follow' | 'subscriptions',
  arg: string,
  who: { user: string; channel: string },
  respond: RespondFn,
): Promise<void> {
  const say = (text: string) => respond({ response_type: 'ephemeral', replace_original: true, text });
  const { channel, user } = who;
  if (verb === 'subscriptions') {
    await deps.access.require(user, 'subscription.list');
    const subs = await deps.subscriptions.list(channel);
    return void (await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildSubscriptions(channel, subs),
    }));
  }
  if (verb === 'follow') {
    const parsed = parseFollowFilter(arg);
    if (!parsed.ok) return void (await say(parsed.error));
    // Follows reach only the groups the person belongs to; every group's tickets are for admins.
    const asker = await deps.access.asker(user);
    const filter: Record<string, unknown> = { ...parsed.filter };
    if (!parsed.filter.group) deps.access.check(asker, 'ticket.follow-all');
    else {
      if (!asker.account) deps.access.check(asker, 'ticket.follow-group');
      filter.groupId = await deps.tickets.groupId(parsed.filter.group);
      deps.access.check(asker, 'ticket.follow-group', { kind: 'group', groupId: filter.groupId as string });
    }
    await deps.subscriptions.follow(channel, filter, user);
    return void (await say(
      `<#${channel}> now follows new tickets and their events: ${escapeText(describeFilter(filter))}.`,
    ));
  }
  const ticket = await deps.tickets.forAction(user, arg, 'ticket.watch');
  const name = escapeText(ticket.reference ?? `ticket ${ticket.id}`);
  if (verb === 'unwatch')
    return void (await say(
      (await deps.subscriptions.unwatch(channel, ticket.id))
        ? `<#${channel}> no longer watches ${name}.`
        : `<#${channel}> was not watching ${name}.`,
    ));
  const postCard = () => deps.postCard(channel, ticket.id, respond);
  if (!(await deps.subscriptions.watch(channel, ticket, user, postCard)))
    return void (await say(`<#${channel}> already watches ${name}.`));
  await say(`<#${channel}> now watches ${name}: its events go in the card's thread.`);
}

/**
 * The Remove buttons of `/ticket subscriptions`; and, when the bot is invited back into a channel it
 * had been removed from, the ticket events kept for that channel are delivered.
 */
export function registerSubscriptionActions(app: App, deps: TicketDeps & { waitMs: () => number }): void {
  app.event('member_joined_channel', async ({ event, context }) => {
    if (event.user !== context.botUserId) return;
    const kept = await deps.subscriptions.backInChannel(event.channel);
    if (kept === undefined) return;
    deps.logger.info(
      { channel: event.channel, kept },
      'back in a channel: delivering its kept ticket events',
    );
  });
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^${ids.actions.ticketUnsubscribe}:`),
    async ({ ack, body, action, respond }) => {
      await ack();
      const channel = body.channel?.id ?? '';
      const value = action.value;
      const user = body.user.id;
      detach(deps.logger, async () => {
        await tellIfSlow(respond, 'Removing the subscription', deps.waitMs());
        try {
          // Only a subscription of the channel the list was shown in, by its author or an admin.
          const id = readValue(subscriptionId, value);
          const subs = await deps.subscriptions.remove(channel, id, async (sub) => {
            const asker = await deps.access.asker(user);
            deps.access.check(asker, 'subscription.remove', {
              kind: 'subscription',
              createdBy: sub.createdBy,
            });
          });
          if (!subs) throw staleValue();
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildSubscriptions(channel, subs),
          });
        } catch (error) {
          await respond({
            response_type: 'ephemeral',
            replace_original: false,
            text: describeError(error, deps.logger, channel),
          });
        }
      });
    },
  );
}
