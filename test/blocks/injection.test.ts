import { describe, expect, it } from 'vitest';
import { buildConferenceCard, buildDeletedCard } from '../../src/blocks/conference-card.js';
import { channelLink, clipMd, date, escaped, link, Mrkdwn, md, mention } from '../../src/blocks/mrkdwn.js';
import {
  buildDeletedTicketCard,
  buildStateBroadcast,
  buildTicketCard,
  buildTicketJoinReply,
  buildTicketList,
  buildTimeline,
  eventText,
} from '../../src/blocks/ticket-card.js';
import { buildTicketForm } from '../../src/blocks/ticket-form.js';
import { mrkdwnTexts, strayTokens } from '../../src/dev/slack-double.js';
import type { ConferenceSummary } from '../../src/domain/conference.js';
import type { TicketSummary } from '../../src/domain/ticket.js';

/** What an outside requestor, a platform user or a person typing a command could put in a text. */
const corpus = [
  'Printer <!channel> <@UEVIL> <https://evil.example|click me>',
  `${'<!here> & <@UEVIL> '.repeat(175)}`, // 3,500 characters
];

const ticketOf = (s: string): TicketSummary => ({
  id: '42',
  reference: s,
  subject: s,
  description: s,
  state: 'open',
  type: s,
  requestor: { name: s, emails: [s], phones: [s] },
  agent: { id: '7', label: s },
  group: { id: '3', name: s },
  start: new Date('2027-04-02T14:30:00Z'),
  duration: 30,
  modified: new Date('2027-04-02T14:00:00Z'),
  agentUrl: 'https://video.example.com/agent/42',
  guestUrl: 'https://video.example.com/guest/42',
});

const conferenceOf = (s: string, participants = 3): ConferenceSummary => ({
  id: '9',
  name: s,
  roomName: s,
  start: new Date('2027-04-02T14:30:00Z'),
  duration: 45,
  status: s,
  participants: Array.from({ length: participants }, (_, i) => `${s} ${i}`),
  moderator: { id: '1', label: s },
  joinUrl: 'https://video.example.com/join/9',
});

