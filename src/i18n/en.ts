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
} as const;

/** A message of the catalogs. */
export type MessageKey = keyof typeof en;
