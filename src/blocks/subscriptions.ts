import type { ReactionEmoji } from '../domain/reactions.js';
import type { Locale } from '../i18n/locale.js';
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
import { t, tPlain } from './text.js';

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

/**
 * A `follow` filter in words, for the person reading it (`domain/follow-filter.ts` `describeFilter`):
 * its keys and values as `/ticket follow` takes them, or "every ticket".
 */
const filterWords = (locale: Locale, f: Record<string, unknown>): string => {
  const parts = Object.entries(f)
    .filter(([k]) => k !== 'groupId')
    .map(([k, v]) => (v === true ? k : `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`));
  return parts.length ? parts.join(' · ') : tPlain(locale, 'ticket.subs.everyTicket');
};

/** The channel's subscriptions, privately (the person's language), each with a Remove button. */
export function buildSubscriptions(
  locale: Locale,
  channel: string,
  subs: readonly SubscriptionItem[],
): MessagePayload {
  const refOf = (s: SubscriptionItem) =>
    typeof s.filter.reference === 'string'
      ? s.filter.reference
      : tPlain(locale, 'ticket.subs.ticketNumber', { id: s.ticketId ?? '?' });
  const where = channelLink(channel);
  if (subs.length === 0)
    return message(t(locale, 'ticket.subs.noneFallback'), [
      section(t(locale, 'ticket.subs.none', { channel: where })),
    ]);
  const title = t(locale, 'ticket.subs.title', { channel: where });
  const authors = [...new Set(subs.map((s) => s.createdBy))];
  return message(title, [
    section(md`*${title}*`),
    ...subs.slice(0, shownSubscriptions).map((s) =>
      section(
        s.kind === 'watch'
          ? t(locale, 'ticket.subs.watch', { ref: refOf(s) })
          : s.kind === 'reactions'
            ? t(locale, 'ticket.subs.reactions')
            : t(locale, 'ticket.subs.follow', { filter: filterWords(locale, s.filter) }),
        {
          accessory: button(
            tPlain(locale, 'ticket.subs.remove'),
            `${ids.actions.ticketUnsubscribe}:${s.id}`,
            {
              value: s.id,
            },
          ),
        },
      ),
    ),
    context(
      t(locale, 'ticket.subs.addedBy', { count: subs.length, people: joinMd(authors.map(mention), ', ') }),
    ),
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

/**
 * The sentence for a subscription command's outcome, in the person's language (`ticket`: the
 * ticket's reference or "ticket 12").
 */
export function buildSubscriptionReply(locale: Locale, channel: string, o: SubscriptionOutcome): TextMessage {
  const where = channelLink(channel);
  switch (o.kind) {
    case 'followed':
      return textMessage(
        t(locale, 'ticket.subs.followed', { channel: where, filter: filterWords(locale, o.filter) }),
      );
    case 'watching':
      return textMessage(t(locale, 'ticket.subs.watching', { channel: where, ticket: o.ticket }));
    case 'already-watching':
      return textMessage(t(locale, 'ticket.subs.alreadyWatching', { channel: where, ticket: o.ticket }));
    case 'unwatched':
      return textMessage(t(locale, 'ticket.subs.unwatched', { channel: where, ticket: o.ticket }));
    case 'not-watching':
      return textMessage(t(locale, 'ticket.subs.notWatching', { channel: where, ticket: o.ticket }));
    case 'reactions-on':
    case 'reactions-already': {
      const e = o.emoji;
      return textMessage(
        t(locale, o.kind === 'reactions-on' ? 'ticket.subs.reactionsOn' : 'ticket.subs.reactionsAlready', {
          channel: where,
          create: md`:${e.create}:`,
          take: md`:${e.take}:`,
          done: md`:${e.done}:`,
        }),
      );
    }
    case 'reactions-off':
      return textMessage(t(locale, 'ticket.subs.reactionsOff', { channel: where }));
    case 'reactions-not-on':
      return textMessage(t(locale, 'ticket.subs.reactionsNotOn', { channel: where }));
  }
}
