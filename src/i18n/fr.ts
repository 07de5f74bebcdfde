import type { MessageKey } from './en.js';

/*
 * The French catalog: exactly the English one's keys (a missing or extra key is a type error).
 * Typography: a narrow no-break space (U+202F, written \u202f) before `:`, `;`, `?` and `!` in the
 * text itself (never inside `code`, `:emoji:`, URLs or Slack tokens), « guillemets » with U+202F inside
 * where quotes are shown, and the typographic apostrophe (’), which ICU leaves alone. The command
 * syntax between backticks is what people type, so it stays as the parsers read it.
 */
export const fr: Readonly<Record<MessageKey, string>> = {
  'ticket.help.title': '*`/ticket`* — tickets d’assistance à distance',
  'ticket.help.new':
    '• `/ticket` ou `/ticket nouveau` ouvre le formulaire\u202f; `/ticket nouveau jane.doe@example.com +33612345678 Le routeur ne démarre pas` le pré-remplit',
  'ticket.help.list':
    '• `/ticket liste [mine|all|group <nom>|ref <référence>|<recherche>]` avec `type:` `since:` `until:` `started:` `ended:` (AAAA-MM-JJ) `requestor:<id>`',
  'ticket.help.show':
    '• `/ticket voir <id ou référence>` publie ici la carte vivante du ticket\u202f: ses boutons font avancer le ticket',
  'ticket.help.watch':
    '• `/ticket suivre <id ou référence>` · `/ticket ne-plus-suivre <id ou référence>`\u202f: ce canal reçoit (ou ne reçoit plus) les événements du ticket',
  'ticket.help.follow':
    '• `/ticket surveiller [group:"Level 1"] [agent:<identifiant>] [type:<t>] [states:open,inprogress] [events:<genres>] [broadcast]`\u202f: les nouveaux tickets et leurs événements',
  'ticket.help.followReactions':
    '• `/ticket surveiller reactions` · `/ticket surveiller reactions off`\u202f: les réactions emoji de ce canal agissent sur les tickets (par défaut 🎫 propose un ticket, 👀 sur une carte le prend, ✅ le termine)',
  'ticket.help.subscriptions': '• `/ticket abonnements` liste ce que ce canal suit',
  'ticket.help.help': '• `/ticket aide` affiche ce message',
  'ticket.notUnderstood': 'Je n’ai pas compris.',
  'ticket.list.requestor':
    '`requestor:` attend l’identifiant d’un demandeur (un nombre), pas «\u202f{value}\u202f».',
  'ticket.list.date': '`{key}:` attend une date écrite AAAA-MM-JJ, pas «\u202f{value}\u202f».',
  'ticket.list.group': '`/ticket liste group` attend le nom d’un groupe.',
  'ticket.list.ref': '`/ticket liste ref` attend une seule référence.',
};
