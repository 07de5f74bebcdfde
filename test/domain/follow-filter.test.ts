import { describe, expect, it } from 'vitest';
import { t, tPlain } from '../../src/blocks/text.js';
import { parseFollowFilter } from '../../src/domain/follow-filter.js';
import type { Locale } from '../../src/i18n/locale.js';
import { handleSubscriptionCommand } from '../../src/slack/commands/ticket-subscriptions.js';

const error = (text: string, locale: Locale) => {
  const r = parseFollowFilter(text);
  if (r.ok) throw new Error(`accepted ${text}`);
  return tPlain(locale, r.problem.key, r.problem.values);
};

describe('/ticket follow’s filter', () => {
  it('reads the fields and broadcast', () => {
    expect(parseFollowFilter('group:"Level 1" states:open,new broadcast')).toEqual({
      ok: true,
      filter: { group: 'Level 1', states: ['open', 'new'], broadcast: true },
    });
  });

  it('says what it cannot take, in English as before', () => {
    expect(error('colour:blue', 'en')).toBe('I did not understand “colour:blue” in the filter.');
    expect(error('states:bogus', 'en')).toMatch(/^Unknown state: bogus\. States: new, /);
    expect(error('states:bogus,worse', 'en')).toMatch(/^Unknown states: bogus, worse\. States: /);
  });

  it('and in French', () => {
    expect(error('colour:blue', 'fr')).toBe('Je n’ai pas compris «\u202fcolour:blue\u202f» dans le filtre.');
    expect(error('states:bogus', 'fr')).toMatch(/^État inconnu\u202f: bogus\. États\u202f: new, /);
    expect(error('states:bogus,worse', 'fr')).toMatch(/^États inconnus\u202f: bogus, worse\. /);
  });

  it('a French person’s `/ticket follow` answers it in French (outside words escaped)', async () => {
    const said: unknown[] = [];
    await handleSubscriptionCommand(
      {} as Parameters<typeof handleSubscriptionCommand>[0],
      'follow',
      'colour:<!here>',
      { user: 'U1', channel: 'C1', locale: 'fr' },
      async (m) => void said.push(m),
    );
    expect(JSON.stringify(said)).toContain(
      t('fr', 'ticket.follow.notUnderstood', { word: 'colour:<!here>' }).text.replace(/"/g, '\\"'),
    );
    expect(JSON.stringify(said)).toContain('Je n’ai pas compris «\u202fcolour:&lt;!here&gt;\u202f»');
  });
});
