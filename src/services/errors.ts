import { type Mrkdwn, md } from '../blocks/mrkdwn.js';
import { type Phrase, sayIn } from '../blocks/text.js';
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

export const noPlatformAccount = (email: string | undefined) =>
  new ConfdeskError(
    'no_platform_account',
    email
      ? md`Your Slack e-mail (${email}) has no account on the video platform. Ask a platform administrator to create one with this e-mail, then try again.`
      : md`Your Slack profile has no e-mail address, so confdesk cannot find your video platform account. Add your e-mail to your Slack profile, or ask a workspace admin to make it visible to apps.`,
  );

/** A refusal by the policy: its sentence is the policy's own (`domain/policy.ts`), escaped. */
export const notAllowed = (message: string) => new ConfdeskError('not_allowed', md`${message}`);
