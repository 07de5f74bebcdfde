/*
 * Who may do what through confdesk. The bot talks to the platform with one powerful account, so every
 * door (command, shortcut, form, button, menu, App Home, job that posts) asks this table first, with
 * the person's own platform account, before it reads or writes anything on their behalf.
 *
 * A person's standing towards the object of an action:
 * - anyone       any Slack person, even without a platform account;
 * - account      a person with a platform account (found by their Slack e-mail);
 * - participant  invited to the conference (their e-mail is among its participants);
 * - member       in the user group of the ticket or media (or of the group the action names);
 * - owner        the ticket's agent, the conference's moderator, the subscription's author, the media's owner;
 * - admin        a platform admin (role `admin`).
 * Standings do not imply one another: an admin is allowed by the rows that name `admin`.
 */

/** How a person stands towards the object of an action. */
export type Standing = 'anyone' | 'account' | 'participant' | 'member' | 'owner' | 'admin';

/** One row of the policy: who may, and the refusal (why, and what to do). */
export interface Rule {
  readonly who: readonly Standing[];
  readonly refusal: string;
  /**
   * The refusal's name in the catalogs (`policy.<name>`: the sentence in each language), when it is
   * not the action's own (a workspace's row in place of the table's).
   */
  readonly refusalKey?: string;
}

const ticketTeam = ['owner', 'member', 'admin'] as const;
const onlyTicketTeam = 'only its agent, the members of its group and video platform admins can';
const conferencePeople = ['participant', 'owner', 'admin'] as const;
const adminsOnly = 'is for video platform admins: ask one of them';
const mediaTeam = ['owner', 'member', 'admin'] as const;
const onlyMediaTeam = 'only its owner, the members of its group and video platform admins can';

/**
 * The policy, one row per action. Read it as "<action>: <who> may; otherwise <refusal>". Refusals
 * complete "You cannot …".
 */