// Every builder with hostile values, within limits: test/blocks/hostile-surfaces.test.ts (one registry).
describe('text from outside is text where it goes', () => {
  it('shows the escaped forms where the outside text went, in the blocks and in the fallback text', () => {
    const s = corpus[0] as string;
    const escapedForm = 'Printer &lt;!channel&gt; &lt;@UEVIL&gt; &lt;https://evil.example|click me&gt;';
    const card = buildTicketCard('en', ticketOf(s));
    expect(card.text).toContain(escapedForm);
    expect(JSON.stringify(card.blocks)).toContain(escapedForm);
    // A header is plain_text: Slack shows it as typed, nothing to escape there.
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(JSON.stringify(card.blocks[0])).toContain('<!channel>');
    expect(buildConferenceCard('en', conferenceOf(s)).text).toContain(escapedForm);
    expect(buildTicketList('en', s, 0, 10, { items: [], hasMore: false }).text).toContain(escapedForm);
    expect(buildTimeline('en', ticketOf(s), []).text).toContain(escapedForm);
    expect(eventText('en', { eventName: s })).toBe(`*${escapedForm}*`);
    expect(buildStateBroadcast('en', '42', { reference: s, from: 'new', to: 'open' }).text).toBe(
      `${escapedForm} is now *open* (was new).`,
    );
    expect(buildStateBroadcast('en', '42', { to: 'open', from: null, reference: null }).text).toBe(
      'Ticket 42 is now *open* (was unknown).',
    );
    expect(eventText('en', { eventName: '&lt;' })).toBe('*&amp;lt;*');
  });

  it('keeps what the user typed as it is in the form inputs (plain text), clipped to Slack’s 3,000', () => {
    const long = corpus[1] as string;
    const form = buildTicketForm({
      locale: 'en',
      values: { phones: [], emails: [], scopes: [], subject: corpus[0], description: long },
      choices: { groups: [], users: [] },
      metadata: '',
    }) as unknown as { blocks: { block_id?: string; element?: { initial_value?: string } }[] };
    const value = (id: string) => form.blocks.find((b) => b.block_id === id)?.element?.initial_value;
    expect(value('subject')).toBe(corpus[0]);
    expect(value('description')?.length).toBe(3000);
    expect(value('description')?.startsWith('<!here> & <@UEVIL>')).toBe(true);
  });

  it('keeps the bot’s own mentions, channel links, dates and links live', () => {
    const byAlice = JSON.stringify(buildDeletedCard('en', conferenceOf(corpus[0] as string), 'UALICE'));
    expect(byAlice).toContain('Deleted by <@UALICE>.');
    expect(JSON.stringify(buildDeletedTicketCard('en', ticketOf('x'), 'UBOB'))).toContain(
      'Deleted by <@UBOB>.',
    );
    const card = JSON.stringify(buildTicketCard('en', ticketOf('x')));
    // Join links grant a role: never on the card, only in the private reply to a click.
    expect(card).not.toContain('video.example.com/guest/42');
    const join = JSON.stringify(buildTicketJoinReply('en', ticketOf('<!channel>')));
    expect(join).toContain('"url":"https://video.example.com/guest/42"');
    expect(join).not.toContain('<!channel>');
    expect(card).toMatch(/<!date\^\d+\^\{date_short_pretty\} at \{time\}\|2027-04-02 14:30 UTC>/);
    const own = md`${mention('UALICE')} in ${channelLink('C123')} at ${date('en', new Date(0))}: ${link('https://x.example/a|b>c', 'see <here>')}`;
    expect(strayTokens(own.text)).toEqual([]);
    // Not a date: said in the reader's language.
    expect(date('en', new Date(Number.NaN)).text).toBe('unknown time');
    expect(date('fr', new Date(Number.NaN)).text).toBe('date inconnue');
    expect(own.text).toBe(
      '<@UALICE> in <#C123> at <!date^0^{date_short_pretty} at {time}|1970-01-01 00:00 UTC>: <https://x.example/a%7Cb%3Ec|see &lt;here&gt;>',
    );
  });

  it('does not make live what only looks like a token: bad ids, other schemes, template text', () => {
    expect(mention('<!channel>').text).toBe('&lt;!channel&gt;');
    expect(channelLink('CEVIL> <!here').text).toBe('CEVIL&gt; &lt;!here');
    expect(link('javascript:alert(1)', 'click me').text).toBe('click me');
    expect(link('not a url', '<!here>').text).toBe('&lt;!here&gt;');
    expect(md`\`/conference show <id>\` & more`.text).toBe('`/conference show &lt;id&gt;` &amp; more');
    expect(() => new Mrkdwn('<!channel>', Symbol('mrkdwn') as never)).toThrow(TypeError);
  });

  it('cuts mrkdwn before an escape or a token, never inside one', () => {
    const s = md`${'a'.repeat(8)}${'<'}${mention('UALICE')}`; // aaaaaaaa&lt;<@UALICE>
    expect(clipMd(s, 11).text).toBe('aaaaaaaa…');
    expect(clipMd(s, 14).text).toBe('aaaaaaaa&lt;…');
    expect(clipMd(s, 18).text).toBe('aaaaaaaa&lt;…');
    expect(clipMd(s, 30).text).toBe(s.text);
    expect(clipMd(escaped('😀😀'), 3).text).toBe('😀…');
  });
});

describe('the Slack double’s text check', () => {
  it('finds broadcasts, outside links and bare angle brackets, and lets the bot’s tokens through', () => {
    expect(strayTokens('hi <!channel> and <!here|here> <!everyone>')).toEqual([
      '<!channel>',
      '<!here|here>',
      '<!everyone>',
    ]);
    expect(strayTokens('see <javascript:alert(1)|x> or a < b')).toEqual(['<javascript:alert(1)|x>', '< b']);
    expect(
      strayTokens(
        '<@UALICE> <#C1|general> <!date^1^{time}|x> <!subteam^S123> <https://a.example/x|y> <mailto:a@b.co|a> <tel:+331|call>',
      ),
    ).toEqual([]);
  });

  it('reads the message text and every mrkdwn object, fields, context and confirm texts included', () => {
    const texts = mrkdwnTexts({
      text: 'fallback',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'plain <!here>' } },
        { type: 'section', fields: [{ type: 'mrkdwn', text: 'field' }] },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'context' }] },
        {
          type: 'actions',
          elements: [{ type: 'button', confirm: { text: { type: 'mrkdwn', text: 'confirm' } } }],
        },
      ],
    });
    expect(texts.sort()).toEqual(['confirm', 'context', 'fallback', 'field']);
  });
});
