import type { Locale } from '../../i18n/locale.js';

/*
 * The language of what one person alone sees (ephemeral answers, modals, App Home, DMs): their Slack
 * locale, kept with their cached profile (`IdentityService.locale`), so no request once it is known.
 * Every such surface asks here, so a slow `users.info` never holds a reply for more than a second.
 */

/** How long a reply waits for the person's language before it answers in English. */
const localeWaitMs = 1_000;

/**
 * The person's language, from `of` (their cached profile: no request once it is known), or English
 * when there is no `of`, when it fails, or when Slack takes longer than `localeWaitMs` to say.
 * `wait: 'known'`: only a language already known (a cached profile answers within the turn); the
 * profile is still asked for, so it is known next time (an ack that must not wait for Slack).
 */
export async function personLocale(
  of: ((user: string) => Promise<Locale>) | undefined,
  user: string,
  wait: 'bounded' | 'known' = 'bounded',
): Promise<Locale> {
  if (!of) return 'en';
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  const late = new Promise<Locale>((resolve) => {
    if (wait === 'known') immediate = setImmediate(() => resolve('en'));
    else {
      timer = setTimeout(() => resolve('en'), localeWaitMs);
      timer.unref?.();
    }
  });
  try {
    const asked = new Promise<Locale>((resolve) => resolve(of(user))).catch((): Locale => 'en');
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  }
}
