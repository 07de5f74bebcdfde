import { describe, expect, it } from 'vitest';
import { compilePatterns, linkTarget, roomOfJoinLink, sameLink } from '../../src/domain/unfurl-links.js';

const patterns = compilePatterns({
  ticket: '^https://desk\\.example\\.com/tickets/(\\d+)',
  conference: '^https://desk\\.example\\.com/conferences/(?<id>\\d+)',
});

/** Which pasted link is which object: the configured patterns first, else a possible join link. */
describe('linkTarget', () => {
  it('reads the id of a configured pattern, the first group or the one named id', () => {
    expect(linkTarget('https://desk.example.com/tickets/42?x=1', patterns)).toEqual({
      kind: 'ticket',
      id: '42',
    });
    expect(linkTarget('https://desk.example.com/conferences/7', patterns)).toEqual({
      kind: 'conference',
      id: '7',
    });
  });

  it('takes any other http(s) link as a possible join link, and none of Slack’s own nor other schemes', () => {
    expect(linkTarget('https://visio.example.com/join/room-1', patterns)).toEqual({
      kind: 'join',
      url: 'https://visio.example.com/join/room-1',
    });
    expect(linkTarget('https://acme.slack.com/archives/C1/p1', patterns)).toBeUndefined();
    expect(linkTarget('mailto:a@example.com', patterns)).toBeUndefined();
    expect(linkTarget('not a url', patterns)).toBeUndefined();
  });

  it('refuses an id of an odd shape rather than look it up', () => {
    const loose = compilePatterns({ ticket: '/t/([^/]+)' });
    expect(linkTarget('https://x.example/t/a%20b', loose)).toBeUndefined();
  });

  it('reads a join link’s room and compares links loosely', () => {
    expect(roomOfJoinLink('https://v.example.com/join/room-abc/')).toBe('room-abc');
    expect(roomOfJoinLink('https://v.example.com/')).toBeUndefined();
    expect(sameLink('https://V.example.com/join/r/', 'https://v.example.com/join/r')).toBe(true);
    expect(sameLink('https://v.example.com/join/r', 'https://v.example.com/join/s')).toBe(false);
  });
});
