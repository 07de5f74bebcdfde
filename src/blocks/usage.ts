import { type TextMessage, textMessage } from './kit.js';
import { joinMd, type Mrkdwn, md } from './mrkdwn.js';

/*
 * The slash commands' help texts. Written with md`…`, so a `<id>` in them shows literally. The lines
 * of `/conference` and `/ticket` sit beside their handlers, in the commands' verb tables.
 */

const lines = (...parts: Mrkdwn[]) => joinMd(parts, md`\n`);

/** A command's help: its title line, then its verbs' lines (the verb tables of `slack/commands/` give them). */
export const helpOf = (title: Mrkdwn, verbs: readonly Mrkdwn[]): Mrkdwn => lines(title, ...verbs);

/** The help of `/conference digest` (its own words are not a verb table: `slack/commands/digest.ts`). */
export const usages = {
  digest: lines(
    md`*\`/conference digest\`* — the enterprise’s daily statistics in this channel`,
    md`• \`/conference digest at 9:00 [daily|weekdays|mon-fri|mon,wed,fri] [in Europe/Paris]\` — schedule it (your time zone unless given)`,
    md`• \`/conference digest\` opens the form · \`digest edit <id>\` changes one`,
    md`• \`/conference digest list\` · \`/conference digest off [id]\` · \`/conference digest now\` (a private preview)`,
  ),
} as const;

/**
 * A command's help (`helpOf`, or `usages.digest`), after what went wrong when there is something to
 * say (`problem`: the bot's own sentence, or a parser's plain one, escaped), a blank line between them.
 */
export function buildUsage(help: Mrkdwn, problem?: Mrkdwn | string): TextMessage {
  return textMessage(problem === undefined ? help : md`${problem}\n\n${help}`);
}
