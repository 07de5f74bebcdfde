import { describe, expect, it } from 'vitest';
import { buildConferenceCard, buildDeletedCard } from '../../src/blocks/conference-card.js';
import { buildConferenceForm } from '../../src/blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildMediaList,
} from '../../src/blocks/conference-list.js';
import { buildDigest } from '../../src/blocks/digest.js';
import { buildDigestForm } from '../../src/blocks/digest-form.js';
import { buildHome } from '../../src/blocks/home.js';
import { checkBlockKit, type Surface } from '../../src/blocks/limits.js';
import { buildResultView, buildWorkingView } from '../../src/blocks/modal.js';
import {
  channelLink,
  clipMd,
  date,
  escaped,
  link,
  Mrkdwn,
  md,
  mention,
  sentence,
} from '../../src/blocks/mrkdwn.js';
import {
  buildDeletedTicketCard,
  buildStateBroadcast,
  buildTicketCard,
  buildTicketJoinReply,
  buildTicketList,
  buildTicketMediaList,
  buildTimeline,
  eventText,
} from '../../src/blocks/ticket-card.js';
import { buildTicketEditForm, buildTicketExportForm, buildTicketForm } from '../../src/blocks/ticket-form.js';
import { mrkdwnTexts, strayTokens } from '../../src/dev/slack-double.js';
import type { ConferenceSummary } from '../../src/domain/conference.js';
import type { TicketSummary } from '../../src/domain/ticket.js';

/** What an outside requestor, a platform user or a person typing a command could put in a text. */
const corpus = [
  'Printer <!channel> <@UEVIL> <https://evil.example|click me>',
  '<!here>',
  '<!everyone>',
  '<@UEVIL>',
  '<#CEVIL>',
  '<https://evil.example|click me>',
  '&lt;!channel&gt;',
  '*bold* _it_ ~strike~ `code`',
  `${'<!here> & <@UEVIL> '.repeat(175)}`, // 3,500 characters
  'Imprimante \u202Eenilno\u202C \u200B<!channel>\u200B',
];

/** Raw forms that must never reach a mrkdwn text. */
const forbidden = ['<!channel>', '<!here>', '<!everyone>', '<@UEVIL>', '<#CEVIL>', '<https://evil.example'];

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

/** Every builder of src/blocks, fed `s` wherever outside text can go; each with the surface it is for. */
function everyBuilder(s: string): { name: string; payload: unknown; surface: Surface }[] {
  const t = ticketOf(s);
  const c = conferenceOf(s);
  const events = [
    { eventName: s, timestamp: new Date('2027-04-02T14:31:00Z'), source: s },
    { eventName: 'session.established', timestamp: new Date('2027-04-02T14:32:00Z') },
  ];
  const notice = md`The platform said: ${s}`;
  const m = 'message' as const;
  return [
    { name: 'ticket card', payload: buildTicketCard(t), surface: m },
    { name: 'deleted ticket card', payload: buildDeletedTicketCard(t, 'UALICE'), surface: m },
    { name: 'timeline', payload: buildTimeline(t, events), surface: m },
    { name: 'empty timeline', payload: buildTimeline(t, []), surface: m },
    {
      name: 'ticket list',
      payload: buildTicketList(s, 10, 10, { items: [t, { ...t, id: '43' }], total: 30, hasMore: true }),
      surface: m,
    },
    {
      name: 'ticket media list',
      payload: buildTicketMediaList(
        t,
        [{ id: 'm1', type: s, title: s, filename: s, size: 2_000_000, created: new Date() }],
        5,
        { channel: 'C1', ts: '1.2' },
      ),
      surface: m,
    },
    { name: 'conference card', payload: buildConferenceCard(c), surface: m },
    { name: 'deleted conference card', payload: buildDeletedCard(c, 'UALICE'), surface: m },
    { name: 'conference details', payload: buildConferenceDetails(conferenceOf(s, 300), 1), surface: m },
    {
      name: 'conference list',
      payload: buildConferenceList(
        { filter: 'all', search: s, offset: 10 },
        { items: [c, { ...c, id: '10' }], total: 40, hasMore: true },
      ),
      surface: m,
    },
    {
      name: 'conference media',
      payload: buildMediaList(
        c,
        [{ id: s.slice(0, 60), type: s, title: s, format: s, size: 3_000, created: new Date() }],
        9,
      ),
      surface: m,
    },
    {
      name: 'conference form',
      payload: buildConferenceForm({
        mode: 'create',
        values: { participants: [s], people: [], name: s, message: s, entryMode: s, serviceKey: s },
        metadata: '{}',
        notices: [notice],
        problems: { participants: notice },
      }),
      surface: 'modal',
    },
    { name: 'working view', payload: buildWorkingView('Working', notice), surface: 'modal' },
    {
      name: 'result view',
      payload: buildResultView('Done', notice, buildConferenceCard(c).blocks),
      surface: 'modal',
    },
    {
      name: 'ticket form',
      payload: buildTicketForm({
        values: { phones: [s], emails: [s], scopes: [s], name: s, subject: s, reference: s, description: s },
        choices: { groups: [{ id: '3', name: s }], users: [{ id: '7', name: s }] },
        metadata: '',
        notices: [notice],
        problems: { emails: notice },
      }),
      surface: 'modal',
    },
    {
      name: 'ticket edit form',
      payload: buildTicketEditForm({
        values: { subject: s, description: s, reference: s },
        choices: { groups: [{ id: '3', name: s }], users: [] },
        metadata: '',
        notices: [notice],
      }),
      surface: 'modal',
    },
    { name: 'ticket export form', payload: buildTicketExportForm('{}'), surface: 'modal' },
    {
      name: 'digest form',
      payload: buildDigestForm({ channel: 'C1', time: '09:00', zone: s.slice(0, 100), weekdays: [1] }),
      surface: 'modal',
    },
    { name: 'home', payload: buildHome(), surface: 'home' },
    {
      name: 'digest',
      payload: buildDigest(
        {
          date: '2027-04-01',
          days: [{ date: '2027-04-01', stats: { session_count: 3 } as never }],
          report: {
            total: 2,
            by_state: { [s]: 2 },
            by_agent: [{ username: s, count: 2 }],
            by_group: [{ name: s, count: 1 }],
          } as never,
          missing: [],
        },
        { next: new Date('2027-04-02T07:00:00Z') },
      ),
      surface: m,
    },
    {
      name: 'event line',
      payload: { text: eventText({ eventName: s, timestamp: '2027-04-02T14:31:00Z', source: s }) },
      surface: m,
    },
    {
      name: 'broadcast',
      payload: buildStateBroadcast('42', { broadcast: true, reference: s, from: s, to: 'open' }),
      surface: m,
    },
    {
      name: 'broadcast queued before the facts',
      payload: buildStateBroadcast('42', { broadcast: true, text: `${s} is now *open* (was new).` }),
      surface: m,
    },
  ];
}

