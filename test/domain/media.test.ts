import { describe, expect, it } from 'vitest';
import { tPlain } from '../../src/blocks/text.js';
import {
  mediaItemOf,
  mediaSubject,
  parseMediaFilters,
  pastUploadLimit,
  readMediaEdit,
  readThreadRef,
} from '../../src/domain/media.js';
import { decide, type Person } from '../../src/domain/policy.js';
import type { Problem } from '../../src/domain/problem.js';
import type { Locale } from '../../src/i18n/locale.js';
import { mediaRecord } from '../../src/platform/schemas.js';

/** A domain problem as a person reads it. */
const said = (p: Problem, locale: Locale = 'en') => tPlain(locale, p.key, p.values);
const saidAll = (errors: Partial<Record<string, Problem>>, locale: Locale = 'en') =>
  Object.fromEntries(Object.entries(errors).map(([k, p]) => [k, said(p as Problem, locale)]));

const ok = (text: string) => {
  const r = parseMediaFilters(text);
  if (!r.ok) throw new Error(said(r.problem));
  return r.filters;
};
const error = (text: string, locale: Locale = 'en') => {
  const r = parseMediaFilters(text);
  if (r.ok) throw new Error(`accepted ${text}`);
  return said(r.problem, locale);
};
const editErrors = (v: Parameters<typeof readMediaEdit>[0], locale: Locale = 'en') => {
  const r = readMediaEdit(v);
  return r.ok ? r : { ok: false, errors: saidAll(r.errors, locale) };
};
const thread = (text: string, locale: Locale = 'en') => {
  const r = readThreadRef(text);
  return r.ok ? r : { ok: false, error: said(r.problem, locale) };
};

describe('the media library’s filters', () => {
  it('reads every filter of the spec, and the free words as the search', () => {
    expect(
      ok(
        'type:snapshot status:completed source:2 tag:x user:alice@acme.example group:"Level 1" conversation:abc12 since:2026-11-01 until:2026-11-30 router manual',
      ),
    ).toEqual({
      type: 'snapshot',
      status: 'completed',
      source: '2',
      tag: 'x',
      user: 'alice@acme.example',
      group: 'Level 1',
      conversation: 'abc12',
      since: '2026-11-01',
      until: '2026-11-30',
      search: 'router manual',
    });
    expect(ok('')).toEqual({});
    expect(ok('TYPE:recording')).toEqual({ type: 'recording' });
    expect(ok('user:all')).toEqual({ user: 'all' });
    expect(ok('meeting at 12:30')).toEqual({ search: 'meeting at 12:30' });
  });

  it('names what to fix in a bad filter', () => {
    expect(error('since:yesterday')).toContain('since: takes a date written YYYY-MM-DD, not “yesterday”');
    expect(error('until:2026-02-30')).toContain('until: takes a date');
    expect(error('colour:red')).toContain('“colour:” is not a media filter');
    expect(error('tag:')).toContain('tag: needs a value');
    expect(error('user:"two words"')).toContain('user: takes a login');
    expect(error('conversation:a/b')).toContain('conversation: takes a conversation id');
    expect(error('since:2026-12-01 until:2026-11-01')).toContain('swap them');
  });
});

describe('a media record', () => {
  it('is read tolerantly: owner, group, thumbnail and own URL under any of their guessed names', () => {
    const m = mediaItemOf(
      mediaRecord.parse({
        id: 7,
        type: 'snapshot',
        size: 12,
        created: '2026-11-02T10:00:00Z',
        owner_id: '101',
        user_group: { id: 10 },
        thumbnail: 'https://cdn.example/t.png',
        download_url: 'https://cdn.example/f.png',
        lat: '48.85',
      }),
    );
    expect(m).toMatchObject({
      id: '7',
      ownerId: '101',
      groupId: '10',
      thumbnailUrl: 'https://cdn.example/t.png',
      url: 'https://cdn.example/f.png',
      lat: 48.85,
    });
    const bare = mediaItemOf(mediaRecord.parse({ id: 8, thumbnail_url: 'javascript:alert(1)' }));
    expect(bare.ownerId).toBeUndefined();
    expect(bare.groupId).toBeUndefined();
    expect(bare.thumbnailUrl).toBeUndefined();
  });

  it('is seen and acted on by its owner, its group’s members and admins only', () => {
    const subject = mediaSubject({ ownerId: '101', groupId: '10' });
    const person = (id: string, role: string, groups: string[]): Person => ({
      slackId: `U${id}`,
      account: { id, role, email: `${id}@x.example`, groupIds: groups },
    });
    for (const action of ['media.see', 'media.edit', 'media.delete', 'media.share'] as const) {
      expect(decide(action, person('101', 'agent', []), subject).allowed).toBe(true);
      expect(decide(action, person('102', 'agent', ['10']), subject).allowed).toBe(true);
      expect(decide(action, person('100', 'admin', []), subject).allowed).toBe(true);
      const refused = decide(action, person('103', 'agent', ['11']), subject);
      expect(refused).toMatchObject({ allowed: false });
      expect((refused as { why: string }).why).toMatch(
        /^You cannot .* only its owner, the members of its group/,
      );
      expect(decide(action, { slackId: 'UN' }, subject).allowed).toBe(false);
    }
    // A record without owner or group: admins only.
    const unknown = mediaSubject({ ownerId: undefined, groupId: undefined });
    expect(decide('media.see', person('101', 'agent', ['10']), unknown).allowed).toBe(false);
  });
});

