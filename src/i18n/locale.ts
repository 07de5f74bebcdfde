/*
 * The languages confdesk writes in. What one person sees follows their Slack locale (`users.info`
 * with `include_locale`); what a channel sees follows the workspace's language (`LANGUAGE`).
 */

/** A language confdesk has a catalog for. */
export type Locale = 'en' | 'fr';

/** Every locale, English (the reference catalog) first. */
export const locales: readonly Locale[] = ['en', 'fr'];

/** The language when nothing says otherwise. */
export const defaultLocale: Locale = 'en';

/** True for a value that names one of the catalogs (`en`, `fr`). */
export const isLocale = (value: unknown): value is Locale => value === 'en' || value === 'fr';

/**
 * The catalog for a Slack locale (`fr-FR`, `fr-CA`, `en-US`, `es-ES`…): every French one is `fr`,
 * everything else (and no locale at all) English.
 */
export const localeOfSlack = (slackLocale: string | undefined): Locale =>
  /^fr(?:[-_]|$)/i.test(slackLocale ?? '') ? 'fr' : 'en';
