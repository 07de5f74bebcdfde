import type { WebClient } from '@slack/web-api';
import { buildConferenceCard, type MessagePayload } from '../blocks/conference-card.js';
import { buildConferenceForm } from '../blocks/conference-form.js';
import { clip } from '../blocks/limits.js';
import type { DoctorReport } from '../doctor/doctor.js';
import type { ConferenceFormValues, ConferenceSummary } from '../domain/conference.js';
import { parseConferenceRequest } from '../domain/conference-text.js';
import { parseWhen } from '../domain/time.js';
import type { Logger } from '../observability/logger.js';
import type { AccessService } from '../services/access.js';
import type { ConferenceService } from '../services/conferences.js';
import type { DigestService } from '../services/digest.js';
import type { DigestScheduleService } from '../services/digest-schedules.js';
import type { IdentityService } from '../services/identity.js';
import { within } from '../util/within.js';
import { isCannotPost } from './describe-error.js';
import { type FormMetadata, readFormMetadata } from './payloads.js';

/** What the conference listeners need: the services, a logger and a clock. */
export interface ConferenceDeps {
  conferences: ConferenceService;
  identity: IdentityService;
  /** The policy applied to a Slack person (`domain/policy.ts`). */
  access: AccessService;
  logger: Logger;
  now: () => Date;
  /** For `/conference digest` (the channel's daily statistics): its schedules and its figures. */
  schedules: DigestScheduleService;
  digests: DigestService;
  /** `/conference admin doctor`: runs the doctor (absent: the command says it is not wired). */
  doctor?: (() => Promise<DoctorReport>) | undefined;
}

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
function notUnderstood(words: string[]): string {
  const shown = words.slice(0, shownWords).map((w) => `“${clip(w, 40)}”`);
  const more = words.length - shown.length;
  return `I did not understand: ${shown.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}.`;
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
  const notices = [...(req.unknown.length ? [notUnderstood(req.unknown)] : []), ...req.problems];
  return buildConferenceForm({
    mode: 'create',
    values,
    metadata: JSON.stringify({ mode: 'create' } satisfies FormMetadata),
    notices,
  });
}

/** Posts the card in the channel; false when the bot may not post there (the caller says how to fix it). */
export async function postCard(client: WebClient, channel: string, c: ConferenceSummary): Promise<boolean> {
  try {
    await client.chat.postMessage({ channel, ...buildConferenceCard(c) });
    return true;
  } catch (error) {
    if (isCannotPost(error)) return false;
    throw error;
  }
}

/** Posts to a response_url (replace or add an ephemeral message), outside a listener's `respond`. */
export async function postToResponseUrl(url: string, body: MessagePayload & Record<string, unknown>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`response_url answered ${res.status}`);
}
