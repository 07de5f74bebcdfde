import { describe, expect, it } from 'vitest';
import { defaultReactionEmoji, reactionKind, takeReactionsWords } from '../../src/domain/reactions.js';

describe('reactions', () => {
  it('tells which reaction asks for what, skin tones included; any other emoji asks for nothing', () => {
    expect(reactionKind('ticket', defaultReactionEmoji)).toBe('create');
    expect(reactionKind('eyes', defaultReactionEmoji)).toBe('take');
    expect(reactionKind('white_check_mark', defaultReactionEmoji)).toBe('done');
    expect(reactionKind('heavy_check_mark', defaultReactionEmoji)).toBeUndefined();
    const custom = { ...defaultReactionEmoji, take: 'raised_hand' };
    expect(reactionKind('raised_hand::skin-tone-3', custom)).toBe('take');
    expect(reactionKind('eyes', custom)).toBeUndefined();
  });

  it('takes the reactions words out of /ticket follow, anywhere, on by default', () => {
    expect(takeReactionsWords('reactions')).toEqual({ reactions: 'on', rest: '' });
    expect(takeReactionsWords('Reactions OFF')).toEqual({ reactions: 'off', rest: '' });
    expect(takeReactionsWords('group:"Level 1" reactions broadcast')).toEqual({
      reactions: 'on',
      rest: 'group:"Level 1" broadcast',
    });
    expect(takeReactionsWords('reactions on type:support')).toEqual({
      reactions: 'on',
      rest: 'type:support',
    });
    expect(takeReactionsWords('group:"Level 1"')).toEqual({ reactions: undefined, rest: 'group:"Level 1"' });
  });
});
