import { textMessage } from '../../blocks/kit.js';
import { buildSubscriptionReply, buildSubscriptions } from '../../blocks/subscriptions.js';
import { t } from '../../blocks/text.js';
import { ticketName } from '../../blocks/ticket-prompts.js';
import { parseFollowFilter } from '../../domain/follow-filter.js';
import { defaultReactionEmoji, takeReactionsWords } from '../../domain/reactions.js';
import type { TicketSummary } from '../../domain/ticket.js';
import type { Locale } from '../../i18n/locale.js';
import type { TicketDeps } from '../deps.js';
import type { Reply, Responder } from '../replies/reply-error.js';

/**
 * `/ticket watch <id|ref>` (this channel gets the ticket's events in the card's thread; the card is
 * posted when the channel has none), `/ticket unwatch <id|ref>`, `/ticket follow [filter]` (new
 * tickets and events matching the filter), `/ticket subscriptions` (listed privately, removable).
 */
export async function handleSubscriptionCommand(
  deps: TicketDeps & {
    postCard: (channel: string, ticket: { seen: TicketSummary }, respond: Responder) => Promise<void>;
  },
  verb: 'watch' | 'unwatch' | 'follow' | 'subscriptions',
  arg: string,
  who: { user: string; channel: string; locale: Locale },
  respond: Responder,
): Promise<void> {
  const say = (reply: Reply) => respond({ response_type: 'ephemeral', replace_original: true, ...reply });
  const { channel, user, locale } = who;
  if (verb === 'subscriptions') {
    await deps.access.require(user, 'subscription.list');
    const subs = await deps.subscriptions.list(channel);
    return void (await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildSubscriptions(locale, channel, subs),
    }));
  }
  if (verb === 'follow') {
    const words = takeReactionsWords(arg);
    if (words.reactions) {
      await reactionsCommand(deps, words.reactions, who, say);
      // `/ticket follow reactions` alone follows nothing more.
      if (!words.rest) return;
    }
    const parsed = parseFollowFilter(words.rest);
    if (!parsed.ok)
      return void (await say(textMessage(t(locale, parsed.problem.key, parsed.problem.values))));
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
    return void (await say(buildSubscriptionReply(locale, channel, { kind: 'followed', filter })));
  }
  const ticket = await deps.tickets.forAction(user, arg, 'ticket.watch');
  const name = ticketName(ticket);
  if (verb === 'unwatch') {
    const kind = (await deps.subscriptions.unwatch(channel, ticket.id)) ? 'unwatched' : 'not-watching';
    return void (await say(buildSubscriptionReply(locale, channel, { kind, ticket: name })));
  }
  // Read and checked above for `ticket.watch` (the same people as `ticket.see`): not read again.
  const postCard = () => deps.postCard(channel, { seen: ticket }, respond);
  if (!(await deps.subscriptions.watch(channel, ticket, user, postCard)))
    return void (await say(
      buildSubscriptionReply(locale, channel, { kind: 'already-watching', ticket: name }),
    ));
  await say(buildSubscriptionReply(locale, channel, { kind: 'watching', ticket: name }));
}

/**
 * `/ticket follow reactions` (on: anyone with a platform account) and `/ticket follow reactions off`
 * (the subscription's author or an admin, as its Remove button): whether the channel's emoji
 * reactions act on tickets (`events/reaction-added.ts`).
 */
async function reactionsCommand(
  deps: TicketDeps,
  turn: 'on' | 'off',
  who: { user: string; channel: string; locale: Locale },
  say: (reply: Reply) => Promise<unknown>,
): Promise<void> {
  const emoji = deps.reactions ?? defaultReactionEmoji;
  const asker = await deps.access.asker(who.user);
  if (turn === 'on') {
    deps.access.check(asker, 'channel.reactions');
    const on = await deps.subscriptions.reactionsOn(who.channel, who.user);
    await say(
      buildSubscriptionReply(who.locale, who.channel, {
        kind: on ? 'reactions-on' : 'reactions-already',
        emoji,
      }),
    );
    return;
  }
  const was = await deps.subscriptions.reactionsOff(who.channel, (s) =>
    deps.access.check(asker, 'subscription.remove', { kind: 'subscription', createdBy: s.createdBy }),
  );
  await say(
    buildSubscriptionReply(who.locale, who.channel, {
      kind: was ? 'reactions-off' : 'reactions-not-on',
      emoji,
    }),
  );
}
