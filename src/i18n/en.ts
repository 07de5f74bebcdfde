/*
 * The English catalog: the reference every other catalog has the keys of (fr.ts's type is this
 * one's keys). Each value is one whole ICU message; the bot's own text here is escaped for Slack
 * by blocks/text.ts (a `<id>` shows literally), its `{variables}` filled with escaped outside text.
 * A literal `{`, `}` (or `#` inside a plural) is quoted ICU's way ('{'); no text here needs it.
 */
export const en = {
  // `/ticket`'s help (slack/commands/ticket.ts's verb table).
  'ticket.help.title': '*`/ticket`* — remote-assistance tickets',
  'ticket.help.new':
    '• `/ticket` opens the form; `/ticket new jane.doe@example.com +33612345678 Router does not boot` prefills it',
  'ticket.help.list':
    '• `/ticket list [mine|all|group <name>|ref <reference>|<search>]` with `type:` `since:` `until:` `started:` `ended:` (YYYY-MM-DD) `requestor:<id>`',
  'ticket.help.show':
    '• `/ticket show <id or reference>` posts the ticket’s live card here: its buttons move the ticket',
  'ticket.help.watch':
    '• `/ticket watch <id or reference>` · `/ticket unwatch <id or reference>`: this channel gets (or stops getting) the ticket’s events',
  'ticket.help.follow':
    '• `/ticket follow [group:"Level 1"] [agent:<username>] [type:<t>] [states:open,inprogress] [events:<kinds>] [broadcast]`: new tickets and their events',
  'ticket.help.followReactions':
    '• `/ticket follow reactions` · `/ticket follow reactions off`: emoji reactions here act on tickets (by default 🎫 offers a ticket, 👀 on a card takes it, ✅ moves it to done)',
  'ticket.help.subscriptions': '• `/ticket subscriptions` lists what this channel follows',
  'ticket.help.help': '• `/ticket help` shows this message',
  'ticket.notUnderstood': 'I did not understand that.',
  // `/ticket list`'s problems (domain/ticket-query.ts), before the help.
  'ticket.list.requestor': 'requestor: takes a requestor id (a number), not “{value}”.',
  'ticket.list.date': '{key}: takes a date written YYYY-MM-DD, not “{value}”.',
  'ticket.list.group': '`/ticket list group` needs a group name.',
  'ticket.list.ref': '`/ticket list ref` needs one reference.',
  // `/conference`'s help (slack/commands/conference.ts's verb table, with its digest and admin rows).
  'conference.help.title': '*`/conference`* — plan a video conference',
  'conference.help.form': '• `/conference` opens the form',
  'conference.help.create':
    '• `/conference alice@example.com +33612345678 @bob tomorrow 3pm 45m "Weekly sync"` creates it directly',
  'conference.help.createWords': '   times: {when} (in your Slack time zone); durations: {durations}',
  'conference.help.list': '• `/conference list [upcoming|past|all|<search>]` your conferences',
  'conference.help.show': '• `/conference show <id or room name>` · `/conference delete <id>`',
  'conference.help.digest':
    '• `/conference digest at 9:00 [weekdays] [in Europe/Paris]` · `digest list` · `digest off` · `digest now` — daily statistics here',
  'conference.help.password':
    '• `/conference password` sends you the video platform’s password reset e-mail; admins: `/conference password <login>` for anyone',
  'conference.help.media':
    '• `/conference media [type:recording] [status:completed] [source:<s>] [tag:<t>] [user:<login or e-mail>] [group:"Level 1"] [conversation:<id>] [since:YYYY-MM-DD] [until:YYYY-MM-DD] [words]` — the media library: browse, show, edit, delete, share into a channel',
  'conference.help.adminDoctor':
    '• `/conference admin doctor` — platform admins: the doctor’s report (configuration, Slack, platform, store), privately',
  'conference.help.adminPeople':
    '• `/conference admin people [search]` · `/conference admin groups` — platform admins: the enterprise’s users (search, create, edit, delete, password reset) and groups',
  'conference.help.adminLink':
    '• `/conference admin link @person <platform e-mail|login|id>` · `admin unlink @person` — platform admins: who someone acts as when their e-mails differ',
  'conference.help.adminSettings':
    '• `/conference admin settings` — Slack workspace admins, when confdesk is installed with Add to Slack: its platform address, account and defaults for this workspace',
  'conference.help.help': '• `/conference help` shows this message',
  // `/conference`'s problems before its help (domain/conference-text.ts, the admin verbs).
  'conference.problem.password': '`/conference password` takes one login, or none for your own.',
  'conference.problem.ref': '`/conference {verb}` needs one conference id or room name.',
  'conference.problem.adminKnows': '`/conference admin` knows: {verbs}.',
} as const;

/** A message of the catalogs. */
export type MessageKey = keyof typeof en;
