import type { RespondFn } from '@slack/bolt';
import { button, context, escapeText, type MessagePayload, section } from '../../blocks/conference-card.js';
import { ids } from '../../blocks/ids.js';
import { describeFilter, parseFollowFilter } from '../../domain/follow-filter.js';
import type { Subscription } from '../../store/store.js';
import type { TicketDeps } from '../actions/ticket-card.js';

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
