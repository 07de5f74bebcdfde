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
  'conference.help.title': '*`/conference`* — planifier une visioconférence',
  'conference.help.form': '• `/conference` ouvre le formulaire',
  'conference.help.create':
    '• `/conference alice@example.com +33612345678 @bob tomorrow 3pm 45m «\u202fPoint hebdo\u202f»` la crée directement',
  'conference.help.createWords':
    '   heures\u202f: {when} (dans votre fuseau horaire Slack)\u202f; durées\u202f: {durations}',
  'conference.help.list': '• `/conference liste [upcoming|past|all|<recherche>]` vos conférences',
  'conference.help.show': '• `/conference voir <id ou nom de salle>` · `/conference supprimer <id>`',
  'conference.help.digest':
    '• `/conference digest at 9:00 [weekdays] [in Europe/Paris]` · `digest list` · `digest off` · `digest now` — les statistiques du jour ici',
  'conference.help.password':
    '• `/conference mot-de-passe` vous envoie l’e-mail de réinitialisation du mot de passe de la plateforme vidéo\u202f; administrateurs\u202f: `/conference mot-de-passe <identifiant>` pour n’importe qui',
  'conference.help.media':
    '• `/conference médias` (ou `medias`) `[type:recording] [status:completed] [source:<s>] [tag:<t>] [user:<identifiant ou e-mail>] [group:"Level 1"] [conversation:<id>] [since:AAAA-MM-JJ] [until:AAAA-MM-JJ] [mots]` — la médiathèque\u202f: parcourir, voir, modifier, supprimer, partager dans un canal',
  'conference.help.adminDoctor':
    '• `/conference admin doctor` — administrateurs de la plateforme\u202f: le rapport du diagnostic (configuration, Slack, plateforme, stockage), en privé',
  'conference.help.adminPeople':
    '• `/conference admin people [recherche]` · `/conference admin groups` — administrateurs de la plateforme\u202f: les utilisateurs de l’entreprise (recherche, création, modification, suppression, réinitialisation du mot de passe) et ses groupes',
  'conference.help.adminLink':
    '• `/conference admin link @personne <e-mail|identifiant|id sur la plateforme>` · `admin unlink @personne` — administrateurs de la plateforme\u202f: le compte d’une personne dont les e-mails diffèrent',
  'conference.help.adminSettings':
    '• `/conference admin settings` — administrateurs de l’espace de travail Slack, quand confdesk est installé par «\u202fAjouter à Slack\u202f»\u202f: son adresse de plateforme, son compte et ses réglages par défaut pour cet espace',
  'conference.help.help': '• `/conference aide` affiche ce message',
  'conference.problem.password': '`/conference mot-de-passe` prend un identifiant, ou aucun pour le vôtre.',
  'conference.problem.ref': '`/conference {verb}` attend un seul id de conférence ou nom de salle.',
  'conference.problem.adminKnows': '`/conference admin` connaît\u202f: {verbs}.',
};
