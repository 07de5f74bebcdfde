/*
 * What many surfaces share: errors a person can fix, the working notices, modal frames, usage and generic replies.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {
  // The modal frames (blocks/modal.ts).
  'modal.close': 'Close',
  'modal.done': 'Done',
  'modal.title': 'confdesk',
  // "Working…" (slack/replies/working-notice.ts): what is being done, then the rate budget's wait.
  'working.quick': '{action}…',
  'working.slowSeconds':
    '{action}… The video platform allows only a few requests a minute and is busy: this will take about {seconds} s. You can close this; I will post the result.',
  'working.slowMinutes':
    '{action}… The video platform allows only a few requests a minute and is busy: this will take about {minutes} min. You can close this; I will post the result.',
  'working.working': 'Working',
  'working.creatingConference': 'Creating the conference',
  'working.lookingUpConferences': 'Looking up your conferences',
  'working.lookingUpConference': 'Looking up the conference',
  'working.lookingUpTickets': 'Looking up the tickets',
  'working.lookingUpTicket': 'Looking up the ticket',
  'working.doctor': 'Working through the doctor’s checks',
  'working.lookingUpAccount': 'Looking up the platform account',
  'working.link': 'Working on the link',
  'working.recordings': 'Looking up the recordings and snapshots',
  'working.loadingConference': 'Loading the conference',
  'working.savingConference': 'Saving the conference',
  'working.loadingTicket': 'Loading the ticket',
  'working.movingTicket': 'Moving the ticket',
  'working.deletingTicket': 'Deleting the ticket',
  'working.fetchingFile': 'Fetching the file',
  'working.fetchingTicketMedia': 'Fetching the ticket’s media',
  'working.removingSubscription': 'Removing the subscription',
  'working.passwordReset': 'Working on the password reset',
  'working.sendingPasswordReset': 'Sending the password reset',
  'working.digest': 'Working on the digest',
  'working.checkingCreateTickets': 'Checking that you may create tickets',
  'working.takingTicket': 'Taking the ticket',
  'working.movingTicketToDone': 'Moving the ticket to done',
  // A command's text longer than Slack's limit (slack/runtime/clip-command-text.ts).
  'clip.commandText':
    'Your command text was {length} characters long: I read only its first {limit} characters.',
  // A date token's text when its date is not a date (blocks/mrkdwn.ts `date`).
  'date.unknown': 'unknown time',
  // The one sentence of a failure (slack/replies/describe-error.ts).
  'error.notMember':
    'I am not a member of {channel}, so I cannot post there: type `/invite @confdesk` in the channel.',
  'error.notMemberHere':
    'I am not a member of this channel, so I cannot post there: type `/invite @confdesk` in the channel.',
  'error.notMemberRetry':
    'I am not a member of {channel}, so I cannot post there: type `/invite @confdesk` in the channel. Then try again.',
  'error.notMemberHereRetry':
    'I am not a member of this channel, so I cannot post there: type `/invite @confdesk` in the channel. Then try again.',
  'error.fixInput': 'Please fix this and try again:\n{problems}',
  'error.conferenceFeature':
    'The video platform refused: the video-conference feature is probably not enabled for your enterprise’s account. Ask your platform administrator to enable it.',
  'error.conferenceFeatureDetail':
    'The video platform refused ({detail}): the video-conference feature is probably not enabled for your enterprise’s account. Ask your platform administrator to enable it.',
  'error.badRequest': 'The video platform refused this. Please check the values and try again.',
  'error.badRequestDetail':
    'The video platform refused this: {detail}. Please check the values and try again.',
  'error.missingScope':
    'Slack refused: the app lacks a permission it needs (`missing_scope`). A workspace admin can reinstall confdesk from its manifest (manifest.yml) to grant it.',
  'error.slackToken':
    'Slack refused confdesk’s token (`{code}`): a workspace admin must reinstall the app. Nothing was lost; try again afterwards.',
  'error.unexpected':
    'Something went wrong on confdesk’s side (reference `{ref}`). Please try again; if it keeps happening, give this reference to your admin.',
  // The platform's errors (platform/errors.ts says them in English, by code and status).
  'platform.mayBeDone':
    'The connection to the video platform broke off during its answer, so it may have done this already. Please check before trying again.',
  'platform.brokeOff':
    'The connection to the video platform broke off during its answer. Please try again in a moment.',
  'platform.timeout': 'The video platform took too long to answer. Please try again in a moment.',
  'platform.unreachable': 'The video platform could not be reached. Please try again in a moment.',
  'platform.refused': 'The video platform refused the request.',
  'platform.refusedDetail': 'The video platform refused the request ({detail}).',
  'platform.signIn':
    'confdesk could not sign in to the video platform. An administrator should check its credentials.',
  'platform.forbidden': 'The video platform says you are not allowed to do that.',
  'platform.forbiddenDetail': 'The video platform says you are not allowed to do that ({detail}).',
  'platform.webPage':
    'The video platform answered with a web page instead of the API: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.webPageDetail':
    'The video platform answered with a web page ({detail}) instead of the API: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.noSuchItemEmpty':
    'The video platform has no such item: it may have been deleted. If this happens for everything, an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.noSuchItem': 'The video platform has no such item: it may have been deleted.',
  'platform.redirected':
    'The video platform redirected this request to {host} instead of answering it: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.redirectedNowhere':
    'The video platform redirected this request without saying where instead of answering it: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.internal': 'The video platform had an internal error. Please try again in a moment.',
  'platform.statusPage':
    'The video platform answered {status} {label} with a web page: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.statusPageDetail':
    'The video platform answered {status} {label} with a web page ({detail}): an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
  'platform.statusEmpty':
    'The video platform answered {status} {label} without saying why. Please try again; if it persists, an administrator should check the confdesk log.',
  'platform.status': 'The video platform answered {status} {label}.',
  'platform.statusDetail': 'The video platform answered {status} {label} ({detail}).',
  'platform.rateLimited': 'The video platform is busy (rate limit). Please try again in about {seconds} s.',
  'platform.unusable': 'The video platform sent an answer confdesk cannot use: {problem}.',
  'platform.notUnderstood':
    'The video platform sent an answer confdesk did not understand. The team has been told.',
  'platform.closed':
    'confdesk is restarting, so this request was not sent to the video platform. Please try again in a minute.',
  'platform.address':
    'The video platform pointed confdesk to an address it does not fetch from ({host}: {problem}), so nothing was fetched. An administrator should check the platform (and PLATFORM_HOSTS).',
  'platform.grantDeadline':
    'The video platform is busy: confdesk’s request did not get its turn within {seconds} s (the platform allows about 10 requests a minute), so it was not sent and nothing was changed. Run it again in a minute.',
  // A platform error not written here yet: its own English sentence, as it is.
  'error.platformOwn': '{said}',
  // Who the person is on the platform (services/errors.ts, services/identity.ts).
  'identity.noAccount':
    'Your Slack e-mail ({email}) has no account on the video platform. Ask a platform administrator to create one with this e-mail, then try again.',
  'identity.noEmail':
    'Your Slack profile has no e-mail address, so confdesk cannot find your video platform account. Add your e-mail to your Slack profile, or ask a workspace admin to make it visible to apps.',
  'identity.linkGone':
    'You are linked to the video platform account {id}, which no longer exists. Ask a platform admin to link you again (`/conference admin link`).',
  'identity.unknownSlackUser': 'Slack does not know the user {user}.',
  // The policy's refusals (domain/policy.ts: "You cannot " and its row's refusal), one per action.
  'policy.help': 'You cannot see the help.',
  'policy.conference.create': 'You cannot create conferences without a platform account.',
  'policy.conference.moderate-other':
    'You cannot make someone else the moderator: only video platform admins can. Leave the field empty.',
  'policy.conference.list': 'You cannot list conferences without a platform account.',
  'policy.conference.see':
    'You cannot see this conference: only its participants, its moderator and video platform admins can.',
  'policy.conference.join':
    'You cannot join this conference: its link is for its participants, its moderator and video platform admins. Ask the moderator to invite you.',
  'policy.conference.media':
    'You cannot see the recordings of this conference: only its participants, its moderator and video platform admins can.',
  'policy.conference.edit':
    'You cannot edit this conference: only its moderator and video platform admins can.',
  'policy.conference.delete':
    'You cannot delete this conference: only its moderator and video platform admins can.',
  'policy.ticket.create': 'You cannot create tickets without a platform account.',
  'policy.ticket.assign':
    'You cannot give a ticket to that group or to another agent: only the group’s members and video platform admins can. Pick one of your groups, or yourself as agent.',
  'policy.ticket.see':
    'You cannot see this ticket: only its agent, the members of its group and video platform admins can see it.',
  'policy.ticket.join':
    'You cannot join this ticket’s session: only its agent, the members of its group and video platform admins can join as agent.',
  'policy.ticket.move':
    'You cannot act on this ticket: only its agent, the members of its group and video platform admins can act on it.',
  'policy.ticket.edit':
    'You cannot edit this ticket: only its agent, the members of its group and video platform admins can edit it.',
  'policy.ticket.delete':
    'You cannot delete this ticket: only its agent, the members of its group and video platform admins can delete it.',
  'policy.ticket.export':
    'You cannot export this ticket: only its agent, the members of its group and video platform admins can export it.',
  'policy.ticket.timeline':
    'You cannot see this ticket’s timeline: only its agent, the members of its group and video platform admins can see it.',
  'policy.ticket.media':
    'You cannot see this ticket’s media: only its agent, the members of its group and video platform admins can see them.',
  'policy.ticket.watch':
    'You cannot make this channel watch this ticket: only its agent, the members of its group and video platform admins can do that.',
  'policy.ticket.list-mine': 'You cannot list tickets without a platform account.',
  'policy.ticket.list-group':
    'You cannot list this group’s tickets: only its members and video platform admins can.',
  'policy.ticket.list-all':
    'You cannot list everyone’s tickets: that is for video platform admins: ask one of them. Try `/ticket list` (yours) or `/ticket list group` and one of your groups.',
  'policy.ticket.follow-group':
    'You cannot follow this group’s tickets: only its members and video platform admins can.',
  'policy.ticket.follow-all':
    'You cannot follow every group’s tickets: that is for video platform admins: ask one of them. Add `group:"…"` with one of your groups.',
  'policy.subscription.list': 'You cannot list subscriptions without a platform account.',
  'policy.channel.reactions': 'You cannot turn on reactions in this channel without a platform account.',
  'policy.subscription.remove':
    'You cannot remove this subscription: only the person who added it and video platform admins can.',
  'policy.digest.set':
    'You cannot set up the statistics digest: it is for video platform admins: ask one of them.',
  'policy.digest.list': 'You cannot list the statistics digests: they are for admins; ask one.',
  'policy.digest.remove':
    'You cannot remove a statistics digest: it is for video platform admins: ask one of them.',
  'policy.digest.preview':
    'You cannot preview the statistics digest: it is for video platform admins: ask one of them.',
  'policy.admin.doctor':
    'You cannot see the doctor’s report: it is for video platform admins: ask one of them.',
  'policy.outbox.requeue':
    'You cannot requeue the messages Slack refused: that is for video platform admins: ask one of them.',
  'policy.directory.search': 'You cannot search the video platform’s people without a platform account.',
  'policy.identity.link':
    'You cannot link Slack people to platform accounts: it is for video platform admins: ask one of them.',
  'policy.people.list':
    'You cannot list the platform’s users: that is for video platform admins: ask one of them.',
  'policy.people.see':
    'You cannot see a platform user’s details: that is for video platform admins: ask one of them.',
  'policy.people.create':
    'You cannot create platform users: that is for video platform admins: ask one of them.',
  'policy.people.edit': 'You cannot edit platform users: that is for video platform admins: ask one of them.',
  'policy.people.delete':
    'You cannot delete platform users: that is for video platform admins: ask one of them.',
  'policy.groups.list':
    'You cannot list the platform’s groups and their members: that is for video platform admins: ask one of them.',
  'policy.password.reset-own': 'You cannot reset a video platform password without a platform account.',
  'policy.password.reset-any':
    'You cannot send a password reset to someone else: that is for video platform admins: ask one of them. `/conference password` alone resets yours.',
  'policy.home.view': 'You cannot see the home tab.',
  'policy.home.new-conference': 'You cannot create conferences without a platform account.',
  'policy.reminders.set': 'You cannot change conference reminders.',
  'policy.media.list': 'You cannot browse the media library without a platform account.',
  'policy.media.list-all':
    'You cannot list other people’s media: that is for video platform admins: ask one of them. Try `group:` and one of your groups.',
  'policy.media.see':
    'You cannot see this media: only its owner, the members of its group and video platform admins can see it.',
  'policy.media.edit':
    'You cannot edit this media: only its owner, the members of its group and video platform admins can edit it.',
  'policy.media.delete':
    'You cannot delete this media: only its owner, the members of its group and video platform admins can delete it.',
  'policy.media.share':
    'You cannot share this media: only its owner, the members of its group and video platform admins can share it.',
  'policy.ticket.create-admins':
    'You cannot create tickets: in this workspace only video platform admins can (the workspace’s confdesk settings).',
  // The platform client's schema problems shown inline in forms (slack/input/view-state.ts problemOf),
  // by their English; one not here is shown as the schema says it in English, as `invalid` in French.
  'common.problem.invalid': 'This value is not valid.',
  'common.problem.length2to255': 'Must be 2 to 255 characters',
  'common.problem.max300': 'Must be at most 300 characters',
  'common.problem.max255': 'Must be at most 255 characters',
  'common.problem.pin': 'May contain only digits, * and #',
  'common.problem.minutes': 'Expected a number of minutes',
  'common.problem.wholeMinutes': 'Expected whole minutes',
  'common.problem.atLeastOneMinute': 'Must be at least 1 minute',
  'common.problem.oneToSixtyMinutes': 'Must be 1 to 60 minutes',
  'common.problem.serviceKey': 'Expected a 32-character lowercase service key',
  'common.problem.email': 'Expected an e-mail address such as name@example.com',
  'common.problem.phone': 'Expected an international phone number such as +33612345678',
  'common.problem.numericId': 'Expected a numeric id',
  'common.problem.notEmail': '"{value}" is not a valid e-mail',
  'common.problem.neither': '"{value}" is neither an e-mail nor an international phone number (+33612345678)',
  // A create's fields the platform did not keep (services/fields-not-kept.ts), by the label sent.
  'common.field.name': 'name',
  'common.field.message': 'message',
  'common.field.startTime': 'start time',
  'common.field.duration': 'duration',
  'common.field.reminder': 'reminder',
  'common.field.template': 'template',
  'common.field.language': 'language',
  'common.field.entryMode': 'entry mode',
  'common.field.moderator': 'moderator',
  'common.field.group': 'group',
  'common.field.agent': 'agent',
  'common.field.reference': 'reference',
  'common.field.type': 'type',
  'common.field.subject': 'subject',
  'common.field.description': 'description',
  'common.field.requestorName': 'requestor name',
  'common.field.requestorFirstName': 'requestor first name',
  'common.field.company': 'company',
  'common.field.gender': 'gender',
  'common.field.country': 'country',
  'common.notKept':
    ":warning: The platform did not keep: {fields}. Check {count, plural, one {it} other {them}} on the platform; confdesk's log tells an administrator which parameter was ignored.",
  // The Workflow Builder steps' own failures (slack/runtime/step-runner.ts, slack/input/step-inputs.ts).
  'step.runAsMissing':
    'confdesk acts only for a person Slack vouches for, with their own rights on the video platform. In Workflow Builder, set this step’s “Run as” input to “Person who used this workflow” (or to the person who clicked a button in an earlier step); a user typed into another input does not count.',
  'step.inputProblem': 'The step’s input “{field}” is not valid: {message}. Check it in Workflow Builder.',
  // A Slack date token's format with a time (Slack writes the date and the time in the reader's language).
  'common.dateAt': "'{date_short_pretty}' at '{time}'",
} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {
  'modal.close': 'Fermer',
  'modal.done': 'Terminé',
  'modal.title': 'confdesk',
  'working.quick': '{action}…',
  'working.slowSeconds':
    '{action}… La plateforme vidéo n’accepte que quelques requêtes par minute et elle est occupée\u202f: cela prendra environ {seconds}\u202fs. Vous pouvez fermer ce message\u202f; je publierai le résultat.',
  'working.slowMinutes':
    '{action}… La plateforme vidéo n’accepte que quelques requêtes par minute et elle est occupée\u202f: cela prendra environ {minutes}\u202fmin. Vous pouvez fermer ce message\u202f; je publierai le résultat.',
  'working.working': 'En cours',
  'working.creatingConference': 'Création de la conférence',
  'working.lookingUpConferences': 'Recherche de vos conférences',
  'working.lookingUpConference': 'Recherche de la conférence',
  'working.lookingUpTickets': 'Recherche des tickets',
  'working.lookingUpTicket': 'Recherche du ticket',
  'working.doctor': 'Vérifications du diagnostic en cours',
  'working.lookingUpAccount': 'Recherche du compte de la plateforme',
  'working.link': 'Mise à jour du lien',
  'working.recordings': 'Recherche des enregistrements et des instantanés',
  'working.loadingConference': 'Chargement de la conférence',
  'working.savingConference': 'Enregistrement de la conférence',
  'working.loadingTicket': 'Chargement du ticket',
  'working.movingTicket': 'Mise à jour de l’état du ticket',
  'working.deletingTicket': 'Suppression du ticket',
  'working.fetchingFile': 'Récupération du fichier',
  'working.fetchingTicketMedia': 'Récupération des médias du ticket',
  'working.removingSubscription': 'Suppression de l’abonnement',
  'working.passwordReset': 'Réinitialisation du mot de passe en cours',
  'working.sendingPasswordReset': 'Envoi de la réinitialisation du mot de passe',
  'working.digest': 'Traitement du résumé en cours',
  'working.checkingCreateTickets': 'Vérification de votre droit de créer des tickets',
  'working.takingTicket': 'Prise en charge du ticket',
  'working.movingTicketToDone': 'Passage du ticket à l’état «\u202fterminé\u202f»',
  'clip.commandText':
    'Le texte de votre commande faisait {length}\u202fcaractères\u202f: je n’en ai lu que les {limit}\u202fpremiers.',
  'date.unknown': 'date inconnue',
  'error.notMember':
    'Je ne suis pas membre de {channel}, je ne peux donc pas y publier\u202f: tapez `/invite @confdesk` dans le canal.',
  'error.notMemberHere':
    'Je ne suis pas membre de ce canal, je ne peux donc pas y publier\u202f: tapez `/invite @confdesk` dans le canal.',
  'error.notMemberRetry':
    'Je ne suis pas membre de {channel}, je ne peux donc pas y publier\u202f: tapez `/invite @confdesk` dans le canal, puis réessayez.',
  'error.notMemberHereRetry':
    'Je ne suis pas membre de ce canal, je ne peux donc pas y publier\u202f: tapez `/invite @confdesk` dans le canal, puis réessayez.',
  'error.fixInput': 'Corrigez ceci, puis réessayez\u202f:\n{problems}',
  'error.conferenceFeature':
    'La plateforme vidéo a refusé\u202f: la fonction de visioconférence n’est probablement pas activée pour le compte de votre entreprise. Demandez à l’administrateur de votre plateforme de l’activer.',
  'error.conferenceFeatureDetail':
    'La plateforme vidéo a refusé ({detail})\u202f: la fonction de visioconférence n’est probablement pas activée pour le compte de votre entreprise. Demandez à l’administrateur de votre plateforme de l’activer.',
  'error.badRequest': 'La plateforme vidéo a refusé cette demande. Vérifiez les valeurs, puis réessayez.',
  'error.badRequestDetail':
    'La plateforme vidéo a refusé cette demande\u202f: {detail}. Vérifiez les valeurs, puis réessayez.',
  'error.missingScope':
    'Slack a refusé\u202f: il manque à l’application une autorisation dont elle a besoin (`missing_scope`). Un administrateur de l’espace de travail peut réinstaller confdesk depuis son manifeste (manifest.yml) pour l’accorder.',
  'error.slackToken':
    'Slack a refusé le jeton de confdesk (`{code}`)\u202f: un administrateur de l’espace de travail doit réinstaller l’application. Rien n’a été perdu\u202f; réessayez ensuite.',
  'error.unexpected':
    'Une erreur s’est produite du côté de confdesk (référence `{ref}`). Réessayez\u202f; si cela se reproduit, donnez cette référence à votre administrateur.',
  'platform.mayBeDone':
    'La connexion à la plateforme vidéo a été coupée pendant sa réponse\u202f: elle l’a peut-être déjà fait. Vérifiez avant de réessayer.',
  'platform.brokeOff':
    'La connexion à la plateforme vidéo a été coupée pendant sa réponse. Réessayez dans un instant.',
  'platform.timeout': 'La plateforme vidéo a mis trop de temps à répondre. Réessayez dans un instant.',
  'platform.unreachable': 'La plateforme vidéo est injoignable. Réessayez dans un instant.',
  'platform.refused': 'La plateforme vidéo a refusé la demande.',
  'platform.refusedDetail': 'La plateforme vidéo a refusé la demande ({detail}).',
  'platform.signIn':
    'confdesk n’a pas pu se connecter à la plateforme vidéo. Un administrateur doit vérifier ses identifiants.',
  'platform.forbidden': 'La plateforme vidéo indique que vous n’avez pas le droit de faire cela.',
  'platform.forbiddenDetail':
    'La plateforme vidéo indique que vous n’avez pas le droit de faire cela ({detail}).',
  'platform.webPage':
    'La plateforme vidéo a répondu par une page web au lieu de l’API\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.webPageDetail':
    'La plateforme vidéo a répondu par une page web ({detail}) au lieu de l’API\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.noSuchItemEmpty':
    'Cet élément n’existe pas sur la plateforme vidéo\u202f: il a peut-être été supprimé. Si cela arrive pour tout, un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.noSuchItem':
    'Cet élément n’existe pas sur la plateforme vidéo\u202f: il a peut-être été supprimé.',
  'platform.redirected':
    'La plateforme vidéo a redirigé cette demande vers {host} au lieu d’y répondre\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.redirectedNowhere':
    'La plateforme vidéo a redirigé cette demande sans dire où au lieu d’y répondre\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.internal': 'La plateforme vidéo a rencontré une erreur interne. Réessayez dans un instant.',
  'platform.statusPage':
    'La plateforme vidéo a répondu «\u202f{status} {label}\u202f» par une page web\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.statusPageDetail':
    'La plateforme vidéo a répondu «\u202f{status} {label}\u202f» par une page web ({detail})\u202f: un administrateur doit vérifier PLATFORM_URL (elle doit se terminer par l’hôte, par exemple https://cloud.apizee.com).',
  'platform.statusEmpty':
    'La plateforme vidéo a répondu «\u202f{status} {label}\u202f» sans dire pourquoi. Réessayez\u202f; si cela persiste, un administrateur doit consulter le journal de confdesk.',
  'platform.status': 'La plateforme vidéo a répondu «\u202f{status} {label}\u202f».',
  'platform.statusDetail': 'La plateforme vidéo a répondu «\u202f{status} {label}\u202f» ({detail}).',
  'platform.rateLimited':
    'La plateforme vidéo est occupée (limite de requêtes). Réessayez dans environ {seconds}\u202fs.',
  'platform.unusable':
    'La plateforme vidéo a envoyé une réponse que confdesk ne peut pas utiliser\u202f: {problem}.',
  'platform.notUnderstood':
    'La plateforme vidéo a envoyé une réponse que confdesk n’a pas comprise. L’équipe a été prévenue.',
  'platform.closed':
    'confdesk redémarre\u202f: cette demande n’a pas été envoyée à la plateforme vidéo. Réessayez dans une minute.',
  'platform.address':
    'La plateforme vidéo a indiqué à confdesk une adresse d’où il ne télécharge pas ({host}\u202f: {problem})\u202f: rien n’a été téléchargé. Un administrateur doit vérifier la plateforme (et PLATFORM_HOSTS).',
  'platform.grantDeadline':
    'La plateforme vidéo est occupée\u202f: la demande de confdesk n’a pas eu son tour en {seconds}\u202fs (la plateforme accepte environ 10 requêtes par minute), elle n’a donc pas été envoyée et rien n’a changé. Relancez-la dans une minute.',
  'error.platformOwn': '{said}',
  'identity.noAccount':
    'Votre e-mail Slack ({email}) n’a pas de compte sur la plateforme vidéo. Demandez à un administrateur de la plateforme d’en créer un avec cet e-mail, puis réessayez.',
  'identity.noEmail':
    'Votre profil Slack n’a pas d’adresse e-mail, confdesk ne peut donc pas trouver votre compte sur la plateforme vidéo. Ajoutez votre e-mail à votre profil Slack, ou demandez à un administrateur de l’espace de travail de le rendre visible aux applications.',
  'identity.linkGone':
    'Vous êtes lié au compte {id} de la plateforme vidéo, qui n’existe plus. Demandez à un administrateur de la plateforme de vous lier à nouveau (`/conference admin link`).',
  'identity.unknownSlackUser': 'Slack ne connaît pas l’utilisateur {user}.',
  'policy.help': 'Vous ne pouvez pas voir l’aide.',
  'policy.conference.create': 'Vous ne pouvez pas créer de conférences sans compte sur la plateforme.',
  'policy.conference.moderate-other':
    'Vous ne pouvez pas désigner quelqu’un d’autre comme modérateur\u202f: seuls les administrateurs de la plateforme vidéo le peuvent. Laissez le champ vide.',
  'policy.conference.list': 'Vous ne pouvez pas lister les conférences sans compte sur la plateforme.',
  'policy.conference.see':
    'Vous ne pouvez pas voir cette conférence\u202f: seuls ses participants, son modérateur et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.conference.join':
    'Vous ne pouvez pas rejoindre cette conférence\u202f: son lien est réservé à ses participants, à son modérateur et aux administrateurs de la plateforme vidéo. Demandez au modérateur de vous inviter.',
  'policy.conference.media':
    'Vous ne pouvez pas voir les enregistrements de cette conférence\u202f: seuls ses participants, son modérateur et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.conference.edit':
    'Vous ne pouvez pas modifier cette conférence\u202f: seuls son modérateur et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.conference.delete':
    'Vous ne pouvez pas supprimer cette conférence\u202f: seuls son modérateur et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.ticket.create': 'Vous ne pouvez pas créer de tickets sans compte sur la plateforme.',
  'policy.ticket.assign':
    'Vous ne pouvez pas confier un ticket à ce groupe ou à un autre agent\u202f: seuls les membres du groupe et les administrateurs de la plateforme vidéo le peuvent. Choisissez l’un de vos groupes, ou vous-même comme agent.',
  'policy.ticket.see':
    'Vous ne pouvez pas voir ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le voir.',
  'policy.ticket.join':
    'Vous ne pouvez pas rejoindre la session de ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent la rejoindre comme agent.',
  'policy.ticket.move':
    'Vous ne pouvez pas agir sur ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent agir dessus.',
  'policy.ticket.edit':
    'Vous ne pouvez pas modifier ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le modifier.',
  'policy.ticket.delete':
    'Vous ne pouvez pas supprimer ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le supprimer.',
  'policy.ticket.export':
    'Vous ne pouvez pas exporter ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent l’exporter.',
  'policy.ticket.timeline':
    'Vous ne pouvez pas voir l’historique de ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le voir.',
  'policy.ticket.media':
    'Vous ne pouvez pas voir les médias de ce ticket\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent les voir.',
  'policy.ticket.watch':
    'Vous ne pouvez pas faire suivre ce ticket par ce canal\u202f: seuls son agent, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le faire.',
  'policy.ticket.list-mine': 'Vous ne pouvez pas lister les tickets sans compte sur la plateforme.',
  'policy.ticket.list-group':
    'Vous ne pouvez pas lister les tickets de ce groupe\u202f: seuls ses membres et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.ticket.list-all':
    'Vous ne pouvez pas lister les tickets de tout le monde\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux. Essayez `/ticket list` (les vôtres) ou `/ticket list group` et l’un de vos groupes.',
  'policy.ticket.follow-group':
    'Vous ne pouvez pas surveiller les tickets de ce groupe\u202f: seuls ses membres et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.ticket.follow-all':
    'Vous ne pouvez pas surveiller les tickets de tous les groupes\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux. Ajoutez `group:"…"` avec l’un de vos groupes.',
  'policy.subscription.list': 'Vous ne pouvez pas lister les abonnements sans compte sur la plateforme.',
  'policy.channel.reactions':
    'Vous ne pouvez pas activer les réactions dans ce canal sans compte sur la plateforme.',
  'policy.subscription.remove':
    'Vous ne pouvez pas supprimer cet abonnement\u202f: seuls la personne qui l’a ajouté et les administrateurs de la plateforme vidéo le peuvent.',
  'policy.digest.set':
    'Vous ne pouvez pas configurer le résumé des statistiques\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.digest.list':
    'Vous ne pouvez pas lister les résumés des statistiques\u202f: ils sont réservés aux administrateurs, demandez à l’un d’eux.',
  'policy.digest.remove':
    'Vous ne pouvez pas supprimer un résumé des statistiques\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.digest.preview':
    'Vous ne pouvez pas prévisualiser le résumé des statistiques\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.admin.doctor':
    'Vous ne pouvez pas voir le rapport de diagnostic\u202f: il est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.outbox.requeue':
    'Vous ne pouvez pas renvoyer les messages refusés par Slack\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.directory.search':
    'Vous ne pouvez pas chercher parmi les personnes de la plateforme vidéo sans compte sur la plateforme.',
  'policy.identity.link':
    'Vous ne pouvez pas lier des personnes Slack à des comptes de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.people.list':
    'Vous ne pouvez pas lister les utilisateurs de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.people.see':
    'Vous ne pouvez pas voir le détail d’un utilisateur de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.people.create':
    'Vous ne pouvez pas créer d’utilisateurs de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.people.edit':
    'Vous ne pouvez pas modifier les utilisateurs de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.people.delete':
    'Vous ne pouvez pas supprimer d’utilisateurs de la plateforme\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.groups.list':
    'Vous ne pouvez pas lister les groupes de la plateforme et leurs membres\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux.',
  'policy.password.reset-own':
    'Vous ne pouvez pas réinitialiser un mot de passe de la plateforme vidéo sans compte sur la plateforme.',
  'policy.password.reset-any':
    'Vous ne pouvez pas envoyer une réinitialisation de mot de passe à quelqu’un d’autre\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux. `/conference password` seul réinitialise le vôtre.',
  'policy.home.view': 'Vous ne pouvez pas voir l’onglet d’accueil.',
  'policy.home.new-conference': 'Vous ne pouvez pas créer de conférences sans compte sur la plateforme.',
  'policy.reminders.set': 'Vous ne pouvez pas modifier les rappels de conférence.',
  'policy.media.list': 'Vous ne pouvez pas parcourir la médiathèque sans compte sur la plateforme.',
  'policy.media.list-all':
    'Vous ne pouvez pas lister les médias des autres\u202f: c’est réservé aux administrateurs de la plateforme vidéo, demandez à l’un d’eux. Essayez `group:` et l’un de vos groupes.',
  'policy.media.see':
    'Vous ne pouvez pas voir ce média\u202f: seuls son propriétaire, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le voir.',
  'policy.media.edit':
    'Vous ne pouvez pas modifier ce média\u202f: seuls son propriétaire, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le modifier.',
  'policy.media.delete':
    'Vous ne pouvez pas supprimer ce média\u202f: seuls son propriétaire, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le supprimer.',
  'policy.media.share':
    'Vous ne pouvez pas partager ce média\u202f: seuls son propriétaire, les membres de son groupe et les administrateurs de la plateforme vidéo peuvent le partager.',
  'policy.ticket.create-admins':
    'Vous ne pouvez pas créer de tickets\u202f: dans cet espace de travail, seuls les administrateurs de la plateforme vidéo le peuvent (réglages confdesk de l’espace de travail).',
  'common.problem.invalid': 'Cette valeur n’est pas valide.',
  'common.problem.length2to255': 'Doit compter de 2 à 255 caractères',
  'common.problem.max300': 'Doit compter 300 caractères au plus',
  'common.problem.max255': 'Doit compter 255 caractères au plus',
  'common.problem.pin': 'Ne peut contenir que des chiffres, * et #',
  'common.problem.minutes': 'Un nombre de minutes est attendu',
  'common.problem.wholeMinutes': 'Un nombre entier de minutes est attendu',
  'common.problem.atLeastOneMinute': 'Doit être d’au moins 1 minute',
  'common.problem.oneToSixtyMinutes': 'Doit être de 1 à 60 minutes',
  'common.problem.serviceKey': 'Une clé de service de 32 caractères en minuscules est attendue',
  'common.problem.email': 'Une adresse e-mail est attendue, par exemple name@example.com',
  'common.problem.phone': 'Un numéro de téléphone international est attendu, par exemple +33612345678',
  'common.problem.numericId': 'Un numéro est attendu',
  'common.problem.notEmail': '«\u202f{value}\u202f» n’est pas un e-mail valide',
  'common.problem.neither':
    '«\u202f{value}\u202f» n’est ni un e-mail ni un numéro de téléphone international (+33612345678)',
  'common.field.name': 'nom',
  'common.field.message': 'message',
  'common.field.startTime': 'heure de début',
  'common.field.duration': 'durée',
  'common.field.reminder': 'rappel',
  'common.field.template': 'modèle',
  'common.field.language': 'langue',
  'common.field.entryMode': 'mode d’entrée',
  'common.field.moderator': 'modérateur',
  'common.field.group': 'groupe',
  'common.field.agent': 'agent',
  'common.field.reference': 'référence',
  'common.field.type': 'type',
  'common.field.subject': 'sujet',
  'common.field.description': 'description',
  'common.field.requestorName': 'nom du demandeur',
  'common.field.requestorFirstName': 'prénom du demandeur',
  'common.field.company': 'société',
  'common.field.gender': 'civilité',
  'common.field.country': 'pays',
  'common.notKept':
    ':warning: La plateforme n’a pas gardé\u202f: {fields}. Vérifiez-{count, plural, one {le} other {les}} sur la plateforme\u202f; le journal de confdesk indique à un administrateur quel paramètre a été ignoré.',
  'step.runAsMissing':
    'confdesk n’agit que pour une personne dont Slack se porte garant, avec ses propres droits sur la plateforme vidéo. Dans Workflow Builder, réglez l’entrée «\u202fRun as\u202f» de cette étape sur «\u202fPerson who used this workflow\u202f» (ou sur la personne qui a cliqué un bouton dans une étape précédente)\u202f; un utilisateur saisi dans une autre entrée ne compte pas.',
  'step.inputProblem':
    'L’entrée «\u202f{field}\u202f» de l’étape n’est pas valide\u202f: {message}. Vérifiez-la dans Workflow Builder.',
  'common.dateAt': "'{date_short_pretty}' à '{time}'",
};
