import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildConferenceForm, conferenceTextProblem } from '../../blocks/conference-form.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { clipPlain, joinMd, type Mrkdwn } from '../../blocks/mrkdwn.js';
import { t, tPlain } from '../../blocks/text.js';
import { buildTicketForm } from '../../blocks/ticket-form.js';
import type { ConferenceFormValues } from '../../domain/conference.js';
import { parseConferenceRequest } from '../../domain/conference-text.js';
import type { TicketFormValues } from '../../domain/ticket.js';
import { parseWhen } from '../../domain/time.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { within } from '../../util/within.js';
import type { ConferenceDeps, TicketFormDeps } from '../deps.js';
import type { FormMetadata } from '../input/payloads.js';
import { replyError, updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';

/*
 * The create forms, opened from several doors (a command, a shortcut, a button, App Home): here, so
 * that no surface imports another for them.
 */

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
function notUnderstood(locale: Locale, words: string[]): Mrkdwn {
  const shown = words
    .slice(0, shownWords)
    .map((w) => t(locale, 'conference.form.word', { word: clipPlain(w, 40) }));
  const more = words.length - shown.length;
  return more > 0
    ? t(locale, 'conference.form.notUnderstoodMore', { words: joinMd(shown, ', '), more })
    : t(locale, 'conference.form.notUnderstood', { words: joinMd(shown, ', ') });
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
  // The person's language (their cached profile), asked for beside the policy's answer.
  const asked = deps.locales.person(user);
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
  const locale = await asked;
  const notices = [
    ...(req.unknown.length ? [notUnderstood(locale, req.unknown)] : []),
    ...req.problems.map((p) => conferenceTextProblem(locale, p)),
  ];
  return buildConferenceForm({
    locale,
    mode: 'create',
    values,
    metadata: JSON.stringify({ mode: 'create' } satisfies FormMetadata),
    notices,
  });
}

/**
 * Opens the create form. The trigger lasts 3 s and the group and agent lists come from the platform,
 * so a "Loading…" modal opens at once and the form replaces it when the lists are there.
 */
export async function openTicketForm(
  deps: TicketFormDeps,
  client: WebClient,
  triggerId: string,
  user: string,
  values: TicketFormValues,
  /** What only the open modal leaves time to read (a reacted message's text), and notes on it. */
  prefill?: () => Promise<{ values: Partial<TicketFormValues>; notices: Mrkdwn[] }>,
): Promise<void> {
  // The person's language: at most a second's wait, within the trigger's 3 s.
  const locale = await deps.locales.person(user);
  const ticketTitle = tPlain(locale, 'ticketForm.title');
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: buildWorkingView(
      locale,
      ticketTitle,
      workingText(locale, tPlain(locale, 'ticketForm.loading'), deps.waitMs()),
    ),
  });
  const viewId = opened.view?.id as string;
  const more = prefill?.();
  // The agent defaults to the person, when they have a platform account.
  const agent = values.agent ?? (await deps.tickets.agentFor(user));
  const extra = await more;
  const show = updateView(client, viewId);
  await deps.tickets.formChoices(user, { agent, groupId: values.groupId }).then(
    (choices) =>
      show(
        buildTicketForm({
          locale,
          values: { ...values, ...extra?.values, agent },
          choices,
          metadata: '',
          ...(extra?.notices.length ? { notices: extra.notices } : {}),
        }),
      ),
    (error: unknown) =>
      replyError(
        { kind: 'modal', show, title: ticketTitle, log: requestLog(deps.logger, { user }), locale },
        error,
      ),
  );
}

/**
 * Opens the create form for a door without a command's text (the global shortcut, Home's button).
 * A refusal (no account) is shown in a modal: a shortcut from Home has no channel to answer in.
 */
export function openConferenceForm(
  deps: ConferenceDeps,
  client: WebClient,
  triggerId: string,
  who: { user: string; channel?: string | undefined; log: Logger },
): void {
  const show = (view: ModalView) => client.views.open({ trigger_id: triggerId, view });
  // The person's language for a refusal too (their cached profile: the form asks for it as well).
  void deps.locales
    .person(who.user)
    .then((locale) =>
      afterAck(
        { kind: 'modal', show, title: tPlain(locale, 'conference.form.titleCreate'), log: who.log, locale },
        async () => show(await formFromText(deps, who.user, who.channel, '')),
      ),
    );
}
