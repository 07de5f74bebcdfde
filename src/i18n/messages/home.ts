/*
 * App Home (each person's language) and, in distribution mode, the workspace's settings, the setup Home
 * and the "not set up" answer (the admin's language).
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {
  // App Home (blocks/home.ts, services/home.ts).
  'home.intro': 'Plan video conferences and follow remote-assistance tickets without leaving Slack.',
  'home.noAccount': 'confdesk needs your video platform account to act for you.',
  'home.account':
    'You act on the video platform as *{name}* ({email}){hasRole, select, no {} other { · role {role}}} · {linked, select, no {found by your Slack e-mail} other {linked by hand by {admin}}}.',
  'home.newConference': 'New conference',
  'home.tool.media': 'Media library',
  'home.tool.people': 'People',
  'home.tool.groups': 'Groups',
  'home.tool.passwordReset': 'Reset my password',
  'home.loading': ':hourglass_flowing_sand: Loading…',
  'home.unreadable.platform': 'The video platform did not give it: {reason}',
  'home.unreadable.other': 'It could not be read just now; it shows again when you next open Home.',
  'home.conferences.heading': 'Your upcoming conferences',
  'home.conferences.empty': 'Nothing planned. `/conference` plans one.',
  'home.conferences.join': 'Join',
  'home.conferences.more': 'More in `/conference list`.',
  'home.tickets.heading': 'Your open tickets',
  'home.tickets.empty': 'None open. `/ticket` opens one.',
  'home.tickets.state':
    '{state, select, new {new} open {open} invited {invited} inprogress {inprogress} done {done} closed {closed} rejected {rejected} declined {declined} expired {expired} cancelled {cancelled} other {{raw}}}',
  'home.tickets.unknownState': 'unknown state',
  'home.tickets.group': 'group {id}',
  'home.tickets.updated': 'updated {when}',
  'home.tickets.more': 'More in `/ticket list`.',
  'home.setUp.heading': 'What you set up',
  'home.setUp.watchReference': '👁 {channel} watches {reference}',
  'home.setUp.watchTicket': '👁 {channel} watches ticket {id}',
  'home.setUp.reactions': '🎫 {channel}: reactions act on tickets',
  'home.setUp.follow': '📡 {channel} follows {filter}',
  'home.setUp.followAll': '📡 {channel} follows every ticket',
  'home.setUp.digest': '📊 Daily digest in {channel} at {time} ({zone}), {days}',
  'home.setUp.remove': 'Remove',
  'home.setUp.more':
    'And {count} more: `/ticket subscriptions` and `/conference digest list` in each channel.',
  'home.admin.heading': 'Your enterprise',
  'home.admin.users': '*Users*\n{count}',
  'home.admin.groups': '*Groups*\n{count}',
  'home.admin.figuresOf': 'Figures of {date} (UTC).',
  'home.admin.figuresOfYesterday': 'Figures of yesterday (UTC).',
  'home.admin.noFigures': 'Yesterday’s figures are not available from the platform.',
  'home.admin.doctorChecking':
    ':hourglass_flowing_sand: The doctor is checking the set-up. `/conference admin doctor` gives the report.',
  'home.admin.doctorBlocking':
    '⛔ The doctor finds {blocking, plural, one {# blocking problem} other {# blocking problems}} and {warnings, plural, one {# warning} other {# warnings}} ({at}). `/conference admin doctor` gives the report.',
  'home.admin.doctorWarnings':
    '⚠️ The doctor finds {warnings, plural, one {# warning} other {# warnings}} ({at}). `/conference admin doctor` gives the report.',
  'home.admin.doctorFine':
    '✅ The doctor finds nothing wrong ({at}). `/conference admin doctor` gives the report.',
  'home.admin.deadLetters':
    '⚠️ {count, plural, one {# ticket message} other {# ticket messages}} Slack refused for good ({command} lists them with the reason). Once the cause is fixed, give them another try.',
  'home.admin.requeue': 'Requeue all',
  'home.footer':
    '`/conference help` and `/ticket help` list every command. Times are read in your Slack time zone and shown in each viewer’s own.',
  // Distribution mode: the workspace's settings (blocks/workspace-settings.ts), in the admin's language.
  'settings.title': 'confdesk settings',
  'settings.save': 'Save',
  'settings.cancel': 'Cancel',
  'settings.done': 'Done',
  'settings.savedBy':
    'Saved by {admin} on {when}. Credentials are kept encrypted and never shown: type new ones to replace them.',
  'settings.intro':
    'confdesk acts on the video platform with one account of yours: an admin account, so that it can see every ticket and conference it is asked about. Credentials are kept encrypted and never shown.',
  'settings.platformUrl': 'Platform address',
  'settings.kind': 'Sign in with',
  'settings.kind.token': 'An API token',
  'settings.kind.password': 'A username and password',
  'settings.token': 'API token',
  'settings.token.hint': 'With "An API token".',
  'settings.token.hintKeep': 'With "An API token". Leave it empty to keep the saved one.',
  'settings.username': 'Username',
  'settings.username.hint': 'With "A username and password".',
  'settings.username.hintKeep': 'With "A username and password". Leave it empty to keep the saved one.',
  'settings.password': 'Password',
  'settings.serviceKey': 'Default service key',
  'settings.serviceKey.hint': 'Used for conferences and tickets created without one.',
  'settings.language': 'Default notification language (the platform’s e-mails and SMS)',
  'settings.language.hint':
    'The default language of the e-mails and SMS the video platform sends (its notification templates). confdesk’s own messages in channels follow the language of channel messages.',
  'settings.channelLanguage': 'Language of channel messages',
  'settings.channelLanguage.hint':
    'What confdesk writes in this workspace’s channels: cards, their threads, unfurls, digests. What a person sees alone follows their own Slack language.',
  'settings.creators': 'Who may create tickets',
  'settings.creators.account': 'Anyone with a platform account',
  'settings.creators.admin': 'Video platform admins only',
  'settings.webhook': 'Webhook secret',
  'settings.webhook.hint':
    'Any long random string (openssl rand -hex 24): type the same in the platform’s webhook settings, so that confdesk hears of ticket events within seconds. Empty: no webhooks, confdesk polls.',
  'settings.webhook.hintKeep':
    'Any long random string (openssl rand -hex 24): type the same in the platform’s webhook settings, so that confdesk hears of ticket events within seconds. Empty: keep the saved one.',
  'settings.savedOk':
    ':white_check_mark: Saved: the platform took the credentials, and confdesk now works in this workspace.',
  'settings.webhooksOn':
    '*Webhooks*: in the platform’s console, add a webhook to {url} for the ticket events, with the header `{header}` set to the secret you typed.',
  'settings.webhooksOff':
    '*Webhooks* are off (no secret saved): confdesk finds ticket changes by polling. To hear of them within seconds, type a webhook secret here, then add a webhook to {url} in the platform’s console.',
  'settings.adminsOnly': 'Only this workspace’s Slack admins can open these settings.',
  'settings.refused': 'Only this workspace’s Slack admins and owners can change confdesk’s settings.',
  'settings.signingIn': 'Signing in to the platform with these settings…',
  'setup.header': 'confdesk is not set up yet',
  'setup.admin':
    'confdesk is installed in {team} but does not know your video platform account yet. As a workspace admin, open the settings and give it the platform’s address and an admin account’s credentials.',
  'setup.member':
    'confdesk is installed in {team} but does not know your video platform account yet. A workspace admin sets it up from this Home tab (or with `/conference admin settings`).',
  'setup.open': 'Open settings',
  'setup.notSetUp.admin':
    'confdesk is not set up in this workspace yet: run `/conference admin settings` (or open its Home tab) and give it your video platform’s address and an admin account.',
  'setup.notSetUp.member':
    'confdesk is not set up in this workspace yet: ask a workspace admin to open its settings (`/conference admin settings`).',
  // The settings form's inline errors (domain/workspace-settings.ts's problems).
  'settings.error.platformUrl':
    'Type the platform’s address, such as https://cloud.apizee.com (no user, password, ? or # in it).',
  'settings.error.token': 'Paste the platform account’s API token (or choose username and password).',
  'settings.error.credentials': 'Type both the platform account’s username and its password.',
  'settings.error.serviceKey': 'A service key is 32 lowercase letters and digits (leave it empty for none).',
  'settings.error.language': 'Choose a language from the list.',
  'settings.error.creators': 'Choose who may create tickets.',
  'settings.error.webhook': 'Use 16 characters at least, without spaces (openssl rand -hex 24 makes one).',
  // Why the settings were not saved, or saved but not running (distribution/save-settings.ts); the
  // problems themselves are the platform's or the start's words ({problem}), durations as `12 s`, `3 min`.
  'settings.notSaved.address': 'Not saved: Platform address: {problem}.',
  'settings.notSaved.check': 'Not saved: {problem}',
  'settings.notSaved.uninstalled': 'Not saved: confdesk was uninstalled from this workspace.',
  'settings.savedNotStarted':
    'Saved (the platform took these settings), but confdesk could not start in this workspace: {problem}. It tries again by itself in {next}, then less often (at least every {max}); nothing to do here unless this stays. The people who run confdesk see it too.',
  'settings.savedNotRunning': 'Saved, but confdesk could not start: {problem}.',
  // A set-up workspace whose start failed, to any command (distribution/save-settings.ts notStarted).
  'setup.notStarted':
    'confdesk is set up in this workspace but could not start: {problem}. It tries again by itself (next in {next}); please try again later.',
  // The title of a not-set-up workspace's commands' help (slack/setup/index.ts).
  'setup.commandTitle': '*`{command}`* — confdesk is not set up in this workspace yet',
} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {
  'home.intro':
    'Planifiez des visioconférences et suivez les tickets d’assistance à distance sans quitter Slack.',
  'home.noAccount': 'confdesk a besoin de votre compte sur la plateforme vidéo pour agir en votre nom.',
  'home.account':
    'Vous agissez sur la plateforme vidéo en tant que *{name}* ({email}){hasRole, select, no {} other { · rôle {role}}} · {linked, select, no {trouvé par votre e-mail Slack} other {associé à la main par {admin}}}.',
  'home.newConference': 'Nouvelle conférence',
  'home.tool.media': 'Médiathèque',
  'home.tool.people': 'Utilisateurs',
  'home.tool.groups': 'Groupes',
  'home.tool.passwordReset': 'Réinitialiser mon mot de passe',
  'home.loading': ':hourglass_flowing_sand: Chargement…',
  'home.unreadable.platform': 'La plateforme vidéo ne l’a pas donné\u202f: {reason}',
  'home.unreadable.other':
    'Lecture impossible pour le moment\u202f; elle réapparaîtra à votre prochaine ouverture de l’accueil.',
  'home.conferences.heading': 'Vos prochaines conférences',
  'home.conferences.empty': 'Rien de prévu. `/conference` en planifie une.',
  'home.conferences.join': 'Rejoindre',
  'home.conferences.more': 'La suite dans `/conference list`.',
  'home.tickets.heading': 'Vos tickets ouverts',
  'home.tickets.empty': 'Aucun ticket ouvert. `/ticket` en ouvre un.',
  'home.tickets.state':
    '{state, select, new {nouveau} open {ouvert} invited {invité} inprogress {en cours} done {terminé} closed {fermé} rejected {rejeté} declined {décliné} expired {expiré} cancelled {annulé} other {{raw}}}',
  'home.tickets.unknownState': 'état inconnu',
  'home.tickets.group': 'groupe {id}',
  'home.tickets.updated': 'mis à jour {when}',
  'home.tickets.more': 'La suite dans `/ticket list`.',
  'home.setUp.heading': 'Ce que vous avez mis en place',
  'home.setUp.watchReference': '👁 {channel} surveille {reference}',
  'home.setUp.watchTicket': '👁 {channel} surveille le ticket {id}',
  'home.setUp.reactions': '🎫 {channel}\u202f: les réactions agissent sur les tickets',
  'home.setUp.follow': '📡 {channel} suit {filter}',
  'home.setUp.followAll': '📡 {channel} suit tous les tickets',
  'home.setUp.digest': '📊 Synthèse quotidienne dans {channel} à {time} ({zone}), {days}',
  'home.setUp.remove': 'Retirer',
  'home.setUp.more':
    'Et {count} de plus\u202f: `/ticket subscriptions` et `/conference digest list` dans chaque canal.',
  'home.admin.heading': 'Votre entreprise',
  'home.admin.users': '*Utilisateurs*\n{count}',
  'home.admin.groups': '*Groupes*\n{count}',
  'home.admin.figuresOf': 'Chiffres du {date} (UTC).',
  'home.admin.figuresOfYesterday': 'Chiffres d’hier (UTC).',
  'home.admin.noFigures': 'La plateforme ne donne pas les chiffres d’hier.',
  'home.admin.doctorChecking':
    ':hourglass_flowing_sand: Le docteur vérifie l’installation. `/conference admin doctor` donne le rapport.',
  'home.admin.doctorBlocking':
    '⛔ Le docteur trouve {blocking, plural, one {# problème bloquant} other {# problèmes bloquants}} et {warnings, plural, one {# avertissement} other {# avertissements}} ({at}). `/conference admin doctor` donne le rapport.',
  'home.admin.doctorWarnings':
    '⚠️ Le docteur trouve {warnings, plural, one {# avertissement} other {# avertissements}} ({at}). `/conference admin doctor` donne le rapport.',
  'home.admin.doctorFine':
    '✅ Le docteur ne trouve aucun problème ({at}). `/conference admin doctor` donne le rapport.',
  'home.admin.deadLetters':
    '⚠️ {count, plural, one {# message de ticket refusé} other {# messages de ticket refusés}} définitivement par Slack ({command} les liste avec la raison). Une fois la cause corrigée, relancez-les.',
  'home.admin.requeue': 'Tout relancer',
  'home.footer':
    '`/conference help` et `/ticket help` listent toutes les commandes. Les heures sont lues dans votre fuseau horaire Slack et affichées dans celui de chaque lecteur.',
  'settings.title': 'Réglages de confdesk',
  'settings.save': 'Enregistrer',
  'settings.cancel': 'Annuler',
  'settings.done': 'Terminé',
  'settings.savedBy':
    'Enregistré par {admin} le {when}. Les identifiants sont chiffrés et jamais affichés\u202f: saisissez-en de nouveaux pour les remplacer.',
  'settings.intro':
    'confdesk agit sur la plateforme vidéo avec un de vos comptes\u202f: un compte administrateur, pour voir chaque ticket et chaque conférence qu’on lui demande. Les identifiants sont chiffrés et jamais affichés.',
  'settings.platformUrl': 'Adresse de la plateforme',
  'settings.kind': 'Se connecter avec',
  'settings.kind.token': 'Un jeton d’API',
  'settings.kind.password': 'Un identifiant et un mot de passe',
  'settings.token': 'Jeton d’API',
  'settings.token.hint': 'Avec «\u202fUn jeton d’API\u202f».',
  'settings.token.hintKeep': 'Avec «\u202fUn jeton d’API\u202f». Laissez vide pour garder celui enregistré.',
  'settings.username': 'Identifiant',
  'settings.username.hint': 'Avec «\u202fUn identifiant et un mot de passe\u202f».',
  'settings.username.hintKeep':
    'Avec «\u202fUn identifiant et un mot de passe\u202f». Laissez vide pour garder ceux enregistrés.',
  'settings.password': 'Mot de passe',
  'settings.serviceKey': 'Clé de service par défaut',
  'settings.serviceKey.hint': 'Utilisée pour les conférences et les tickets créés sans clé.',
  'settings.language': 'Langue des notifications par défaut (e-mails et SMS de la plateforme)',
  'settings.language.hint':
    'La langue par défaut des e-mails et SMS envoyés par la plateforme vidéo (ses modèles de notification). Les messages de confdesk dans les canaux suivent la langue des messages des canaux.',
  'settings.channelLanguage': 'Langue des messages des canaux',
  'settings.channelLanguage.hint':
    'Ce que confdesk écrit dans les canaux de cet espace de travail\u202f: fiches, leurs fils, liens enrichis, synthèses. Ce qu’une personne voit seule suit sa propre langue Slack.',
  'settings.creators': 'Qui peut créer des tickets',
  'settings.creators.account': 'Toute personne ayant un compte sur la plateforme',
  'settings.creators.admin': 'Les administrateurs de la plateforme vidéo uniquement',
  'settings.webhook': 'Secret des webhooks',
  'settings.webhook.hint':
    'Une longue chaîne aléatoire (openssl rand -hex 24)\u202f: saisissez la même dans les réglages de webhooks de la plateforme, pour que confdesk apprenne les événements des tickets en quelques secondes. Vide\u202f: pas de webhooks, confdesk interroge la plateforme.',
  'settings.webhook.hintKeep':
    'Une longue chaîne aléatoire (openssl rand -hex 24)\u202f: saisissez la même dans les réglages de webhooks de la plateforme, pour que confdesk apprenne les événements des tickets en quelques secondes. Vide\u202f: garder celui enregistré.',
  'settings.savedOk':
    ':white_check_mark: Enregistré\u202f: la plateforme a accepté les identifiants, et confdesk fonctionne désormais dans cet espace de travail.',
  'settings.webhooksOn':
    '*Webhooks*\u202f: dans la console de la plateforme, ajoutez un webhook vers {url} pour les événements des tickets, avec l’en-tête `{header}` réglé sur le secret saisi.',
  'settings.webhooksOff':
    'Les *webhooks* sont désactivés (aucun secret enregistré)\u202f: confdesk trouve les changements des tickets en interrogeant la plateforme. Pour les apprendre en quelques secondes, saisissez ici un secret de webhooks, puis ajoutez un webhook vers {url} dans la console de la plateforme.',
  'settings.adminsOnly': 'Seuls les administrateurs Slack de cet espace de travail ouvrent ces réglages.',
  'settings.refused':
    'Seuls les administrateurs et propriétaires Slack de cet espace de travail peuvent modifier les réglages de confdesk.',
  'settings.signingIn': 'Connexion à la plateforme avec ces réglages…',
  'setup.header': 'confdesk n’est pas encore configuré',
  'setup.admin':
    'confdesk est installé dans {team} mais ne connaît pas encore votre compte sur la plateforme vidéo. En tant qu’administrateur de l’espace de travail, ouvrez les réglages et donnez-lui l’adresse de la plateforme et les identifiants d’un compte administrateur.',
  'setup.member':
    'confdesk est installé dans {team} mais ne connaît pas encore votre compte sur la plateforme vidéo. Un administrateur de l’espace de travail le configure depuis cet onglet Accueil (ou avec `/conference admin settings`).',
  'setup.open': 'Ouvrir les réglages',
  'setup.notSetUp.admin':
    'confdesk n’est pas encore configuré dans cet espace de travail\u202f: lancez `/conference admin settings` (ou ouvrez son onglet Accueil) et donnez-lui l’adresse de votre plateforme vidéo et un compte administrateur.',
  'setup.notSetUp.member':
    'confdesk n’est pas encore configuré dans cet espace de travail\u202f: demandez à un administrateur de l’espace de travail d’ouvrir ses réglages (`/conference admin settings`).',
  'settings.error.platformUrl':
    'Saisissez l’adresse de la plateforme, par exemple https://cloud.apizee.com (sans utilisateur, mot de passe, `?` ni `#`).',
  'settings.error.token':
    'Collez le jeton d’API du compte de la plateforme (ou choisissez identifiant et mot de passe).',
  'settings.error.credentials':
    'Saisissez à la fois l’identifiant du compte de la plateforme et son mot de passe.',
  'settings.error.serviceKey':
    'Une clé de service compte 32 lettres minuscules et chiffres (laissez vide pour n’en utiliser aucune).',
  'settings.error.language': 'Choisissez une langue dans la liste.',
  'settings.error.creators': 'Choisissez qui peut créer des tickets.',
  'settings.error.webhook':
    'Utilisez au moins 16 caractères, sans espace (`openssl rand -hex 24` en produit un).',
  'settings.notSaved.address': 'Non enregistré\u202f: adresse de la plateforme\u202f: {problem}.',
  'settings.notSaved.check': 'Non enregistré\u202f: {problem}',
  'settings.notSaved.uninstalled':
    'Non enregistré\u202f: confdesk a été désinstallé de cet espace de travail.',
  'settings.savedNotStarted':
    'Enregistré (la plateforme a accepté ces réglages), mais confdesk n’a pas pu démarrer dans cet espace de travail\u202f: {problem}. Il réessaie de lui-même dans {next}, puis moins souvent (au moins toutes les {max})\u202f; rien à faire ici, sauf si cela persiste. Les personnes qui exploitent confdesk le voient aussi.',
  'settings.savedNotRunning': 'Enregistré, mais confdesk n’a pas pu démarrer\u202f: {problem}.',
  'setup.notStarted':
    'confdesk est configuré dans cet espace de travail mais n’a pas pu démarrer\u202f: {problem}. Il réessaie de lui-même (prochain essai dans {next})\u202f; veuillez réessayer plus tard.',
  'setup.commandTitle': '*`{command}`* — confdesk n’est pas encore configuré dans cet espace de travail',
};
