import type { DoubleContext, Methods } from './context.js';

/** `conversations.*`: a channel's history, a thread's replies, a channel's name and whether the bot is in it. */
export function conversationsMethods({ double }: DoubleContext): Methods {
  return {
    'conversations.replies': {
      answer: (a) => {
        // The parent first, then its replies oldest first, as Slack answers.
        const thread = double.messages.filter(
          (m) => m.channel === a.channel && (m.ts === a.ts || m.thread_ts === a.ts),
        );
        return pageOf(thread, a, (m) => ({
          ts: m.ts,
          thread_ts: m.thread_ts,
          text: m.text,
          user: m.user,
          ...(a.include_all_metadata && m.metadata ? { metadata: m.metadata } : {}),
        }));
      },
    },
    'conversations.history': {
      answer: (a) => {
        // Newest first, as Slack answers.
        const top = double.messages.filter((m) => m.channel === a.channel && !m.thread_ts).reverse();
        return pageOf(top, a, (m) => ({
          ts: m.ts,
          text: m.text,
          user: m.user,
          ...(a.include_all_metadata && m.metadata ? { metadata: m.metadata } : {}),
        }));
      },
    },
    // A person's direct messages with the bot: one D… channel per person, the same at every open.
    // https://docs.slack.dev/reference/methods/conversations.open
    'conversations.open': {
      answer: (a) => {
        const users = String(a.users ?? '')
          .split(',')
          .filter(Boolean);
        if (users.length !== 1)
          return { ok: false, error: users.length ? 'not_implemented' : 'users_list_not_supplied' };
        const user = users[0] as string;
        if (!double.users.has(user)) return { ok: false, error: 'user_not_found' };
        const id = dmChannelOf(user);
        double.dmOpens.push(user);
        return { ok: true, channel: { id } };
      },
    },
    'conversations.info': {
      answer: (a) => ({
        ok: true,
        channel: {
          id: a.channel,
          name: double.channelNames.get(String(a.channel)) ?? `channel-${String(a.channel).toLowerCase()}`,
          is_member: !double.notInChannel.has(String(a.channel)),
        },
      }),
    },
  };
}

/** The double's DM channel between the bot and `user` (`UABC` → `DABC`): stable, as Slack's is. */
export const dmChannelOf = (user: string): string => `D${user.replace(/^[UW]/, '')}`;

/**
 * A page of conversations.history / conversations.replies as Slack answers it: only messages within
 * `oldest`/`latest` (exclusive unless `inclusive`), at most `limit` (Slack's default 100, its maximum
 * 999 for history, 1,000 for replies), the next page behind `response_metadata.next_cursor`.
 * https://docs.slack.dev/reference/methods/conversations.history
 */
function pageOf<M extends { ts: string }>(
  list: M[],
  a: Record<string, unknown>,
  shape: (m: M) => Record<string, unknown>,
): Record<string, unknown> {
  const inclusive = a.inclusive === true || a.inclusive === 'true';
  const oldest = a.oldest === undefined ? undefined : Number(a.oldest);
  const latest = a.latest === undefined ? undefined : Number(a.latest);
  const within = list.filter((m) => {
    const t = Number(m.ts);
    if (oldest !== undefined && (inclusive ? t < oldest : t <= oldest)) return false;
    if (latest !== undefined && (inclusive ? t > latest : t >= latest)) return false;
    return true;
  });
  const limit = Math.min(Math.max(Number(a.limit ?? 100) || 100, 1), 1_000);
  const from =
    typeof a.cursor === 'string' && a.cursor ? Number(Buffer.from(a.cursor, 'base64').toString()) : 0;
  const page = within.slice(from, from + limit);
  const next = from + limit < within.length ? Buffer.from(String(from + limit)).toString('base64') : '';
  return {
    ok: true,
    messages: page.map(shape),
    has_more: next !== '',
    response_metadata: { next_cursor: next },
  };
}
