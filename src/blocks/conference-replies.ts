import type { ConferenceSummary } from '../domain/conference.js';
import type { Locale } from '../i18n/locale.js';
import { buildConferenceCard, dateToken } from './conference-card.js';
import { ids } from './ids.js';
import {
  actions,
  button,
  type MessagePayload,
  message,
  section,
  type TextMessage,
  textMessage,
} from './kit.js';
import { limits } from './limits.js';
import { channelLink, clipPlain, empty, type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';

/*
 * The private replies of `/conference` and of its form: what happened, in the bot's words.
 */

/**
 * A `/conference` that failed, with an "Open the form" button carrying the command's text, so a
 * failed command loses nothing. `problem`: the bot's sentence, or a parser's plain one (escaped).
 */
export function buildConferenceFailure(
  locale: Locale,
  problem: Mrkdwn | string,
  commandText: string,
): MessagePayload {
  const text = md`${problem}`;
  return message(text, [
    section(text),
    actions([
      button(tPlain(locale, 'conference.reply.openForm'), ids.actions.conferenceOpenForm, {
        value: clipPlain(commandText, limits.buttonValue),
      }),
    ]),
  ]);
}

/** A requested start already past: the time as typed, in the person's zone. */
export const buildConferencePast = (
  locale: Locale,
  when: string,
  zone: string,
  commandText: string,
): MessagePayload =>
  buildConferenceFailure(locale, t(locale, 'conference.reply.past', { when, zone }), commandText);

/**
 * A conference created from the command, when something is left to say: a field the platform did
 * not keep (`dropped`), and, when its card could not be posted (`problem`: why and how to fix it),
 * the card itself, privately.
 */
export function buildConferenceCreated(
  locale: Locale,
  c: ConferenceSummary,
  o: { dropped?: Mrkdwn | undefined; problem?: Mrkdwn | undefined },
): MessagePayload | TextMessage {
  if (!o.problem) return textMessage(t(locale, 'conference.reply.created', { dropped: o.dropped ?? empty }));
  const fix = o.dropped
    ? t(locale, 'conference.reply.createdCardDropped', { problem: o.problem, dropped: o.dropped })
    : t(locale, 'conference.reply.createdCard', { problem: o.problem });
  return message(fix, [section(fix), ...buildConferenceCard(locale, c).blocks]);
}

/** `/conference delete`: the card, whose own Delete button (with its confirmation) deletes. */
export const buildConferenceDeletePrompt = (locale: Locale, c: ConferenceSummary): MessagePayload =>
  message(t(locale, 'conference.reply.deleteFallback', { name: clipPlain(c.name, 300) }), [
    section(t(locale, 'conference.reply.deletePrompt')),
    ...buildConferenceCard(locale, c).blocks,
  ]);

/** What the conference form's submission did (the result view's sentence). */
export type ConferenceOutcome =
  | { kind: 'saved' }
  | { kind: 'planned'; channel: string; posted: true }
  | { kind: 'planned'; channel: string; posted: false; fix: Mrkdwn }
  | { kind: 'card-failed'; mode: 'create' | 'edit'; why: Mrkdwn };

/** The form's outcome: the conference by name, when it starts, where its card is; `dropped` after. */
export function buildConferenceOutcome(
  locale: Locale,
  c: { name: string; start?: Date | undefined },
  o: ConferenceOutcome,
  dropped?: Mrkdwn,
): Mrkdwn {
  const name = md`:white_check_mark: *${clipPlain(c.name, 1_000)}*`;
  const at = c.start ? dateToken(locale, c.start) : undefined;
  const said =
    o.kind === 'saved'
      ? t(locale, 'conference.outcome.saved', { name })
      : o.kind === 'planned'
        ? o.posted
          ? at
            ? t(locale, 'conference.outcome.postedAt', { name, at, channel: channelLink(o.channel) })
            : t(locale, 'conference.outcome.posted', { name, channel: channelLink(o.channel) })
          : at
            ? t(locale, 'conference.outcome.notPostedAt', { name, at, fix: o.fix })
            : t(locale, 'conference.outcome.notPosted', { name, fix: o.fix })
        : o.mode === 'create'
          ? at
            ? t(locale, 'conference.outcome.createFailedAt', { name, at, why: o.why })
            : t(locale, 'conference.outcome.createFailed', { name, why: o.why })
          : at
            ? t(locale, 'conference.outcome.editFailedAt', { name, at, why: o.why })
            : t(locale, 'conference.outcome.editFailed', { name, why: o.why });
  return dropped ? md`${said}\n${dropped}` : said;
}
