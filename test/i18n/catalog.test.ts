import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { md, mention } from '../../src/blocks/mrkdwn.js';
import { t, tPlain } from '../../src/blocks/text.js';
import { catalogs, messageKeys } from '../../src/i18n/catalog.js';
import { en, families } from '../../src/i18n/en.js';
import { formatDateTime, formatMinutes, formatNumber } from '../../src/i18n/format.js';
import { fr } from '../../src/i18n/fr.js';
import { localeOfSlack, locales } from '../../src/i18n/locale.js';

/** The `{variables}` an ICU message names (its arguments, plural or not). */
function variablesOf(source: string, only?: 'text'): string[] {
  const names = new Set<string>();
  const walk = (elements: unknown[]) => {
    for (const e of elements as Array<{
      type: number;
      value?: string;
      options?: Record<string, { value: unknown[] }>;
    }>) {
      // `text`: the variables written as they are given (ICU's argument, type 1), not plurals or selects.
      if (e.type !== 0 && (only !== 'text' || e.type === 1) && typeof e.value === 'string')
        names.add(e.value);
      for (const o of Object.values(e.options ?? {})) walk(o.value);
    }
  };
  walk(new IntlMessageFormat(source, 'en', undefined, { ignoreTag: true }).getAst() as unknown[]);
  return [...names].sort();
}

describe('the catalogs', () => {
  it('have the same keys in every language (none missing, none extra)', () => {
    for (const locale of locales)
      expect(Object.keys(catalogs[locale]).sort(), locale).toEqual(Object.keys(en).sort());
    expect(messageKeys.length).toBeGreaterThan(0);
  });

  it('parse as ICU MessageFormat, and each translation names the same variables as English', () => {
    for (const locale of locales)
      for (const key of messageKeys) {
        const source = catalogs[locale][key];
        expect(
          () => new IntlMessageFormat(source, locale, undefined, { ignoreTag: true }),
          `${locale} ${key}`,
        ).not.toThrow();
        expect(variablesOf(source), `${locale} ${key}`).toEqual(variablesOf(en[key]));
      }
  });

  it('no key is in two families of messages/ (a spread would quietly keep the last)', () => {
    const seen = new Map<string, string>();
    for (const [family, m] of Object.entries(families))
      for (const key of Object.keys(m.en)) {
        expect(seen.get(key), `${key} in ${family}`).toBeUndefined();
        seen.set(key, family);
        expect(Object.keys(m.fr), family).toContain(key);
      }
    expect(seen.size).toBe(messageKeys.length);
  });

  it('the key check itself fails on a broken message', () => {
    expect(() => new IntlMessageFormat('{count, plural, one {# ticket}', 'fr')).toThrow();
  });
});

