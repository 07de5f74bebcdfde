import { type Mrkdwn, md } from '../blocks/mrkdwn.js';
import { type Phrase, phrase, sayIn } from '../blocks/text.js';
import { catalogs, type MessageKey } from '../i18n/catalog.js';
import type { Locale } from '../i18n/locale.js';

/**
 * Errors the services throw for situations a person can fix. Like the platform's errors they carry a
 * string `code`; what they say is a catalog `Phrase` (written in the person's language where it is
 * shown: `messageIn`) or `Mrkdwn` made with md`…`, so it is safe to show in Slack either way.
 */
export class ConfdeskError extends Error {
  constructor(
    readonly code: string,
    readonly said: Mrkdwn | Phrase,
    /** For forms: the parameter the problem belongs to (`participants`, `people`, `moderator`…). */
    readonly field?: string,
  ) {
    super(sayIn('en', said).text);
    this.name = 'ConfdeskError';
  }

  /** The sentence in English (logs, tests); people read `messageIn(their locale)`. */
  get userMessage(): Mrkdwn {
    return sayIn('en', this.said);
  }

  /** The sentence in `locale`. */
  messageIn(locale: Locale): Mrkdwn {
    return sayIn(locale, this.said);
  }
}

/** The person has no platform account with their Slack e-mail, or no e-mail in Slack. */
export const noPlatformAccount = (email: string | undefined) =>
  new ConfdeskError(
    'no_platform_account',
    email ? phrase('identity.noAccount', { email }) : phrase('identity.noEmail'),
  );

/**
 * A refusal by the policy (`domain/policy.ts`): its sentence from the catalogs (`policy.<refusal>`),
 * written in the person's language; a row the catalogs do not name keeps its English sentence, escaped.
 */
export const notAllowed = (decision: { why: string; refusal: string }) => {
  const key = `policy.${decision.refusal}`;
  return new ConfdeskError(
    'not_allowed',
    decision.refusal && key in catalogs.en ? phrase(key as MessageKey) : md`${decision.why}`,
  );
};
