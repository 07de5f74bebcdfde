import { describe, expect, it } from 'vitest';
import { buildConferenceCard, buildDeletedCard } from '../../src/blocks/conference-card.js';
import { buildConferenceForm } from '../../src/blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildMediaList,
} from '../../src/blocks/conference-list.js';
import { buildHome } from '../../src/blocks/home.js';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit, limits } from '../../src/blocks/limits.js';
import { buildResultView, buildWorkingView } from '../../src/blocks/modal.js';
import { escaped, md } from '../../src/blocks/mrkdwn.js';
import { buildTicketMediaList } from '../../src/blocks/ticket-card.js';
import type { ConferenceSummary } from '../../src/domain/conference.js';
import type { TicketSummary } from '../../src/domain/ticket.js';

type Json = Record<string, unknown>;

const huge: ConferenceSummary = {
  id: '123456',
  name: 'N'.repeat(255),
  roomName: 'room-'.repeat(40),
  start: new Date('2027-04-02T14:30:00Z'),
  duration: 10_079,
  status: 'planned',
  participants: Array.from(
    { length: 2_000 },
    (_, i) => `person.number.${i}@a-rather-long-domain.example.com`,
  ),
  moderator: { id: '100', label: 'M'.repeat(500) },
  joinUrl: `https://video.example.com/join/${'x'.repeat(200)}`,
};
const small: ConferenceSummary = { id: '7', name: 'Standup', participants: ['a@b.co'] };

const actionIds = (blocks: readonly object[]) =>
  (blocks as Json[]).flatMap((b) => [
    ...(b.type === 'actions' ? (b.elements as Json[]) : []).map((e) => e.action_id),
    ...(b.accessory ? [(b.accessory as Json).action_id] : []),
  ]);