/** French text with what is not prose taken out: `code`, :emoji:, URLs, Slack tokens, ICU variables. */
const prose = (s: string) =>
  s
    .replace(/`[^`]*`/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ')
    .replace(/\{[^{}]*\}/g, ' ');

/** The places French typography wants a narrow no-break space before `:;?!` and does not have one. */
function typographyFaults(source: string): string[] {
  const faults: string[] = [];
  const text = prose(source);
  for (const m of text.matchAll(/(.)([:;?!])/gu)) if (m[1] !== '\u202f') faults.push(`${m[1]}${m[2]}`);
  for (const m of text.matchAll(/«(.)|(.)»/gu)) if ((m[1] ?? m[2]) !== '\u202f') faults.push(m[0]);
  if (/["“”]/.test(text)) faults.push('straight or English quotes: « guillemets » in French');
  return faults;
}

describe('French typography', () => {
  it('every French message has a narrow no-break space before : ; ? ! and inside « »', () => {
    for (const key of messageKeys) expect(typographyFaults(fr[key]), key).toEqual([]);
  });

  it('the scan catches a plain space, no space and plain quotes, and leaves code, emoji and tokens alone', () => {
    expect(typographyFaults('Ticket créé : voilà')).toEqual([' :']);
    expect(typographyFaults('Vraiment?')).toEqual(['t?']);
    expect(typographyFaults('« Réunion»')).toEqual(['« ', 'n»']);
    expect(typographyFaults('le nom "x"')).toHaveLength(1);
    expect(
      typographyFaults('`type:` :white_check_mark: <https://x.example/a?b=c|lien> <!date^1^{date}|x>'),
    ).toEqual([]);
    expect(typographyFaults('Fait\u202f! «\u202fRéunion\u202f»')).toEqual([]);
  });
});

describe('t', () => {
  it('escapes outside values exactly as md`…` does, and keeps mrkdwn values', () => {
    const hostile = "<!channel> & <@U1> {x} 'quoted' it's";
    expect(t('en', 'ticket.notUnderstood').text).toBe(md`I did not understand that.`.text);
    const m = t('fr', 'ticket.help.help');
    expect(m.text).toBe('• `/ticket aide` affiche ce message');
    // The catalog's own `<id or reference>` is escaped like md's template text.
    expect(t('en', 'ticket.help.show').text).toContain('&lt;id or reference&gt;');
    // Values: through a one-variable message compiled ad hoc the same way.
    const probe = new IntlMessageFormat('a {v} b', 'en', undefined, { ignoreTag: true });
    expect(probe.format({ v: hostile })).toBe(`a ${hostile} b`);
    expect(md`${hostile}`.text).toBe("&lt;!channel&gt; &amp; &lt;@U1&gt; {x} 'quoted' it's");
    expect(mention('U123ABC').text).toBe('<@U123ABC>');
  });

  it('fills every variable with outside text escaped as md`…` does; ICU apostrophes do not leak', () => {
    const outside = "it's {x} <!here> & 'q' #";
    for (const locale of locales)
      for (const key of messageKeys) {
        const values = Object.fromEntries(variablesOf(en[key]).map((v) => [v, outside]));
        const out = t(locale, key, values).text;
        if (variablesOf(en[key], 'text').length) expect(out, key).toContain(md`${outside}`.text);
        expect(out.split(md`${outside}`.text).join(''), `${locale} ${key}`).not.toMatch(/''|<|>/);
      }
    expect(t('fr', 'ticket.notUnderstood').text).toBe('Je n’ai pas compris.');
    expect(t('en', 'ticket.list.requestor', { value: '<@U1>' }).text).toBe(
      md`requestor: takes a requestor id (a number), not “${'<@U1>'}”.`.text,
    );
  });

  it('tPlain leaves plain text unescaped', () => {
    expect(tPlain('en', 'ticket.help.show')).toContain('<id or reference>');
  });
});

describe('locales and formats', () => {
  it('every French Slack locale is fr, anything else en', () => {
    expect(localeOfSlack('fr-FR')).toBe('fr');
    expect(localeOfSlack('fr-CA')).toBe('fr');
    expect(localeOfSlack('en-US')).toBe('en');
    expect(localeOfSlack('es-ES')).toBe('en');
    expect(localeOfSlack('fry-NL')).toBe('en');
    expect(localeOfSlack(undefined)).toBe('en');
  });

  it('writes numbers, dates and durations for the locale', () => {
    expect(formatNumber('fr', 1234.5)).toBe('1\u202f234,5');
    expect(formatNumber('en', 1234.5)).toBe('1,234.5');
    const at = new Date('2026-11-27T13:05:00Z');
    expect(formatDateTime('fr', at, 'Europe/Paris')).toBe('27 nov. 2026, 14:05');
    expect(formatDateTime('en', at, 'Europe/Paris')).toBe('Nov 27, 2026, 2:05 PM');
    expect(formatMinutes('fr', 90)).toMatch(/^1[\u00a0\u202f]h, 30[\u00a0\u202f]min$/u);
    expect(formatMinutes('en', 45)).toBe('45 min');
  });
});
