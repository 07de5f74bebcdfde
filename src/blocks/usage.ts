import { durationExamples, whenExamples } from '../domain/time.js';
import { type TextMessage, textMessage } from './kit.js';
import { joinMd, type Mrkdwn, md } from './mrkdwn.js';

/*
 * The slash commands' help texts. Written with md`…`, so a `<id>` in them shows literally.
 */

const lines = (...parts: Mrkdwn[]) => joinMd(parts, md`\n`);

/** The help of each command (`digest`: `/conference digest`). */
export const usages = {
  ticket: lines(
    md`*\`/ticket\`* — remote-assistance tickets`,
    md`• \`/ticket\` opens the form; \`/ticket new jane.doe@example.com +33612345678 Router does not boot\` prefills it`,
    md`• \`/ticket list [mine|all|group <name>|ref <reference>|<search>]\` with \`type:\` \`since:\` \`until:\` \`started:\` \`ended:\` (YYYY-MM-DD) \`requestor:<id>\``,
    md`• \`/ticket show <id or reference>\` posts the ticket’s live card here: its buttons move the ticket`,
    md`• \`/ticket watch <id or reference>\` · \`/ticket unwatch <id or reference>\`: this channel gets (or stops getting) the ticket’s events`,
    md`• \`/ticket follow [group:"Level 1"] [agent:<username>] [type:<t>] [states:open,inprogress] [events:<kinds>] [broadcast]\`: new tickets and their events`,
    md`• \`/ticket subscriptions\` lists what this channel follows`,
    md`• \`/ticket help\` shows this message`,
  ),
  conference: lines(
    md`*\`/conference\`* — plan a video conference`,
    md`• \`/conference\` opens the form`,
    md`• \`/conference alice@example.com +33612345678 @bob tomorrow 3pm 45m "Weekly sync"\` creates it directly`,
    md`   times: ${whenExamples} (in your Slack time zone); durations: ${durationExamples}`,
    md`• \`/conference list [upcoming|past|all|<search>]\` your conferences`,
    md`• \`/conference show <id or room name>\` · \`/conference delete <id>\``,
    md`• \`/conference digest at 9:00 [weekdays] [in Europe/Paris]\` · \`digest list\` · \`digest off\` · \`digest now\` — daily statistics here`,
    md`• \`/conference admin doctor\` — platform admins: the doctor’s report (configuration, Slack, platform, store), privately`,
    md`• \`/conference admin people [search]\` · \`/conference admin groups\` — platform admins: the enterprise’s users (search, create, edit, delete, password reset) and groups`,
    md`• \`/conference password\` sends you the video platform’s password reset e-mail; admins: \`/conference password <login>\` for anyone`,
    md`• \`/conference media [type:recording] [status:completed] [source:<s>] [tag:<t>] [user:<login or e-mail>] [group:"Level 1"] [conversation:<id>] [since:YYYY-MM-DD] [until:YYYY-MM-DD] [words]\` — the media library: browse, show, edit, delete, share into a channel`,
    md`• \`/conference admin link @person <platform e-mail|login|id>\` · \`admin unlink @person\` — platform admins: who someone acts as when their e-mails differ`,
    md`• \`/conference admin settings\` — Slack workspace admins, when confdesk is installed with Add to Slack: its platform address, account and defaults for this workspace`,
    md`• \`/conference help\` shows this message`,
  ),
  digest: lines(
    md`*\`/conference digest\`* — the enterprise’s daily statistics in this channel`,
    md`• \`/conference digest at 9:00 [daily|weekdays|mon-fri|mon,wed,fri] [in Europe/Paris]\` — schedule it (your time zone unless given)`,
    md`• \`/conference digest\` opens the form · \`digest edit <id>\` changes one`,
    md`• \`/conference digest list\` · \`/conference digest off [id]\` · \`/conference digest now\` (a private preview)`,
  ),
} as const;

/**
 * A command's help, after what went wrong when there is something to say (`problem`: the bot's own
 * sentence, or a parser's plain one, escaped). `gap`: the blank line between them (`/ticket` uses none).
 */
export function buildUsage(
  command: keyof typeof usages,
  problem?: Mrkdwn | string,
  gap: Mrkdwn = md`\n\n`,
): TextMessage {
  return textMessage(problem === undefined ? usages[command] : md`${problem}${gap}${usages[command]}`);
}
