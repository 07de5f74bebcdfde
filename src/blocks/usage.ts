import { type TextMessage, textMessage } from './kit.js';
import { joinMd, type Mrkdwn, md } from './mrkdwn.js';

/*
 * The slash commands' help texts. Written with md`…`, so a `<id>` in them shows literally. The lines
 * of `/conference`, `/conference digest` and `/ticket` sit beside their handlers, in the commands'
 * verb tables.
 */

const lines = (...parts: Mrkdwn[]) => joinMd(parts, md`\n`);

/** A command's help: its title line, then its verbs' lines (the verb tables of `slack/commands/` give them). */
export const helpOf = (title: Mrkdwn, verbs: readonly Mrkdwn[]): Mrkdwn => lines(title, ...verbs);

/**
 * A command's help (`helpOf`), after what went wrong when there is something to
 * say (`problem`: the bot's own sentence, or a parser's plain one, escaped), a blank line between them.
 */
export function buildUsage(help: Mrkdwn, problem?: Mrkdwn | string): TextMessage {
  return textMessage(problem === undefined ? help : md`${problem}\n\n${help}`);
}