describe('text from outside is text in every builder', () => {
  for (const [i, s] of corpus.entries()) {
    it(`renders corpus entry ${i} (${JSON.stringify(s.slice(0, 40))}) escaped, within Block Kit's limits`, () => {
      for (const { name, payload, surface } of everyBuilder(s)) {
        expect(checkBlockKit(payload, surface), name).toEqual([]);
        const texts = mrkdwnTexts(payload);
        for (const text of texts) {
          expect(strayTokens(text), `${name}: ${text.slice(0, 120)}`).toEqual([]);
          for (const raw of forbidden) expect(text, name).not.toContain(raw);
          // Every `&` starts an entity: nothing was escaped twice by mistake, no entity was cut in half.
          expect(text.replace(/&(?:amp|lt|gt);/g, ''), name).not.toContain('&');
        }
      }
    });
  }

  it('shows the escaped forms where the outside text went, in the blocks and in the fallback text', () => {
    const s = corpus[0] as string;
    const escapedForm = 'Printer &lt;!channel&gt; &lt;@UEVIL&gt; &lt;https://evil.example|click me&gt;';
    const card = buildTicketCard(ticketOf(s));
    expect(card.text).toContain(escapedForm);
    expect(JSON.stringify(card.blocks)).toContain(escapedForm);
    // A header is plain_text: Slack shows it as typed, nothing to escape there.
    expect(card.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(JSON.stringify(card.blocks[0])).toContain('<!channel>');
    expect(buildConferenceCard(conferenceOf(s)).text).toContain(escapedForm);
    expect(buildTicketList(s, 0, 10, { items: [], hasMore: false }).text).toContain(escapedForm);
    expect(buildTimeline(ticketOf(s), []).text).toContain(escapedForm);
    expect(eventText({ eventName: s })).toBe(`*${escapedForm}*`);
    expect(buildStateBroadcast('42', { reference: s, from: 'new', to: 'open' }).text).toBe(
      `${escapedForm} is now *open* (was new).`,
    );
    expect(buildStateBroadcast('42', { to: 'open', from: null, reference: null }).text).toBe(
      'Ticket 42 is now *open* (was unknown).',
    );
    expect(eventText({ eventName: '&lt;' })).toBe('*&amp;lt;*');
  });

  it('keeps what the user typed as it is in the form inputs (plain text), clipped to Slack’s 3,000', () => {
    const long = corpus[8] as string;
    const form = buildTicketForm({
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
    const byAlice = JSON.stringify(buildDeletedCard(conferenceOf(corpus[0] as string), 'UALICE'));
    expect(byAlice).toContain('Deleted by <@UALICE>.');
    expect(JSON.stringify(buildDeletedTicketCard(ticketOf('x'), 'UBOB'))).toContain('Deleted by <@UBOB>.');
    const card = JSON.stringify(buildTicketCard(ticketOf('x')));
    // Join links grant a role: never on the card, only in the private reply to a click.
    expect(card).not.toContain('video.example.com/guest/42');
    const join = JSON.stringify(buildTicketJoinReply(ticketOf('<!channel>')));
    expect(join).toContain('"url":"https://video.example.com/guest/42"');
    expect(join).not.toContain('<!channel>');
    expect(card).toMatch(/<!date\^\d+\^\{date_short_pretty\} at \{time\}\|2027-04-02 14:30 UTC>/);
    const own = md`${mention('UALICE')} in ${channelLink('C123')} at ${date(new Date(0))}: ${link('https://x.example/a|b>c', 'see <here>')}`;
    expect(strayTokens(own.text)).toEqual([]);
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

  it('reads a sentence composed as a string elsewhere with only the bot’s tokens live', () => {
    const said = sentence(
      'Ticket *A &amp; B* is in <#C123>, by <@UALICE> <!date^0^{time}|00:00>: <!channel> <https://evil.example|x> `/ticket show <id>` & co',
    );
    expect(said.text).toBe(
      'Ticket *A &amp; B* is in <#C123>, by <@UALICE> <!date^0^{time}|00:00>: &lt;!channel&gt; &lt;https://evil.example|x&gt; `/ticket show &lt;id&gt;` &amp; co',
    );
    expect(strayTokens(said.text)).toEqual([]);
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
