/** Every Slack id the bot uses (commands, action ids, callback ids, block ids), in one place. */
export const ids = {
  commands: { conference: '/conference', ticket: '/ticket' },
  shortcuts: { conferenceNew: 'conference_new', ticketFromMessage: 'ticket_from_message' },
  views: {
    conferenceForm: 'conference_form',
    ticketForm: 'ticket_form',
    ticketEdit: 'ticket_edit',
    ticketExport: 'ticket_export',
    digestForm: 'digest_form',
    working: 'working',
    // The People and Groups screens (platform admins)
    /** The People browser (its submit button is Search) and the Groups browser. */
    peopleBrowser: 'people_browser',
    groupsBrowser: 'groups_browser',
    personCreate: 'person_create',
    personEdit: 'person_edit',
    personDelete: 'person_delete',
    // The media library
    mediaLibrary: 'media_library',
    mediaDetails: 'media_details',
    mediaEdit: 'media_edit',
    mediaShare: 'media_share',
    mediaFilter: 'media_filter',
    // Distribution mode: a workspace's own platform settings
    workspaceSettings: 'workspace_settings',
  },
  actions: {
    /** Opens the workspace's platform settings (distribution mode: Home, for its Slack admins). */
    workspaceSettingsOpen: 'workspace_settings_open',
    conferenceJoin: 'conference_join',
    /** The private link buttons given on a Join click: Slack opens the URL, the click is only acked. */
    conferenceJoinLink: 'conference_join_link',
    conferenceEdit: 'conference_edit',
    conferenceDelete: 'conference_delete',
    conferenceMedia: 'conference_media',
    conferenceShow: 'conference_show',
    conferenceShowPage: 'conference_show_page',
    conferencePage: 'conference_page',
    conferenceOpenForm: 'conference_open_form',
    conferenceNew: 'conference_new_button',
    ticketMove: 'ticket_move',
    ticketJoin: 'ticket_join',
    ticketJoinLink: 'ticket_join_link',
    ticketRefresh: 'ticket_refresh',
    ticketMenu: 'ticket_menu',
    ticketDelete: 'ticket_delete',
    ticketShow: 'ticket_show',
    ticketMediaPost: 'ticket_media_post',
    /** A ticket's media list: every media of the ticket, in one zip file, into the card's thread. */
    ticketMediaPostAll: 'ticket_media_post_all',
    ticketUnsubscribe: 'ticket_unsubscribe',
    /** The private *Create ticket* offered to whoever reacted with the create emoji (value: the message). */
    reactionTicket: 'reaction_ticket',
    ticketPage: 'ticket_page',
    // App Home: Remove what the person set up.
    homeSubscriptionRemove: 'home_subscription_remove',
    homeDigestRemove: 'home_digest_remove',
    homeRequeueDead: 'home_requeue_dead',
    /** App Home's conference reminders: off, a lead time, or the conference's (value: `off`, minutes, `default`). */
    reminderLead: 'reminder_lead',
    /** A reminder's Join button (a URL button: Slack opens the link, the click is only acked). */
    reminderJoin: 'reminder_join',
    // The People and Groups screens (platform admins)
    /** Opens the People browser (App Home, anywhere): admins only. */
    peopleOpen: 'people_open',
    /** Opens the Groups browser (App Home, anywhere): admins only. */
    groupsOpen: 'groups_open',
    /** Sends the reset e-mail for the clicker's own login (App Home). */
    passwordResetOwn: 'password_reset_own',
    /** The People browser's search box (Enter searches: `dispatch_action`). */
    peopleSearch: 'people_search',
    /** Previous/Next of the People browser (`:prev`/`:next`), value: the query and offset. */
    peoplePage: 'people_page',
    /** A person's row menu (`:<user id>`): show, edit, reset, delete. */
    personMenu: 'person_menu',
    /** The People browser's New user button. */
    personNew: 'person_new',
    /** A group's Members button (`:<group id>`), and Previous/Next of the member list. */
    groupMembers: 'group_members',
    groupMembersPage: 'group_members_page',
    // The media library
    /** Opens the media library modal (App Home's button; a click carries a trigger). */
    mediaOpen: 'media_open',
    /** A library row's menu: `show|edit|share|delete:<media id>`. */
    mediaRow: 'media_row',
    mediaPage: 'media_page',
    mediaFilter: 'media_filter_open',
    /** The delete prompt's buttons (in the library modal). */
    mediaDeleteConfirm: 'media_delete_confirm',
    mediaDeleteCancel: 'media_delete_cancel',
    /** "Share…" beside a media outside the library (a conference's recordings): the share form. */
    mediaShareOpen: 'media_share_open',
  },
  /**
   * The type-ahead menus (`external_select`), served from the options load URL by the directory:
   * the platform's users (any), agents, groups, and moderators.
   */
  options: {
    users: 'pick_user',
    agents: 'pick_agent',
    groups: 'pick_group',
    moderators: 'pick_moderator',
  },
  /** Block ids of the People browser and of the user forms: each input is named after its create/update input. */
  people: {
    search: 'people_search',
    username: 'username',
    /** Not `password`: Bolt's debug log of a submission is scrubbed by this name too (bolt-logger.ts). */
    password: 'user_password',
    email: 'email',
    cellPhone: 'cell_phone',
    firstName: 'firstName',
    lastName: 'lastName',
    avatar: 'avatar',
    phoneNumber: 'phoneNumber',
    jobTitle: 'jobTitle',
    audioOnly: 'audioOnly',
    clickToChat: 'clickToChat',
    maxOngoingChat: 'maxOngoingChat',
  },
  /** Block ids of the ticket form: each input is named after its create input. */
  ticketForm: {
    channel: 'channel',
    name: 'name',
    phones: 'phones',
    emails: 'emails',
    language: 'language',
    type: 'type',
    subject: 'subject',
    reference: 'reference',
    description: 'description',
    groupId: 'groupId',
    agent: 'agent',
    options: 'options',
    agentTemplateId: 'agentTemplateId',
    requestorTemplateId: 'requestorTemplateId',
    startTime: 'startTime',
    duration: 'duration',
    reminder: 'reminder',
    firstName: 'firstName',
    company: 'company',
    gender: 'gender',
    country: 'country',
    serviceKey: 'service_key',
    scopes: 'scopes',
    state: 'state',
  },
  /** Block ids of the ticket edit form: the update's field names. */
  ticketEdit: {
    subject: 'subject',
    description: 'description',
    reference: 'reference',
    state: 'state',
    agent: 'agent',
    groupId: 'groupId',
  },
  // Block ids of the media forms: the edit's are the update's field names.
  mediaEdit: { title: 'title', description: 'description', lat: 'lat', lng: 'lng' },
  mediaShare: { channel: 'channel', thread: 'thread' },
  mediaFilter: { filters: 'filters' },
  /** Block ids of the conference form: each input is named after its create parameter. */
  conferenceForm: {
    channel: 'channel',
    participants: 'participants',
    people: 'people',
    name: 'name',
    startTime: 'startTime',
    duration: 'duration',
    message: 'message',
    password: 'password',
    options: 'options',
    entryMode: 'entryMode',
    reminder: 'reminder',
    templateId: 'templateId',
    language: 'language',
    moderator: 'moderator',
    serviceKey: 'service_key',
    scope: 'scope',
  },
} as const;
