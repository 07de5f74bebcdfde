/*
 * The commands' help and the problems shown before it (`/ticket`, `/conference`: their verb tables).
 * Each message module of this folder holds one family of surfaces in English and in French; French has
 * exactly English's keys (its type says so). Typography of French: see ../fr.ts.
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

export const fr: Readonly<Record<keyof typeof en, string>> = {
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
