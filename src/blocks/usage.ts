import type { MessageKey } from '../i18n/catalog.js';
import type { Locale } from '../i18n/locale.js';
import { type TextMessage, textMessage } from './kit.js';
import { joinMd, Mrkdwn, md } from './mrkdwn.js';
import { t } from './text.js';

/*
 * The slash commands' help texts. Written with md`…`, so a `<id>` in them shows literally. The lines
 * of `/conference`, `/conference digest` and `/ticket` sit beside their handlers, in the commands'
 * verb tables.
 */

const lines = (...parts: Mrkdwn[]) => joinMd(parts, md`\n`);

/**
 * A line of a command's help: a catalog message, or one with variables written for a locale (a
 * translated command: every line of its table is one, so its help is wholly in the person's
 * language), or English mrkdwn (a command not translated yet, whose help stays wholly English).
 */
export type HelpLine = Mrkdwn | MessageKey | ((locale: Locale) => Mrkdwn);

/** A help line in `locale`. */
export const helpLine = (locale: Locale, line: HelpLine): Mrkdwn =>
  line instanceof Mrkdwn ? line : typeof line === 'function' ? line(locale) : t(locale, line);

/** A command's help in `locale`: its title line, then its verbs' lines (`helpOf`). */
export const helpIn = (locale: Locale, title: HelpLine, verbs: readonly HelpLine[]): Mrkdwn =>
  helpOf(
    helpLine(locale, title),
    verbs.map((v) => helpLine(locale, v)),
  );

/** A command's help: its title line, then its verbs' lines (the verb tables of `slack/commands/` give them). */
export const helpOf = (title: Mrkdwn, verbs: readonly Mrkdwn[]): Mrkdwn => lines(title, ...verbs);

/**
 * A command's help (`helpOf`), after what went wrong when there is something to
 * say (`problem`: the bot's own sentence, or a parser's plain one, escaped), a blank line between them.
 */
export function buildUsage(help: Mrkdwn, problem?: Mrkdwn | string): TextMessage {
  return textMessage(problem === undefined ? help : md`${problem}\n\n${help}`);
}
