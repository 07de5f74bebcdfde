import { escapeChars } from '../domain/escape-chars.js';

/**
 * Errors the services throw for situations a person can fix. Like the platform's errors they carry a
 * string `code` and a `userMessage` that is safe to show in Slack.
 */
export class ConfdeskError extends Error {
  constructor(
    readonly code: string,
    readonly userMessage: string,
    /** For forms: the parameter the problem belongs to (`participants`, `people`, `moderator`…). */
    readonly field?: string,
  ) {
    super(userMessage);
    this.name = 'ConfdeskError';
  }
}

export const noPlatformAccount = (email: string | undefined) =>
  new ConfdeskError(
    'no_platform_account',
    email
      ? `Your Slack e-mail (${escapeChars(email)}) has no account on the video platform. Ask a platform administrator to create one with this e-mail, then try again.`
      : 'Your Slack profile has no e-mail address, so confdesk cannot find your video platform account. Add your e-mail to your Slack profile, or ask a workspace admin to make it visible to apps.',
  );

export const notAllowed = (message: string) => new ConfdeskError('not_allowed', message);
