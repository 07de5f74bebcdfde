/*
 * Emoji reactions on a desk's messages, in a channel that turned them on: one emoji offers a ticket
 * from any message, one takes a ticket from its card, one moves it to done. Pure: which reaction is
 * which, and the `reactions` words of `/ticket follow`.
 */

/** What a reaction asks for. */
export type ReactionKind = 'create' | 'take' | 'done';

/** The emoji (Slack's names, without colons) of each reaction. */
export type ReactionEmoji = Record<ReactionKind, string>;

/** The defaults: 🎫 :ticket:, 👀 :eyes:, ✅ :white_check_mark:. */
export const defaultReactionEmoji: ReactionEmoji = {
  create: 'ticket',
  take: 'eyes',
  done: 'white_check_mark',
};

/**
 * What a reaction's name asks for, or undefined for any other emoji. A skin tone (`+1::skin-tone-2`)
 * counts as its emoji.
 */
export function reactionKind(reaction: string, emoji: ReactionEmoji): ReactionKind | undefined {
  const base = reaction.split('::')[0] ?? reaction;
  return (Object.keys(emoji) as ReactionKind[]).find((k) => emoji[k] === base);
}

/**
 * `/ticket follow` text with its `reactions` words taken out: `reactions` (turn them on) or
 * `reactions off` (turn them off), anywhere in the text; the rest is the follow filter.
 */
export function takeReactionsWords(text: string): { reactions: 'on' | 'off' | undefined; rest: string } {
  const words = text.split(/\s+/).filter(Boolean);
  const at = words.findIndex((w) => w.toLowerCase() === 'reactions');
  if (at < 0) return { reactions: undefined, rest: text.trim() };
  const next = words[at + 1]?.toLowerCase();
  const off = next === 'off';
  words.splice(at, off || next === 'on' ? 2 : 1);
  return { reactions: off ? 'off' : 'on', rest: words.join(' ') };
}
