import type { ConferenceSummary } from '../domain/conference.js';
import { buildConferenceCard } from './conference-card.js';
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
import { channelLink, clipPlain, date, empty, type Mrkdwn, md } from './mrkdwn.js';

/*
 * The private replies of `/conference` and of its form: what happened, in the bot's words.
 */

/**
 * A `/conference` that failed, with an "Open the form" button carrying the command's text, so a
 * failed command loses nothing. `problem`: the bot's sentence, or a parser's plain one (escaped).
 */
export function buildConferenceFailure(problem: Mrkdwn | string, commandText: string): MessagePayload {
  const text = md`${problem}`;
  return message(text, [
    section(text),
    actions([
      button('Open the form', ids.actions.conferenceOpenForm, {
        value: clipPlain(commandText, limits.buttonValue),
      }),
    ]),
  ]);
}

/** A requested start already past: the time as typed, in the person's zone. */
export const buildConferencePast = (when: string, zone: string, commandText: string): MessagePayload =>
  buildConferenceFailure(md`${when} (${zone}) has already passed. Pick a time ahead.`, commandText);

/**
 * A conference created from the command, when something is left to say: a field the platform did
 * not keep (`dropped`), and, when its card could not be posted (`problem`: why and how to fix it),
 * the card itself, privately.
 */
export function buildConferenceCreated(
  c: ConferenceSummary,
  o: { dropped?: Mrkdwn | undefined; problem?: Mrkdwn | undefined },
): MessagePayload | TextMessage {
  if (!o.problem) return textMessage(md`The conference is created. ${o.dropped ?? empty}`);
  const fix = md`The conference is created. ${o.problem}${o.dropped ? md` ${o.dropped}` : empty} Here is its card:`;
  return message(fix, [section(fix), ...buildConferenceCard(c).blocks]);
}

/** `/conference delete`: the card, whose own Delete button (with its confirmation) deletes. */
export const buildConferenceDeletePrompt = (c: ConferenceSummary): MessagePayload =>
  message(md`Delete “${clipPlain(c.name, 300)}”?`, [
    section(md`Delete this conference? Press *Delete* on the card below to confirm.`),
    ...buildConferenceCard(c).blocks,
  ]);

/** What the conference form's submission did (the result view's sentence). */
export type ConferenceOutcome =
  | { kind: 'saved' }
  | { kind: 'planned'; channel: string; posted: true }
  | { kind: 'planned'; channel: string; posted: false; fix: Mrkdwn }
  | { kind: 'card-failed'; mode: 'create' | 'edit'; why: Mrkdwn };

/** The form's outcome: the conference by name, when it starts, where its card is; `dropped` after. */
export function buildConferenceOutcome(
  c: { name: string; start?: Date | undefined },
  o: ConferenceOutcome,
  dropped?: Mrkdwn,
): Mrkdwn {
  const name = md`:white_check_mark: *${clipPlain(c.name, 1_000)}*`;
  const at = c.start ? md` for ${date(c.start)}` : empty;
  const said =
    o.kind === 'saved'
      ? md`${name} is saved.`
      : o.kind === 'planned'
        ? o.posted
          ? md`${name} is planned${at}. Its card is in ${channelLink(o.channel)}.`
          : md`${name} is planned${at}. ${o.fix}`
        : md`${name} is ${o.mode === 'create' ? 'planned' : 'saved'}${at}, but its card could not be ${o.mode === 'create' ? 'posted' : 'updated'}: ${o.why}`;
  return dropped ? md`${said}\n${dropped}` : said;
}
