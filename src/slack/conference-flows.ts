import { buildConferenceForm } from '../blocks/conference-form.js';
import { clipPlain, escaped, joinMd, type Mrkdwn, md } from '../blocks/mrkdwn.js';
import type { ConferenceFormValues, ConferenceSummary } from '../domain/conference.js';
import { parseConferenceRequest } from '../domain/conference-text.js';
import { parseWhen } from '../domain/time.js';
import { isCannotPost } from '../util/slack-errors.js';
import { within } from '../util/within.js';
import type { ConferenceDeps } from './deps.js';
import { type FormMetadata, readFormMetadata } from './payloads.js';

export type { FormMetadata };

/** The conference form's metadata; anything that is not an edit's (empty, forged) is a create form. */
export const readMetadata = readFormMetadata;

/** How long a door that opens a modal waits for the policy's answer (a trigger lasts 3 s). */
export const gateMs = 1_500;

/**
 * Refuses at once, when the policy's answer comes quickly (the person's account is usually cached),
 * before a modal opens; a slow answer lets the modal open, and what it submits is checked again.
 */
export async function gate(deps: Pick<ConferenceDeps, 'access'>, user: string, action: 'conference.create') {
  const early = await within(deps.access.require(user, action), gateMs);
  if (early && 'error' in early) throw early.error;
}

/** The words the form lists back: enough to spot a typo, not a whole pasted text. */
const shownWords = 10;

/** "I did not understand: “a”, “b” and 3 more.", each word clipped. */
function notUnderstood(words: string[]): Mrkdwn {
  const shown = words.slice(0, shownWords).map((w) => md`“${clipPlain(w, 40)}”`);
  const more = words.length - shown.length;
  return md`I did not understand: ${joinMd(shown, ', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}.`;
}

/**
 * The create form prefilled with what a command's text says, with notes on what it could not read.
 * The person's zone (users.info) places the time; without it the time is left for them to pick.
 */
export async function formFromText(
  deps: ConferenceDeps,
  user: string,
  channel: string | undefined,
  text: string,
) {
  await gate(deps, user, 'conference.create');
  const req = parseConferenceRequest(text);
  const values: ConferenceFormValues = {
    channel,
    participants: req.participants,
    people: req.mentions,
    name: req.name,
    duration: req.duration,
    moderator: user,
  };
  if (req.when) {
    const zone = await deps.identity.profile(user).then(
      (p) => p.tz,
      () => undefined,
    );
    const when = zone ? parseWhen(req.when, { zone, now: deps.now() }) : undefined;
    if (when?.ok) values.startTime = when.value.toJSDate();
  }
  const notices = [...(req.unknown.length ? [notUnderstood(req.unknown)] : []), ...req.problems.map(escaped)];
  return buildConferenceForm({
    mode: 'create',
    values,
    metadata: JSON.stringify({ mode: 'create' } satisfies FormMetadata),
    notices,
  });
}

/** Posts the card in the channel; false when the bot may not post there (the caller says how to fix it). */
export async function postCard(
  deps: Pick<ConferenceDeps, 'publisher'>,
  channel: string,
  c: ConferenceSummary,
) {
  try {
    await deps.publisher.postConferenceCard(channel, c);
    return true;
  } catch (error) {
    if (isCannotPost(error)) return false;
    throw error;
  }
}
