import { describeFilter } from '../domain/follow-filter.js';
import type { ReactionEmoji } from '../domain/reactions.js';
import { ids } from './ids.js';
import {
  button,
  context,
  type MessagePayload,
  message,
  section,
  type TextMessage,
  textMessage,
} from './kit.js';
import { channelLink, joinMd, md, mention } from './mrkdwn.js';

/** A channel's subscription as the list shows it: one ticket (`watch`) or a filter (`follow`). */
export interface SubscriptionItem {
  id: string;
  kind: 'watch' | 'follow' | 'reactions';
  ticketId: string | undefined;
  filter: Record<string, unknown>;
  createdBy: string;
}

/** Slack allows 50 blocks a message: the title and the "added by" line leave room for 45. */
const shownSubscriptions = 45;

/** The channel's subscriptions, privately, each with a Remove button. */
export function buildSubscriptions(channel: string, subs: readonly SubscriptionItem[]): MessagePayload {
  const refOf = (s: SubscriptionItem) =>
    typeof s.filter.reference === 'string' ? s.filter.reference : `ticket ${s.ticketId ?? '?'}`;
  const title = md`What ${channelLink(channel)} follows`;
  if (subs.length === 0)
    return message(md`This channel follows nothing yet.`, [
      section(md`${title}: nothing yet. Try \`/ticket watch <id>\` or \`/ticket follow group:"Level 1"\`.`),
    ]);
  return message(title, [
    section(md`*${title}*`),
    ...subs
      .slice(0, shownSubscriptions)
      .map((s) =>
        section(
          s.kind === 'watch'
            ? md`👁 *${refOf(s)}* (watch)`
            : s.kind === 'reactions'
              ? md`🎫 Reactions act on tickets (\`/ticket follow reactions off\` turns them off)`
              : md`📡 New tickets and events: ${describeFilter(s.filter)}`,
          { accessory: button('Remove', `${ids.actions.ticketUnsubscribe}:${s.id}`, { value: s.id }) },
        ),
      ),
    context(md`Added by ${joinMd([...new Set(subs.map((s) => s.createdBy))].map(mention), ', ')}`),
  ]);
}

/** What a `/ticket watch|unwatch|follow` did, said privately to the person who typed it. */
export type SubscriptionOutcome =
  | { kind: 'followed'; filter: Record<string, unknown> }
  | {
      kind: 'reactions-on' | 'reactions-already' | 'reactions-off' | 'reactions-not-on';
      emoji: ReactionEmoji;
    }
  | { kind: 'watching' | 'already-watching' | 'unwatched' | 'not-watching'; ticket: string };

/** The sentence for a subscription command's outcome (`ticket`: the ticket's reference or "ticket 12"). */
export function buildSubscriptionReply(channel: string, o: SubscriptionOutcome): TextMessage {
  const where = channelLink(channel);
  switch (o.kind) {
    case 'followed':
      return textMessage(md`${where} now follows new tickets and their events: ${describeFilter(o.filter)}.`);
    case 'watching':
      return textMessage(md`${where} now watches ${o.ticket}: its events go in the card's thread.`);
    case 'already-watching':
      return textMessage(md`${where} already watches ${o.ticket}.`);
    case 'unwatched':
      return textMessage(md`${where} no longer watches ${o.ticket}.`);
    case 'not-watching':
      return textMessage(md`${where} was not watching ${o.ticket}.`);
    case 'reactions-on':
    case 'reactions-already': {
      const e = o.emoji;
      const now = o.kind === 'reactions-on' ? md`now act` : md`already act`;
      return textMessage(
        md`Reactions in ${where} ${now} on tickets: :${e.create}: on a message offers its reactor a ticket, :${e.take}: on a ticket's card takes it, :${e.done}: moves it to done. Each checks the reactor's rights. \`/ticket follow reactions off\` turns them off.`,
      );
    }
    case 'reactions-off':
      return textMessage(md`Reactions in ${where} no longer act on tickets.`);
    case 'reactions-not-on':
      return textMessage(md`Reactions in ${where} were not acting on tickets.`);
  }
}
