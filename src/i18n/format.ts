import { DateTime, Duration } from 'luxon';
import type { Locale } from './locale.js';

/*
 * Numbers, dates and durations written for a locale: `Intl` and luxon already know how
 * (1 234,5 and 27 nov. 2026 in French).
 */

/** A number written for the locale (French groups thousands with a narrow no-break space). */
export const formatNumber = (locale: Locale, n: number, options?: Intl.NumberFormatOptions): string =>
  new Intl.NumberFormat(locale, options).format(n);

/** A date and time in `zone`, written for the locale (`27 nov. 2026, 14:05` / `Nov 27, 2026, 2:05 PM`). */
export const formatDateTime = (locale: Locale, at: Date, zone: string): string =>
  DateTime.fromJSDate(at, { zone }).setLocale(locale).toLocaleString(DateTime.DATETIME_MED);

/** A duration in whole minutes, written for the locale (`1 h 30 min` / `1 hr, 30 min`). */
export function formatMinutes(locale: Locale, minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const d = Duration.fromObject({ hours: Math.floor(whole / 60), minutes: whole % 60 }, { locale });
  const parts = whole >= 60 && whole % 60 === 0 ? d.shiftTo('hours') : whole < 60 ? d.shiftTo('minutes') : d;
  return parts.toHuman({ unitDisplay: 'short' });
}

/** Size units by locale: French writes octets (`ko`, `Mo`, `Go`). */
const sizeUnits: Record<Locale, readonly [string, string, string]> = {
  en: ['kB', 'MB', 'GB'],
  fr: ['ko', 'Mo', 'Go'],
};

/** A file size for people, written for the locale: `209.7 MB` / `209,7 Mo` (blocks/format.ts `humanSize` in English). */
export function formatSize(locale: Locale, bytes: number): string {
  const [kb, mb, gb] = sizeUnits[locale];
  const tenth = (n: number) =>
    formatNumber(locale, n, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
  const space = locale === 'fr' ? '\u00a0' : ' ';
  return bytes >= 1e9
    ? `${tenth(bytes / 1e9)}${space}${gb}`
    : bytes >= 1e6
      ? `${tenth(bytes / 1e6)}${space}${mb}`
      : `${formatNumber(locale, Math.ceil(bytes / 1e3), { useGrouping: false })}${space}${kb}`;
}