describe('Block Kit builders stay within Slack’s limits', () => {
  it('the card, even for 2,000 participants and 255-character names, with its four buttons', () => {
    for (const c of [huge, small]) {
      const card = buildConferenceCard('en', c);
      expect(checkBlockKit(card, 'message')).toEqual([]);
      expect(card.text.length).toBeGreaterThan(0);
    }
    const card = buildConferenceCard('en', huge);
    expect(actionIds(card.blocks)).toEqual([
      ids.actions.conferenceJoin,
      ids.actions.conferenceMedia,
      ids.actions.conferenceEdit,
      ids.actions.conferenceDelete,
    ]);
    expect(JSON.stringify(card.blocks)).toContain('and 19');
    expect(actionIds(buildConferenceCard('en', small).blocks)).not.toContain(ids.actions.conferenceJoin);
    expect(checkBlockKit(buildDeletedCard('en', huge, 'U1'), 'message')).toEqual([]);
  });

  it('show pages through every participant, 100 a page, within Slack’s limits', () => {
    const first = buildConferenceDetails('en', huge);
    expect(checkBlockKit(first, 'message')).toEqual([]);
    expect(JSON.stringify(first.blocks)).toContain('Participants 1–100 of 2000');
    expect(actionIds(first.blocks)).toContain(`${ids.actions.conferenceShowPage}:next`);
    expect(actionIds(first.blocks)).not.toContain(`${ids.actions.conferenceShowPage}:prev`);
    const last = buildConferenceDetails('en', huge, 19);
    expect(checkBlockKit(last, 'message')).toEqual([]);
    expect(JSON.stringify(last.blocks)).toContain('Participants 1901–2000 of 2000');
    expect(JSON.stringify(last.blocks)).toContain('person.number.1999@');
    expect(actionIds(last.blocks)).not.toContain(`${ids.actions.conferenceShowPage}:next`);
    expect(buildConferenceDetails('en', small).blocks).toEqual(buildConferenceCard('en', small).blocks);
  });

  it('a list page: 10 conferences, unique Show action ids, and paging buttons', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ ...huge, id: String(i) }));
    const page = buildConferenceList(
      'en',
      { filter: 'all', search: 'x'.repeat(500), offset: 10 },
      { items, total: 500, hasMore: true },
    );
    expect(checkBlockKit(page, 'message')).toEqual([]);
    const idsOnPage = actionIds(page.blocks);
    expect(new Set(idsOnPage).size).toBe(idsOnPage.length);
    expect(idsOnPage).toContain(`${ids.actions.conferencePage}:prev`);
    expect(idsOnPage).toContain(`${ids.actions.conferencePage}:next`);
    const empty = buildConferenceList('en', { filter: 'upcoming', offset: 0 }, { items: [], hasMore: false });
    expect(checkBlockKit(empty, 'message')).toEqual([]);
    expect(JSON.stringify(empty.blocks)).toContain('No conference found');
  });

  it('the media list caps at 50 blocks and says how many it left out', () => {
    const medias = Array.from({ length: 120 }, (_, i) => ({
      id: String(i),
      type: i % 2 ? 'recording' : 'snapshot',
      title: 'T'.repeat(400),
      size: 1.5e9,
      created: new Date(),
    }));
    const list = buildMediaList('en', huge, medias, 120);
    expect(checkBlockKit(list, 'message')).toEqual([]);
    expect(list.blocks.length).toBe(limits.messageBlocks);
    expect(JSON.stringify(list.blocks)).toContain('48 of 120 shown');
  });

  it('a ticket’s media list: a post button per media, and “Post all (zip)” last, within 50 blocks', () => {
    const medias = Array.from({ length: 120 }, (_, i) => ({
      id: String(i),
      type: 'snapshot',
      title: 'T'.repeat(400),
      size: 1.5e9,
      created: new Date(),
    }));
    const ticket: TicketSummary = {
      id: '42',
      reference: 'ACME-42',
      subject: 'S'.repeat(300),
      requestor: { emails: [], phones: [] },
    };
    const place = { channel: 'C1', ts: '1.2' };
    const list = buildTicketMediaList('en', ticket, medias, 120, place);
    expect(checkBlockKit(list, 'message')).toEqual([]);
    expect(list.blocks.length).toBe(limits.messageBlocks);
    expect(JSON.stringify(list.blocks)).toContain('47 of 120 shown');
    const ids_ = actionIds(list.blocks);
    expect(ids_.at(-1)).toBe(ids.actions.ticketMediaPostAll);
    expect(ids_.filter((a) => String(a).startsWith(`${ids.actions.ticketMediaPost}:`))).toHaveLength(47);
    const all = (list.blocks.at(-1) as unknown as Json).elements as Json[];
    expect(JSON.parse(all[0]?.value as string)).toEqual({ ticketId: '42', channel: 'C1', ts: '1.2' });
    // No thread to post in, or nothing to post: no button.
    expect(actionIds(buildTicketMediaList('en', ticket, medias, 120, {}).blocks)).toEqual([]);
    expect(actionIds(buildTicketMediaList('en', ticket, [], 0, place).blocks)).toEqual([]);
  });

  it('the form: every create input, valid in both modes, with long prefilled values', () => {
    const values = {
      channel: 'C1',
      participants: huge.participants.slice(0, 50),
      people: ['U1', 'U2'],
      name: huge.name,
      startTime: huge.start,
      duration: 45,
      message: 'm'.repeat(300),
      language: 'fr',
      moderator: 'U1',
      sso: true,
      reminder: 10,
      templateId: 3,
    };
    const create = buildConferenceForm({
      locale: 'en',
      mode: 'create',
      values,
      metadata: '{"mode":"create"}',
      notices: [escaped('n'.repeat(5000))],
    });
    expect(checkBlockKit(create, 'modal')).toEqual([]);
    const blockIds = create.blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
    expect(blockIds).toEqual([
      'channel',
      'participants',
      'people',
      'name',
      'startTime',
      'duration',
      'message',
      'password',
      'options',
      'moderator',
      'entryMode',
      'reminder',
      'templateId',
      'language',
      'service_key',
      'scope',
    ]);
    const edit = buildConferenceForm({
      locale: 'en',
      mode: 'edit',
      values,
      metadata: JSON.stringify({
        mode: 'edit',
        conferenceId: '1',
        responseUrl: `https://hooks.slack.com/${'x'.repeat(200)}`,
      }),
      problems: { people: escaped('p'.repeat(4000)) },
      hasPassword: true,
    });
    expect(checkBlockKit(edit, 'modal')).toEqual([]);
    const editIds = edit.blocks.map((b) => b.block_id);
    expect(editIds).not.toContain('service_key');
    expect(editIds).not.toContain('channel');
    expect(JSON.stringify(edit)).toContain('Leave empty to keep it');
  });

  it('working, result and home views', () => {
    expect(
      checkBlockKit(buildWorkingView('en', 'New conference', escaped('w'.repeat(4000))), 'modal'),
    ).toEqual([]);
    expect(
      checkBlockKit(
        buildResultView('en', 'New conference', md`done`, buildConferenceDetails('en', huge).blocks),
        'modal',
      ),
    ).toEqual([]);
    expect(
      checkBlockKit(buildHome('en', { loading: false, subscriptions: [], digests: [] }), 'home'),
    ).toEqual([]);
  });
});

describe('the Block Kit checker', () => {
  it('finds each kind of limit break', () => {
    const bad = {
      text: '',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } },
        { type: 'section', text: { type: 'mrkdwn', text: 's'.repeat(3001) }, block_id: 'a' },
        {
          type: 'section',
          fields: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'f' })),
          block_id: 'a',
        },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'x', text: { type: 'plain_text', text: 'b'.repeat(76) } },
            { type: 'button', action_id: 'x', text: { type: 'plain_text', text: 'ok' } },
            {
              type: 'overflow',
              action_id: 'o',
              options: Array.from({ length: 6 }, (_, i) => ({
                text: { type: 'plain_text', text: 'o' },
                value: String(i),
              })),
            },
          ],
        },
        { type: 'input', label: { type: 'plain_text', text: 'l' }, element: { type: 'plain_text_input' } },
        ...Array.from({ length: 50 }, () => ({ type: 'divider' })),
      ],
    };
    const problems = checkBlockKit(bad, 'message').join('\n');
    for (const expected of [
      'no fallback text',
      '55 blocks',
      'header is 151',
      'text is 3001',
      '11 fields',
      'block_id "a" is used twice',
      'button text is 76',
      'action_id "x" is used twice',
      '6 options (max 5)',
      'input blocks belong in views',
    ])
      expect(problems).toContain(expected);
    expect(
      checkBlockKit(
        { type: 'modal', title: { type: 'plain_text', text: 't'.repeat(25) }, blocks: [] },
        'modal',
      ).join(),
    ).toContain('modal title is 25');
  });
});
