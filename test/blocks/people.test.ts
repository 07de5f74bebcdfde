import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit, limits } from '../../src/blocks/limits.js';
import {
  buildGroupMembers,
  buildGroupsBrowser,
  buildPeopleBrowser,
  buildPersonDeleteConfirm,
  buildPersonForm,
} from '../../src/blocks/people.js';
import {
  isOpenTicketState,
  isOwnLogin,
  matchesSearch,
  type PlatformPerson,
  pageOfPeople,
  peoplePageSize,
  personName,
} from '../../src/domain/people.js';

const person = (i: number, over: Partial<PlatformPerson> = {}): PlatformPerson => ({
  id: String(1_000 + i),
  username: `user${i}`,
  email: `user${i}@acme.example`,
  cellPhone: undefined,
  firstName: `First${i}`,
  lastName: `Last${i}`,
  role: 'agent',
  groups: [{ id: '3', name: 'Level 1' }],
  details: {},
  ...over,
});
const twoThousand = Array.from({ length: 2_000 }, (_, i) => person(i));
const text = (v: unknown) => JSON.stringify(v);

describe('the People browser’s limits', () => {
  it('never exceeds 100 blocks, even handed a 2,000-user page, and shows 20 rows with their menus', () => {
    const view = buildPeopleBrowser('en', { items: twoThousand, offset: 0, total: 2_000, search: '' });
    expect(view.blocks.length).toBeLessThanOrEqual(limits.viewBlocks);
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    const rows = view.blocks.filter((b) => b.type === 'section' && 'accessory' in b);
    expect(rows).toHaveLength(peoplePageSize);
    expect(text(rows[0])).toContain(`"action_id":"${ids.actions.personMenu}:1000"`);
    expect(text(view)).toContain('1–20 of 2000 people');
  });

  it('pages a 2,000-user directory 20 at a time, with Previous and Next carrying the search and offset', () => {
    const page = pageOfPeople(twoThousand, 'last1', 20);
    // last1, last10…last19, last100…last199, last1000…last1999
    expect(page.total).toBe(1 + 10 + 100 + 1_000);
    const view = buildPeopleBrowser('en', page);
    expect(view.blocks.length).toBeLessThanOrEqual(limits.viewBlocks);
    expect(text(view)).toContain(
      `"action_id":"${ids.actions.peoplePage}:prev","value":"{\\"q\\":\\"last1\\",\\"o\\":0}"`,
    );
    expect(text(view)).toContain(
      `"action_id":"${ids.actions.peoplePage}:next","value":"{\\"q\\":\\"last1\\",\\"o\\":40}"`,
    );
    expect(view.private_metadata).toBe('{"q":"last1","o":20}');
    const last = pageOfPeople(twoThousand, '', 5_000);
    expect(last.offset).toBe(1_980);
    expect(text(buildPeopleBrowser('en', last))).not.toContain(`${ids.actions.peoplePage}:next`);
  });

  it('lists at most 90 groups in one modal, saying how many there are', () => {
    const groups = Array.from({ length: 500 }, (_, i) => ({ id: String(i), name: `G${i}`, memberCount: 1 }));
    const view = buildGroupsBrowser('en', groups);
    expect(view.blocks.length).toBeLessThanOrEqual(limits.viewBlocks);
    expect(text(view)).toContain('500 groups; the first 90 are shown.');
    expect(checkBlockKit(view, 'modal')).toEqual([]);
  });

  it('puts a 40-member page in one section, within Slack’s 3,000 characters', () => {
    const page = pageOfPeople(twoThousand, '', 0, 40);
    const view = buildGroupMembers('en', { id: '3', name: 'Level 1', memberCount: 2_000 }, page);
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    expect(text(view)).toContain(`${ids.actions.groupMembersPage}:next`);
  });

  it('never fills the create form’s password input, and names its inputs after the create fields', () => {
    const view = buildPersonForm({
      locale: 'en',
      mode: 'create',
      values: { username: 'dave', email: 'd@acme.example' },
    });
    const pw = view.blocks.find((b) => b.block_id === ids.people.password) as unknown as {
      element: Record<string, unknown>;
    };
    expect(pw.element.initial_value).toBeUndefined();
    expect(view.blocks.map((b) => b.block_id).filter(Boolean)).toEqual([
      'username',
      'user_password',
      'email',
      'cell_phone',
      'firstName',
      'lastName',
    ]);
    expect(view.private_metadata).toBeUndefined();
  });

  it('says "at least" when the owned tickets were counted from a capped page', () => {
    const view = buildPersonDeleteConfirm(
      'en',
      person(1),
      { openTickets: { count: 100, atLeast: true }, upcomingConferences: { count: 1, atLeast: false } },
      '{"u":"1001"}',
    );
    expect(text(view)).toContain('at least 100 open tickets as agent and 1 upcoming conference as moderator');
  });
});

describe('people rules', () => {
  it('searches first name, last name, e-mail and login, case-insensitively, every word', () => {
    const ada = person(1, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@calc.example',
      username: 'alove',
    });
    expect(matchesSearch(ada, 'LOVELACE')).toBe(true);
    expect(matchesSearch(ada, 'calc.example')).toBe(true);
    expect(matchesSearch(ada, 'ALOVE')).toBe(true);
    expect(matchesSearch(ada, 'ada lovelace')).toBe(true);
    expect(matchesSearch(ada, 'ada babbage')).toBe(false);
    expect(matchesSearch(ada, '  ')).toBe(true);
  });

  it('names a person by their names, else their login, else their id', () => {
    expect(personName(person(1))).toBe('First1 Last1');
    expect(personName(person(1, { firstName: undefined, lastName: ' ' }))).toBe('user1');
    expect(personName(person(1, { firstName: undefined, lastName: undefined, username: undefined }))).toBe(
      'user 1001',
    );
  });

  it('counts a ticket as open until a finishing state, and knows one’s own login', () => {
    expect(['new', 'open', 'invited', 'inprogress', undefined].every((s) => isOpenTicketState(s))).toBe(true);
    expect(['done', 'closed', 'rejected', 'declined', 'expired', 'cancelled'].some(isOpenTicketState)).toBe(
      false,
    );
    expect(isOwnLogin('ALICE', { username: 'alice', email: 'a@x.example' })).toBe(true);
    expect(isOwnLogin('A@X.example', { username: 'alice', email: 'a@x.example' })).toBe(true);
    expect(isOwnLogin('bob', { username: 'alice', email: 'a@x.example' })).toBe(false);
  });
});