describe('the edit form', () => {
  it('takes a title, a description and a location within range', () => {
    expect(readMediaEdit({ title: 'T', description: 'D', lat: '48.8566', lng: '-2.35' })).toEqual({
      ok: true,
      values: { title: 'T', description: 'D', lat: 48.8566, lng: -2.35 },
    });
    expect(readMediaEdit({ title: 'T', lat: '', lng: ' ' })).toEqual({ ok: true, values: { title: 'T' } });
  });

  it('refuses a latitude or longitude out of range or not a number, by field', () => {
    expect(editErrors({ lat: '91', lng: '0' })).toEqual({
      ok: false,
      errors: { lat: 'The latitude is between -90 and 90.' },
    });
    expect(editErrors({ lat: '0', lng: '-180.5' })).toMatchObject({
      ok: false,
      errors: { lng: expect.any(String) },
    });
    expect(editErrors({ lat: 'north', lng: 'east' })).toMatchObject({
      ok: false,
      errors: { lat: expect.stringContaining('is a number'), lng: expect.stringContaining('is a number') },
    });
    expect(editErrors({ lat: '1e2', lng: '0' })).toMatchObject({ ok: false });
    expect(editErrors({ lat: '10' })).toMatchObject({
      ok: false,
      errors: { lng: expect.stringContaining('both') },
    });
    expect(editErrors({ title: 'x'.repeat(256) })).toMatchObject({
      ok: false,
      errors: { title: expect.any(String) },
    });
  });
});

describe('the share’s thread', () => {
  it('is none, a timestamp, or a message link (its thread’s when the link is to a reply)', () => {
    expect(readThreadRef('')).toEqual({ ok: true, ts: undefined });
    expect(readThreadRef(' 1700000000.123456 ')).toEqual({ ok: true, ts: '1700000000.123456' });
    expect(readThreadRef('https://acme.slack.com/archives/C0123ABC/p1700000000123456')).toEqual({
      ok: true,
      ts: '1700000000.123456',
      channel: 'C0123ABC',
    });
    expect(
      readThreadRef(
        'https://acme.slack.com/archives/C0123ABC/p1700000001000200?thread_ts=1700000000.123456&cid=C0123ABC',
      ),
    ).toMatchObject({ ok: true, ts: '1700000000.123456' });
    expect(thread('yesterday’s message')).toMatchObject({
      ok: false,
      error: expect.stringContaining('link'),
    });
  });

  it('past Slack’s limit only when the size is known and larger', () => {
    expect(pastUploadLimit(undefined, 10)).toBe(false);
    expect(pastUploadLimit(10, 10)).toBe(false);
    expect(pastUploadLimit(11, 10)).toBe(true);
  });
});

describe('the problems in French', () => {
  it('are written in the reader’s language, the values kept as typed', () => {
    expect(error('since:yesterday', 'fr')).toBe(
      '`since:` attend une date écrite AAAA-MM-JJ, pas «\u202fyesterday\u202f».',
    );
    expect(error('colour:red', 'fr')).toContain('`colour:` n’est pas un filtre de médias');
    expect(editErrors({ lat: '91', lng: '0' }, 'fr')).toEqual({
      ok: false,
      errors: { lat: 'La latitude est comprise entre -90 et 90.' },
    });
    expect(editErrors({ lat: '10' }, 'fr')).toEqual({
      ok: false,
      errors: { lng: 'Un lieu demande à la fois la latitude et la longitude.' },
    });
    expect(thread('hier', 'fr')).toMatchObject({
      ok: false,
      error: expect.stringContaining('Collez le lien'),
    });
  });
});
