/*
 * The media library, its forms, media shared into channels and uploads' comments.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {
  // A media's type and status as the platform names them (blocks/media.ts `typeLabel`, `statusLabel`);
  // an unknown one is shown as the platform wrote it.
  'media.type.recording': 'recording',
  'media.type.video': 'video',
  'media.type.snapshot': 'snapshot',
  'media.type.picture': 'picture',
  'media.type.image': 'image',
  'media.type.capture': 'capture',
  'media.type.document': 'document',
  'media.status.completed': 'completed',
  'media.status.pending': 'pending',
  'media.status.processing': 'processing',
  'media.status.failed': 'failed',
  'media.status.error': 'error',
  // A media without a title or a file name, by its id.
  'media.untitled': 'Media {id}',
  'media.untitledInSentence': 'media {id}',
  // The library modal (blocks/media.ts buildMediaLibrary).
  'media.library.title': 'Media library',
  'media.library.close': 'Close',
  'media.library.filters': '*Filters:* `{filters}`',
  'media.library.all': '*All the media you may see*',
  'media.library.filter': 'Filter',
  'media.library.hiddenAll':
    '{count, plural, one {The only item on this page belongs} other {All {count} items on this page belong}} to other people, outside your groups: only a media’s owner, the members of its group and video platform admins see it.',
  'media.library.hiddenSome':
    '{count, plural, one {{count} more item on this page is hidden: it belongs} other {{count} more items on this page are hidden: they belong}} to other people, outside your groups: only a media’s owner, the members of its group and video platform admins see it',
  'media.library.tryNext': 'Try *Next ›*, or filters that name your own or your groups’ media.',
  'media.library.noMore': 'No more media.',
  'media.library.none': 'No media found. Try other filters, or fewer of them.',
  'media.library.range': '{first}–{last}',
  'media.library.rangeOf': '{first}–{last} of {total}',
  'media.library.previous': '‹ Previous',
  'media.library.next': 'Next ›',
  'media.row.show': 'Show',
  'media.row.edit': 'Edit',
  'media.row.share': 'Share in Slack',
  'media.row.delete': 'Delete',
  // The detail view (buildMediaDetails).
  'media.details.title': 'Media',
  'media.back': 'Back',
  'media.field.type': 'Type',
  'media.field.status': 'Status',
  'media.field.format': 'Format',
  'media.field.size': 'Size',
  'media.field.file': 'File',
  'media.details.created': '*Created:* {when}',
  'media.details.createdUnknown': '*Created:* unknown',
  'media.details.location': 'Location: {lat}, {lng}',
  'media.details.id': 'Media {id}',
  // The edit form (buildMediaEditForm) and its outcome (slack/views/media-forms.ts).
  'media.edit.title': 'Edit media',
  'media.edit.save': 'Save',
  'media.edit.titleLabel': 'Title',
  'media.edit.description': 'Description',
  'media.edit.lat': 'Latitude',
  'media.edit.lng': 'Longitude',
  'media.edit.latPlaceholder': 'e.g. 48.8566',
  'media.edit.lngPlaceholder': 'e.g. 2.3522',
  'media.edit.latHint': '-90 to 90. Leave both empty to keep the location.',
  'media.edit.lngHint': '-180 to 180.',
  'media.edit.working': 'Saving the media',
  'media.edit.saved': 'Saved “{name}”.',
  // The share form (buildMediaShareForm), its checks and outcome.
  'media.share.title': 'Share media',
  'media.share.submit': 'Share',
  'media.share.tooBig': 'Past Slack’s file size limit: the channel gets a link to it instead of the file.',
  'media.share.channel': 'Channel',
  'media.share.thread': 'In the thread of (optional)',
  'media.share.threadHint':
    'A message’s link (Copy link in its menu) or its timestamp. Empty: in the channel.',
  'media.share.pickChannel': 'Pick the channel to share it in.',
  'media.share.otherChannel': 'This message is in another channel: pick that channel, or another message.',
  'media.share.working': 'Sending the file to Slack',
  'media.shared.channel': 'Shared in {channel}.',
  'media.shared.thread': 'Shared in a thread of {channel}.',
  'media.tooBig': '*{name}* is {size}: past Slack’s file size limit ({limit}), so it was not uploaded.',
  'media.tooBig.link': 'Get it here instead: {link}',
  'media.tooBig.linkLabel': 'download from the video platform',
  'media.fileComment': '{person} shared *{name}* from the media library.',
  // The filter form (buildMediaFilterForm): `syntax` is the filters as people type them.
  'media.filter.title': 'Filter media',
  'media.filter.apply': 'Apply',
  'media.filter.label': 'Filters',
  'media.filter.hint': '{syntax}, other words search. Empty: everything.',
  // Delete, in the library (buildMediaDeletePrompt) and its outcome (slack/actions/media-library.ts).
  'media.delete.prompt': 'Delete this media for good? The video platform keeps no copy.',
  'media.delete.button': 'Delete',
  'media.delete.confirmTitle': 'Delete this media?',
  'media.delete.confirmText': '*{name}* is deleted from the video platform. This cannot be undone.',
  'media.delete.keep': 'Keep it',
  'media.delete.cancel': 'Cancel',
  'media.delete.title': 'Delete media',
  'media.delete.working': 'Deleting the media',
  'media.delete.done': 'Deleted “{name}”.',
  'media.working': 'Looking up the media',
  // What the media service says (services/media.ts).
  'media.error.noSuch': 'There is no media {id} on the video platform.',
  'media.error.gone': 'There is no media {id} on the video platform (any more): open the library again.',
  'media.error.user':
    'user: “{ref}” is nobody on the video platform. Use a login, an e-mail or a user id ({syntax}).',
  'media.error.group': 'group: “{ref}” is no group of your enterprise. Use a group’s name or id.',
  // A file sent to Slack (outbound/upload.ts).
  'upload.unknownSize': 'The video platform did not say how big this file is, so it cannot be sent to Slack.',
  'upload.sizeMismatch':
    'The file the video platform sent is not the {length} bytes it announced, so nothing was posted.',
  'upload.platformStopped':
    'The video platform stopped sending the file before it was whole, so nothing was posted. Please try again.',
  'upload.platformBroke':
    'The connection to the video platform broke off before the file was whole, so nothing was posted. Please try again.',
  'upload.slackStopped':
    'Slack stopped taking the file, so nothing was posted. Please try again in a moment.',
  'upload.slackBroke':
    'The connection to Slack broke off while the file was sent, so nothing was posted. Please try again in a moment.',
  'upload.slackStatus':
    "Slack's upload address answered {status}, so nothing was posted. Please try again in a moment.",
  // A ticket's media list's "Post all in the thread (zip)" (blocks/ticket-card.ts, slack/actions/ticket-menu.ts).
  'media.postAll.button': 'Post all in the thread (zip)',
  'media.postAll.working': 'Fetching the ticket’s media',
  // What the library's filters, the edit form and the share's thread cannot take (domain/media.ts's
  // problems), inline in the forms and before `/conference media`'s help.
  'media.filters.notAFilter':
    '“{key}:” is not a media filter. Use type:<snapshot|capture|recording|document> status:<completed|…> source:<s> tag:<t> user:<login or e-mail> group:<name or id> conversation:<id> since:YYYY-MM-DD until:YYYY-MM-DD, other words search.',
  'media.filters.noValue': '{key}: needs a value, e.g. {example}.',
  'media.filters.badDate': '{key}: takes a date written YYYY-MM-DD, not “{value}”.',
  'media.filters.badUser': 'user: takes a login, an e-mail, a user id, me or all, not “{value}”.',
  'media.filters.longGroup': 'group: takes a group’s name or id (at most 100 characters).',
  'media.filters.badConversation': 'conversation: takes a conversation id (letters, digits), not “{value}”.',
  'media.filters.sinceAfterUntil': 'since: ({since}) is after until: ({until}): swap them.',
  'media.edit.titleTooLong': 'A title is at most 255 characters.',
  'media.edit.latNotNumber': 'The latitude is a number, like 48.8566.',
  'media.edit.lngNotNumber': 'The longitude is a number, like 2.3522.',
  'media.edit.latRange': 'The latitude is between -90 and 90.',
  'media.edit.lngRange': 'The longitude is between -180 and 180.',
  'media.edit.bothCoordinates': 'A location needs both the latitude and the longitude.',
  'media.share.badThread':
    'Paste a message’s link (Copy link in its menu) or its timestamp like 1700000000.123456, or leave it empty.',
} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {
  'media.type.recording': 'enregistrement',
  'media.type.video': 'vidéo',
  'media.type.snapshot': 'instantané',
  'media.type.picture': 'photo',
  'media.type.image': 'image',
  'media.type.capture': 'capture d’écran',
  'media.type.document': 'document',
  'media.status.completed': 'terminé',
  'media.status.pending': 'en attente',
  'media.status.processing': 'en cours de traitement',
  'media.status.failed': 'en échec',
  'media.status.error': 'en erreur',
  'media.untitled': 'Média {id}',
  'media.untitledInSentence': 'média {id}',
  'media.library.title': 'Médiathèque',
  'media.library.close': 'Fermer',
  'media.library.filters': '*Filtres\u202f:* `{filters}`',
  'media.library.all': '*Tous les médias que vous pouvez voir*',
  'media.library.filter': 'Filtrer',
  'media.library.hiddenAll':
    '{count, plural, one {Le seul élément de cette page appartient} other {Les {count} éléments de cette page appartiennent}} à d’autres personnes, hors de vos groupes\u202f: seuls le propriétaire d’un média, les membres de son groupe et les administrateurs de la plateforme vidéo y ont accès.',
  'media.library.hiddenSome':
    '{count, plural, one {{count} autre élément de cette page est masqué\u202f: il appartient} other {{count} autres éléments de cette page sont masqués\u202f: ils appartiennent}} à d’autres personnes, hors de vos groupes\u202f: seuls le propriétaire d’un média, les membres de son groupe et les administrateurs de la plateforme vidéo y ont accès',
  'media.library.tryNext':
    'Essayez *Suivant ›*, ou des filtres qui désignent vos médias ou ceux de vos groupes.',
  'media.library.noMore': 'Aucun autre média.',
  'media.library.none': 'Aucun média trouvé. Essayez d’autres filtres, ou moins de filtres.',
  'media.library.range': '{first}–{last}',
  'media.library.rangeOf': '{first}–{last} sur {total}',
  'media.library.previous': '‹ Précédent',
  'media.library.next': 'Suivant ›',
  'media.row.show': 'Afficher',
  'media.row.edit': 'Modifier',
  'media.row.share': 'Partager dans Slack',
  'media.row.delete': 'Supprimer',
  'media.details.title': 'Média',
  'media.back': 'Retour',
  'media.field.type': 'Type',
  'media.field.status': 'État',
  'media.field.format': 'Format',
  'media.field.size': 'Taille',
  'media.field.file': 'Fichier',
  'media.details.created': '*Création\u202f:* {when}',
  'media.details.createdUnknown': '*Création\u202f:* inconnue',
  'media.details.location': 'Lieu\u202f: {lat}, {lng}',
  'media.details.id': 'Média {id}',
  'media.edit.title': 'Modifier le média',
  'media.edit.save': 'Enregistrer',
  'media.edit.titleLabel': 'Titre',
  'media.edit.description': 'Description',
  'media.edit.lat': 'Latitude',
  'media.edit.lng': 'Longitude',
  'media.edit.latPlaceholder': 'ex. 48.8566',
  'media.edit.lngPlaceholder': 'ex. 2.3522',
  'media.edit.latHint': 'De -90 à 90. Laissez les deux vides pour garder le lieu.',
  'media.edit.lngHint': 'De -180 à 180.',
  'media.edit.working': 'Enregistrement du média',
  'media.edit.saved': 'Média «\u202f{name}\u202f» enregistré.',
  'media.share.title': 'Partager le média',
  'media.share.submit': 'Partager',
  'media.share.tooBig':
    'Au-delà de la taille de fichier permise par Slack\u202f: le canal reçoit un lien vers le média au lieu du fichier.',
  'media.share.channel': 'Canal',
  'media.share.thread': 'Dans le fil de (facultatif)',
  'media.share.threadHint':
    'Le lien d’un message (Copier le lien, dans son menu) ou son horodatage. Vide\u202f: dans le canal.',
  'media.share.pickChannel': 'Choisissez le canal où le partager.',
  'media.share.otherChannel':
    'Ce message est dans un autre canal\u202f: choisissez ce canal, ou un autre message.',
  'media.share.working': 'Envoi du fichier à Slack',
  'media.shared.channel': 'Partagé dans {channel}.',
  'media.shared.thread': 'Partagé dans un fil de {channel}.',
  'media.tooBig':
    '*{name}* pèse {size}\u202f: au-delà de la taille de fichier permise par Slack ({limit}), il n’a donc pas été envoyé.',
  'media.tooBig.link': 'Récupérez-le plutôt ici\u202f: {link}',
  'media.tooBig.linkLabel': 'télécharger depuis la plateforme vidéo',
  'media.fileComment': '{person} a partagé *{name}* depuis la médiathèque.',
  'media.filter.title': 'Filtrer les médias',
  'media.filter.apply': 'Appliquer',
  'media.filter.label': 'Filtres',
  'media.filter.hint': '{syntax}, les autres mots sont cherchés. Vide\u202f: tous les médias.',
  'media.delete.prompt':
    'Supprimer définitivement ce média\u202f? La plateforme vidéo n’en garde aucune copie.',
  'media.delete.button': 'Supprimer',
  'media.delete.confirmTitle': 'Supprimer ce média\u202f?',
  'media.delete.confirmText': '*{name}* est supprimé de la plateforme vidéo. C’est irréversible.',
  'media.delete.keep': 'Le garder',
  'media.delete.cancel': 'Annuler',
  'media.delete.title': 'Supprimer le média',
  'media.delete.working': 'Suppression du média',
  'media.delete.done': 'Média «\u202f{name}\u202f» supprimé.',
  'media.working': 'Recherche des médias',
  'media.error.noSuch': 'Il n’y a pas de média {id} sur la plateforme vidéo.',
  'media.error.gone':
    'Le média {id} n’existe pas (ou plus) sur la plateforme vidéo\u202f: rouvrez la médiathèque.',
  'media.error.user':
    '`user:` «\u202f{ref}\u202f» ne désigne personne sur la plateforme vidéo. Indiquez un identifiant de connexion, un e-mail ou un numéro d’utilisateur ({syntax}).',
  'media.error.group':
    '`group:` «\u202f{ref}\u202f» n’est pas un groupe de votre entreprise. Indiquez le nom ou le numéro d’un groupe.',
  'upload.unknownSize':
    'La plateforme vidéo n’a pas indiqué la taille de ce fichier, il ne peut donc pas être envoyé à Slack.',
  'upload.sizeMismatch':
    'Le fichier envoyé par la plateforme vidéo ne fait pas les {length} octets annoncés, rien n’a donc été publié.',
  'upload.platformStopped':
    'La plateforme vidéo a cessé d’envoyer le fichier avant la fin, rien n’a donc été publié. Veuillez réessayer.',
  'upload.platformBroke':
    'La connexion à la plateforme vidéo a été coupée avant la fin du fichier, rien n’a donc été publié. Veuillez réessayer.',
  'upload.slackStopped':
    'Slack a cessé de recevoir le fichier, rien n’a donc été publié. Veuillez réessayer dans un instant.',
  'upload.slackBroke':
    'La connexion à Slack a été coupée pendant l’envoi du fichier, rien n’a donc été publié. Veuillez réessayer dans un instant.',
  'upload.slackStatus':
    'L’adresse d’envoi de Slack a répondu {status}, rien n’a donc été publié. Veuillez réessayer dans un instant.',
  'media.postAll.button': 'Tout publier dans le fil (zip)',
  'media.postAll.working': 'Récupération des médias du ticket',
  'media.filters.notAFilter':
    '`{key}:` n’est pas un filtre de médias. Utilisez `type:<snapshot|capture|recording|document> status:<completed|…> source:<s> tag:<t> user:<identifiant ou e-mail> group:<nom ou numéro> conversation:<numéro> since:AAAA-MM-JJ until:AAAA-MM-JJ`, les autres mots sont cherchés.',
  'media.filters.noValue': '`{key}:` demande une valeur, par exemple `{example}`.',
  'media.filters.badDate': '`{key}:` attend une date écrite AAAA-MM-JJ, pas «\u202f{value}\u202f».',
  'media.filters.badUser':
    '`user:` attend un identifiant de connexion, un e-mail, un numéro d’utilisateur, me ou all, pas «\u202f{value}\u202f».',
  'media.filters.longGroup': '`group:` attend le nom ou le numéro d’un groupe (100 caractères au plus).',
  'media.filters.badConversation':
    '`conversation:` attend un numéro de conversation (lettres, chiffres), pas «\u202f{value}\u202f».',
  'media.filters.sinceAfterUntil': '`since:` ({since}) est après `until:` ({until})\u202f: inversez-les.',
  'media.edit.titleTooLong': 'Un titre fait 255 caractères au plus.',
  'media.edit.latNotNumber': 'La latitude est un nombre, comme 48.8566.',
  'media.edit.lngNotNumber': 'La longitude est un nombre, comme 2.3522.',
  'media.edit.latRange': 'La latitude est comprise entre -90 et 90.',
  'media.edit.lngRange': 'La longitude est comprise entre -180 et 180.',
  'media.edit.bothCoordinates': 'Un lieu demande à la fois la latitude et la longitude.',
  'media.share.badThread':
    'Collez le lien d’un message (Copier le lien, dans son menu) ou son horodatage, comme 1700000000.123456, ou laissez vide.',
};