export const policy = {
  help: { who: ['anyone'], refusal: 'see the help' },

  'conference.create': { who: ['account'], refusal: 'create conferences without a platform account' },
  /** Naming someone else as moderator (subject: that moderator). */
  'conference.moderate-other': {
    who: ['owner', 'admin'],
    refusal: 'make someone else the moderator: only video platform admins can. Leave the field empty',
  },
  'conference.list': { who: ['account'], refusal: 'list conferences without a platform account' },
  'conference.see': {
    who: conferencePeople,
    refusal: 'see this conference: only its participants, its moderator and video platform admins can',
  },
  'conference.join': {
    who: conferencePeople,
    refusal:
      'join this conference: its link is for its participants, its moderator and video platform admins. Ask the moderator to invite you',
  },
  'conference.media': {
    who: conferencePeople,
    refusal:
      'see the recordings of this conference: only its participants, its moderator and video platform admins can',
  },
  'conference.edit': {
    who: ['owner', 'admin'],
    refusal: 'edit this conference: only its moderator and video platform admins can',
  },
  'conference.delete': {
    who: ['owner', 'admin'],
    refusal: 'delete this conference: only its moderator and video platform admins can',
  },

  'ticket.create': { who: ['account'], refusal: 'create tickets without a platform account' },
  /** Giving a new ticket a group, or an agent other than oneself (subject: the group chosen). */
  'ticket.assign': {
    who: ['member', 'admin'],
    refusal:
      'give a ticket to that group or to another agent: only the group’s members and video platform admins can. Pick one of your groups, or yourself as agent',
  },
  /** Seeing a ticket: its card in a channel, `/ticket show`, Refresh, watching it. */
  'ticket.see': { who: ticketTeam, refusal: `see this ticket: ${onlyTicketTeam} see it` },
  'ticket.join': { who: ticketTeam, refusal: `join this ticket’s session: ${onlyTicketTeam} join as agent` },
  'ticket.move': { who: ticketTeam, refusal: `act on this ticket: ${onlyTicketTeam} act on it` },
  'ticket.edit': { who: ticketTeam, refusal: `edit this ticket: ${onlyTicketTeam} edit it` },
  'ticket.delete': { who: ticketTeam, refusal: `delete this ticket: ${onlyTicketTeam} delete it` },
  'ticket.export': { who: ticketTeam, refusal: `export this ticket: ${onlyTicketTeam} export it` },
  'ticket.timeline': { who: ticketTeam, refusal: `see this ticket’s timeline: ${onlyTicketTeam} see it` },
  /** A ticket's media: the list, one of them or all in one zip posted in its card's thread. */
  'ticket.media': { who: ticketTeam, refusal: `see this ticket’s media: ${onlyTicketTeam} see them` },
  'ticket.watch': {
    who: ticketTeam,
    refusal: `make this channel watch this ticket: ${onlyTicketTeam} do that`,
  },
  'ticket.list-mine': { who: ['account'], refusal: 'list tickets without a platform account' },
  /** Subject: the group listed. */
  'ticket.list-group': {
    who: ['member', 'admin'],
    refusal: 'list this group’s tickets: only its members and video platform admins can',
  },
  'ticket.list-all': {
    who: ['admin'],
    refusal: `list everyone’s tickets: that ${adminsOnly}. Try \`/ticket list\` (yours) or \`/ticket list group\` and one of your groups`,
  },
  /** A follow filter naming a group (subject: that group). */
  'ticket.follow-group': {
    who: ['member', 'admin'],
    refusal: 'follow this group’s tickets: only its members and video platform admins can',
  },
  /** A follow filter without a group: every ticket of the enterprise that matches. */
  'ticket.follow-all': {
    who: ['admin'],
    refusal: `follow every group’s tickets: that ${adminsOnly}. Add \`group:"…"\` with one of your groups`,
  },
  'subscription.list': { who: ['account'], refusal: 'list subscriptions without a platform account' },
  /**
   * `/ticket follow reactions`: a channel's emoji reactions act on tickets. Each reaction is then
   * checked against the reactor's own rights (🎫 `ticket.create`, 👀 and ✅ `ticket.move`).
   */
  'channel.reactions': {
    who: ['account'],
    refusal: 'turn on reactions in this channel without a platform account',
  },
  /** Subject: the subscription (its author is its owner). */
  'subscription.remove': {
    who: ['owner', 'admin'],
    refusal: 'remove this subscription: only the person who added it and video platform admins can',
  },

  'digest.set': { who: ['admin'], refusal: `set up the statistics digest: it ${adminsOnly}` },
  'digest.list': { who: ['admin'], refusal: `list the statistics digests: they are for admins; ask one` },
  'digest.remove': { who: ['admin'], refusal: `remove a statistics digest: it ${adminsOnly}` },
  'digest.preview': { who: ['admin'], refusal: `preview the statistics digest: it ${adminsOnly}` },

  /** `/conference admin doctor`: the doctor's report (configuration, Slack, platform, store). */
  'admin.doctor': { who: ['admin'], refusal: `see the doctor’s report: it ${adminsOnly}` },
  /** Another try for the ticket messages Slack refused for good (App Home, `npm run outbox`). */
  'outbox.requeue': { who: ['admin'], refusal: `requeue the messages Slack refused: that ${adminsOnly}` },

  // Pickers (the type-ahead directory) and identity links
  /** The type-ahead pickers: the enterprise's people and groups, for someone with an account. */
  'directory.search': {
    who: ['account'],
    refusal: 'search the video platform’s people without a platform account',
  },
  /** `/conference admin link|unlink`: which platform account a Slack person acts as. */
  'identity.link': { who: ['admin'], refusal: `link Slack people to platform accounts: it ${adminsOnly}` },
  // People and groups (platform admins), password reset (anyone for their own login).
  'people.list': { who: ['admin'], refusal: `list the platform’s users: that ${adminsOnly}` },
  'people.see': { who: ['admin'], refusal: `see a platform user’s details: that ${adminsOnly}` },
  'people.create': { who: ['admin'], refusal: `create platform users: that ${adminsOnly}` },
  'people.edit': { who: ['admin'], refusal: `edit platform users: that ${adminsOnly}` },
  'people.delete': { who: ['admin'], refusal: `delete platform users: that ${adminsOnly}` },
  'groups.list': {
    who: ['admin'],
    refusal: `list the platform’s groups and their members: that ${adminsOnly}`,
  },
  /** The reset e-mail for one's own login. */
  'password.reset-own': {
    who: ['account'],
    refusal: 'reset a video platform password without a platform account',
  },
  /** The reset e-mail for someone else's login. */
  'password.reset-any': {
    who: ['admin'],
    refusal: `send a password reset to someone else: that ${adminsOnly}. \`/conference password\` alone resets yours`,
  },

  /** App Home: everyone sees the help; the New conference button needs an account. */
  'home.view': { who: ['anyone'], refusal: 'see the home tab' },
  'home.new-conference': { who: ['account'], refusal: 'create conferences without a platform account' },
  /**
   * Turning one's own conference reminders off or choosing their lead time (App Home): anyone, since
   * participants are invited by e-mail and need no platform account; only one's own.
   */
  'reminders.set': { who: ['anyone'], refusal: 'change conference reminders' },

  // The media library (`/conference media`). Subject: the media (its owner and its group).
  'media.list': { who: ['account'], refusal: 'browse the media library without a platform account' },
  /** Listing someone else's media or everyone's (`user:<other>`, `user:all`). */
  'media.list-all': {
    who: ['admin'],
    refusal: `list other people’s media: that ${adminsOnly}. Try \`group:\` and one of your groups`,
  },
  'media.see': { who: mediaTeam, refusal: `see this media: ${onlyMediaTeam} see it` },
  'media.edit': { who: mediaTeam, refusal: `edit this media: ${onlyMediaTeam} edit it` },
  'media.delete': { who: mediaTeam, refusal: `delete this media: ${onlyMediaTeam} delete it` },
  'media.share': { who: mediaTeam, refusal: `share this media: ${onlyMediaTeam} share it` },
} as const satisfies Record<string, Rule>;

