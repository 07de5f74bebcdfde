import { describe, expect, it } from 'vitest';
import { safeHref } from '../../src/playground/web/links.js';
import { parseInline, parseMrkdwn } from '../../src/playground/web/mrkdwn.js';

const text = (t: string) => ({ t: 'text', text: t });

describe('the page’s mrkdwn reader', () => {
  it('reads bold, italic, strike and code, nested as Slack nests them', () => {
    expect(parseInline('*Start* _now_ ~old~ `x < y`')).toEqual([
      { t: 'bold', children: [text('Start')] },
      text(' '),
      { t: 'italic', children: [text('now')] },
      text(' '),
      { t: 'strike', children: [text('old')] },
      text(' '),
      { t: 'code', text: 'x < y' },
    ]);
    expect(parseInline('*bold _and italic_*')).toEqual([
      { t: 'bold', children: [text('bold '), { t: 'italic', children: [text('and italic')] }] },
    ]);
  });

  it('leaves marks inside words and unclosed marks as typed', () => {
    expect(parseInline('snake_case_name 2*3*4 a * b')).toEqual([text('snake_case_name 2*3*4 a * b')]);
    expect(parseInline('*open')).toEqual([text('*open')]);
  });

  it('unescapes &lt; &gt; &amp; for display, and only those', () => {
    expect(parseInline('a &lt;b&gt; &amp;amp; &quot;')).toEqual([text('a <b> &amp; &quot;')]);
  });

  it('reads links, mailto links, mentions, channels and special mentions', () => {
    expect(
      parseInline(
        '<https://x.example/a?b=1&amp;c=2|the page> <mailto:a@b.example|a@b.example> <https://bare.example>',
      ),
    ).toEqual([
      { t: 'link', url: 'https://x.example/a?b=1&c=2', label: 'the page' },
      text(' '),
      { t: 'link', url: 'mailto:a@b.example', label: 'a@b.example' },
      text(' '),
      { t: 'link', url: 'https://bare.example', label: 'https://bare.example' },
    ]);
    expect(parseInline('<@UALICE> in <#C0SUPPORT|support> <!here>')).toEqual([
      { t: 'user', id: 'UALICE' },
      text(' in '),
      { t: 'channel', id: 'C0SUPPORT', name: 'support' },
      text(' '),
      { t: 'broadcast', name: 'here' },
    ]);
  });

  it('reads a date token with its format, optional link and fallback', () => {
    expect(parseInline('<!date^1806138000^{date_short_pretty} at {time}|2027-03-27 09:00 UTC>')).toEqual([
      {
        t: 'date',
        epoch: 1806138000,
        format: '{date_short_pretty} at {time}',
        fallback: '2027-03-27 09:00 UTC',
      },
    ]);
    expect(parseInline('<!date^1^{date}^https://x.example|f>')).toEqual([
      { t: 'date', epoch: 1, format: '{date}', link: 'https://x.example', fallback: 'f' },
    ]);
  });

  it('splits paragraphs, quotes (escaped or not) and preformatted blocks, with line breaks', () => {
    expect(parseMrkdwn('one\ntwo\n&gt; quoted\n> more\nafter\n```\nlet *a* = <b>\n```\nend')).toEqual([
      { t: 'para', children: [text('one'), { t: 'br' }, text('two')] },
      { t: 'quote', children: [text('quoted'), { t: 'br' }, text('more')] },
      { t: 'para', children: [text('after')] },
      { t: 'pre', text: 'let *a* = <b>' },
      { t: 'para', children: [text('end')] },
    ]);
  });

  it('keeps an unclosed ``` as text', () => {
    expect(parseMrkdwn('a ``` b')).toEqual([{ t: 'para', children: [text('a ``` b')] }]);
  });
});

describe('the links the page makes clickable', () => {
  it('are web, mail, phone links and the page’s own paths; anything else stays text', () => {
    expect(safeHref('https://x.example/a')).toBe('https://x.example/a');
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example');
    expect(safeHref('tel:+33612345678')).toBe('tel:+33612345678');
    expect(safeHref('/files/F1')).toBe('/files/F1');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' JavaScript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<script>')).toBeUndefined();
    expect(safeHref('//evil.example')).toBeUndefined();
  });
});