/** Every action a door can ask about. */
export type Action = keyof typeof policy;

/** The person asking, as the platform knows them; `account` is absent for someone without one. */
export interface Person {
  slackId: string;
  account?:
    | {
        id: string;
        role: string | undefined;
        email: string;
        groupIds: readonly string[];
      }
    | undefined;
}

/** What an action is about. */
export type Subject =
  | { kind: 'none' }
  | { kind: 'ticket'; agentId: string | undefined; groupId: string | undefined }
  | { kind: 'conference'; moderatorId: string | undefined; participants: readonly string[] }
  | { kind: 'group'; groupId: string | undefined }
  | { kind: 'moderator'; moderatorId: string }
  | { kind: 'subscription'; createdBy: string }
  /** A media item (owner and group ids as its record names them, when it does). */
  | { kind: 'media'; ownerId: string | undefined; groupId: string | undefined };

const none: Subject = { kind: 'none' };

/** Every standing the person has towards the subject. */
export function standingsOf(person: Person, subject: Subject = none): Set<Standing> {
  const out = new Set<Standing>(['anyone']);
  if (subject.kind === 'subscription' && subject.createdBy === person.slackId) out.add('owner');
  const a = person.account;
  if (!a) return out;
  out.add('account');
  if (a.role === 'admin') out.add('admin');
  const inGroup = (g: string | undefined) => g !== undefined && a.groupIds.includes(g);
  switch (subject.kind) {
    case 'ticket':
      if (subject.agentId !== undefined && subject.agentId === a.id) out.add('owner');
      if (inGroup(subject.groupId)) out.add('member');
      break;
    case 'conference': {
      if (subject.moderatorId !== undefined && subject.moderatorId === a.id) out.add('owner');
      const email = a.email.toLowerCase();
      if (subject.participants.some((p) => p.toLowerCase() === email)) out.add('participant');
      break;
    }
    case 'group':
      if (inGroup(subject.groupId)) out.add('member');
      break;
    case 'moderator':
      if (subject.moderatorId === a.id) out.add('owner');
      break;
    case 'media':
      if (subject.ownerId !== undefined && subject.ownerId === a.id) out.add('owner');
      if (inGroup(subject.groupId)) out.add('member');
      break;
  }
  return out;
}

/**
 * The decision for one action: allowed, or the sentence a person sees ("You cannot …", in English:
 * logs and tests) and its name in the catalogs (`policy.<refusal>`), which the services write in the
 * person's language.
 */
export type Decision =
  | { allowed: true }
  | {
      allowed: false;
      why: string;
      /** Its name in the catalogs; '' for a row of a workspace's own without one (`why` is then said). */
      refusal: string;
    };

export function decide(
  action: Action,
  person: Person,
  subject: Subject = none,
  rule: Rule = policy[action],
): Decision {
  const has = standingsOf(person, subject);
  if (rule.who.some((s) => has.has(s))) return { allowed: true };
  // A row in place of the table's, with a sentence of its own and no name: no catalog sentence ('').
  const refusal = rule.refusalKey ?? (rule.refusal === policy[action].refusal ? action : '');
  return { allowed: false, why: `You cannot ${rule.refusal}.`, refusal };
}
