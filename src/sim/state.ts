import { createHash, randomBytes } from 'node:crypto';
import type {
  SimConference,
  SimContent,
  SimEnterprise,
  SimEvent,
  SimExport,
  SimGroup,
  SimMedia,
  SimSession,
  SimTicket,
  SimUser,
} from './model.js';

/** What a change notifies (the webhook body's `event`, `object`, `objectId`, `props`). */
export type SimChange = {
  event: 'create' | 'update' | 'delete';
  object: 'ticket' | 'media' | 'conversationevent' | 'smsmessage';
  objectId: number | string;
  props: Record<string, unknown>;
};

/** A 1×1 PNG, so snapshots are real images. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Which timeline event a state change produces (platform-facts.md names; `rejected` has no published name). */
const stateEvents: Record<string, string> = {
  open: 'ticket.approved',
  invited: 'ticket.invitationSent',
  inprogress: 'ticket.sessionStarted',
  done: 'ticket.completed',
  closed: 'ticket.closed',
  cancelled: 'ticket.cancelled',
  declined: 'ticket.invitationDeclined',
  expired: 'ticket.invitationExpired',
  rejected: 'ticket.rejected',
};

export const SEED_PASSWORD = 'demo-password';
/** A valid 32-character service key for the demo enterprise. */
export const DEMO_SERVICE_KEY = 'd3m0s3rv1c3k3y000000000000000001';

/** The simulator's whole world, in memory, with the operations its routes and admin routes use. */
export class SimState {
  enterprises = new Map<number, SimEnterprise>();
  users = new Map<number, SimUser>();
  groups = new Map<number, SimGroup>();
  conferences = new Map<number, SimConference>();
  tickets = new Map<number, SimTicket>();
  medias = new Map<number, SimMedia>();
  exports = new Map<string, SimExport>();
  sessions: SimSession[] = [];
  sms: { enterpriseId: number; time: number }[] = [];
  passwordResets: { login: string; time: number }[] = [];
  private nextIds = { user: 100, group: 10, conference: 1000, ticket: 82000, media: 5000, event: 1 };

  constructor(
    readonly now: () => number,
    private readonly onChange: (change: SimChange) => void,
    readonly publicUrl: () => string,
  ) {}

  nextId(kind: keyof SimState['nextIds']): number {
    return this.nextIds[kind]++;
  }

  // ---------- users and enterprises ----------

  addUser(
    u: Omit<SimUser, 'id' | 'created' | 'deleted' | 'extra' | 'groups'> & { groups?: number[] },
  ): SimUser {
    const user: SimUser = {
      groups: [],
      ...u,
      id: this.nextId('user'),
      extra: {},
      created: this.now(),
      deleted: false,
    };
    this.users.set(user.id, user);
    return user;
  }

  liveUsers(enterpriseId: number): SimUser[] {
    return [...this.users.values()].filter((u) => u.enterpriseId === enterpriseId && !u.deleted);
  }

  findUser(enterpriseId: number, ref: string): SimUser | undefined {
    const users = this.liveUsers(enterpriseId);
    return /^\d+$/.test(ref)
      ? users.find((u) => u.id === Number(ref))
      : users.find((u) => u.username === ref);
  }

  // ---------- tickets ----------

  addEvent(
    ticket: SimTicket,
    eventName: string,
    source: SimEvent['source'],
    data: Record<string, unknown> = {},
  ) {
    const event: SimEvent = {
      id: `ev-${ticket.id}-${this.nextId('event')}`,
      eventName,
      timestamp: this.now(),
      source,
      data,
    };
    ticket.events.push(event);
    ticket.modified = event.timestamp;
    this.onChange({
      event: 'create',
      object: 'conversationevent',
      objectId: event.id,
      // What we assume the real platform sends (inferred; quirk `thinEventWebhooks` sends less).
      props: { ticketId: ticket.id, eventName, timestamp: event.timestamp, source, data },
    });
    return event;
  }

  agentInfo(ticket: SimTicket) {
    const agent = ticket.agentId === undefined ? undefined : this.users.get(ticket.agentId);
    return agent
      ? {
          email: agent.email ?? null,
          phone: agent.cellPhone ?? null,
          firstname: agent.firstName,
          lastname: agent.lastName,
        }
      : undefined;
  }

  /** Invitations go by e-mail and SMS; each phone number costs one SMS. */
  sendInvitations(ticket: SimTicket, resent = false) {
    for (const _ of ticket.requestor.phones)
      this.sms.push({ enterpriseId: ticket.enterpriseId, time: this.now() });
    this.addEvent(ticket, resent ? 'ticket.invitationResent' : 'ticket.invitationSent', 'system', {
      agent: this.agentInfo(ticket),
      channels: [
        ...(ticket.requestor.emails.length ? ['email'] : []),
        ...(ticket.requestor.phones.length ? ['sms'] : []),
      ],
    });
  }

  /** Moves a ticket to a state, with its timeline event and webhook. */
  setTicketState(ticket: SimTicket, state: string, source: SimEvent['source']) {
    if (ticket.state === state) return;
    const previous = ticket.state;
    ticket.state = state;
    if (state === 'inprogress') {
      ticket.startTime ??= this.now();
      this.sessions.push({
        enterpriseId: ticket.enterpriseId,
        ticketId: ticket.id,
        start: this.now(),
        end: undefined,
      });
    }
    if (['done', 'closed', 'cancelled', 'rejected', 'expired', 'declined'].includes(state)) {
      ticket.endTime = this.now();
      this.endSessions(ticket);
    }
    const name = stateEvents[state];
    if (name === 'ticket.invitationSent') this.sendInvitations(ticket);
    else if (name)
      this.addEvent(ticket, name, source, { agent: this.agentInfo(ticket), from: previous, to: state });
    this.changed(ticket, 'update');
  }

  assignAgent(ticket: SimTicket, agentId: number, source: SimEvent['source']) {
    if (ticket.agentId === agentId) return;
    ticket.agentId = agentId;
    this.addEvent(ticket, 'ticket.assigned', source, { agent: this.agentInfo(ticket) });
  }

  changed(ticket: SimTicket, event: 'create' | 'update' | 'delete') {
    ticket.modified = this.now();
    this.onChange({ event, object: 'ticket', objectId: ticket.id, props: { state: ticket.state } });
  }

  endSessions(ticket: SimTicket) {
    for (const s of this.sessions) if (s.ticketId === ticket.id && s.end === undefined) s.end = this.now();
  }

  /** The guest opens the link and joins: the events a real session start produces. */
  guestJoins(ticket: SimTicket) {
    this.addEvent(ticket, 'ticket.invitationClicked', 'guest');
    this.addEvent(ticket, 'consent.accepted', 'guest');
    this.addEvent(ticket, 'mediaDevice.allowed', 'guest', { camera: true, microphone: true });
    this.addEvent(ticket, 'session.established', 'system');
    this.addEvent(ticket, 'session.agentContacted', 'system', { agent: this.agentInfo(ticket) });
    this.setTicketState(ticket, 'inprogress', 'guest');
  }

  /** The guest leaves: the session ends (the agent still closes the ticket). */
  sessionEnds(ticket: SimTicket) {
    this.addEvent(ticket, 'session.userLeft', 'guest');
    this.addEvent(ticket, 'session.agentLeft', 'agent');
    this.endSessions(ticket);
    this.changed(ticket, 'update');
  }

  /** A snapshot taken during the session: a media and its event. */
  takePicture(ticket: SimTicket): SimMedia {
    const media = this.addMedia({
      enterpriseId: ticket.enterpriseId,
      userId: ticket.agentId ?? ticket.createdBy,
      type: 'snapshot',
      title: `Snapshot of ticket ${ticket.reference ?? ticket.id}`,
      format: 'image/png',
      ticketId: ticket.id,
      content: { kind: 'bytes', data: tinyPng },
    });
    this.addEvent(ticket, 'media.pictureTaken', 'agent', { mediaId: media.id });
    return media;
  }

  // ---------- media ----------

  addMedia(m: {
    enterpriseId: number;
    userId: number;
    type: SimMedia['type'];
    title: string;
    format: string;
    content: SimContent;
    ticketId?: number | undefined;
    conferenceId?: number | undefined;
    description?: string | undefined;
    tags?: string[] | undefined;
    /** Default: the ticket's group, else the owner's first group. */
    groupId?: number | undefined;
  }): SimMedia {
    const id = this.nextId('media');
    const ext = m.format.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin';
    const media: SimMedia = {
      id,
      enterpriseId: m.enterpriseId,
      userId: m.userId,
      type: m.type,
      status: 'completed',
      title: m.title,
      description: m.description ?? '',
      lat: undefined,
      lng: undefined,
      format: m.format,
      filename: `${m.type}-${id}.${ext}`,
      sourceType: m.ticketId ? 2 : m.conferenceId ? 1 : 0,
      conversationId: createHash('sha1')
        .update(`conv-${m.ticketId ?? m.conferenceId ?? id}`)
        .digest('hex')
        .slice(0, 32),
      ticketId: m.ticketId,
      conferenceId: m.conferenceId,
      groupId:
        m.groupId ??
        (m.ticketId !== undefined ? this.tickets.get(m.ticketId)?.groupId : undefined) ??
        this.users.get(m.userId)?.groups[0],
      tags: m.tags ?? [],
      created: this.now(),
      content: m.content,
    };
    this.medias.set(id, media);
    this.onChange({
      event: 'create',
      object: 'media',
      objectId: id,
      props: { type: media.type, ticketId: m.ticketId },
    });
    return media;
  }

  mediaSize(m: SimMedia): number {
    return m.content.kind === 'bytes' ? m.content.data.length : m.content.size;
  }

  // ---------- seed ----------

  /** Demo data: an enterprise with an admin and agents, two groups, tickets in several states, conferences, media. */
  seed(): { admin: SimUser; agents: SimUser[] } {
    const now = this.now();
    const hour = 3_600_000;
    this.enterprises.set(1, {
      id: 1,
      name: 'Acme Support',
      features: { conference: true },
      quotas: { users: 50, disk_mb: 10_240, sms: 1_000, sessions: 5_000 },
    });
    this.enterprises.set(2, {
      id: 2,
      name: 'Other Corp',
      features: { conference: false },
      quotas: { users: 5, disk_mb: 1_024, sms: 100, sessions: 100 },
    });
    const g1: SimGroup = { id: this.nextId('group'), enterpriseId: 1, name: 'Level 1' };
    const g2: SimGroup = { id: this.nextId('group'), enterpriseId: 1, name: 'Level 2' };
    for (const g of [g1, g2]) this.groups.set(g.id, g);
    const person = (
      username: string,
      first: string,
      last: string,
      role: 'admin' | 'agent',
      groups: number[],
    ) =>
      this.addUser({
        enterpriseId: 1,
        username,
        password: SEED_PASSWORD,
        email: `${username}@acme.example`,
        cellPhone: undefined,
        firstName: first,
        lastName: last,
        role,
        groups,
      });
    const admin = person('admin', 'Ada', 'Admin', 'admin', [g2.id]);
    const alice = person('alice', 'Alice', 'Martin', 'agent', [g1.id]);
    const bob = person('bob', 'Bob', 'Durand', 'agent', [g1.id]);
    const carol = person('carol', 'Carol', 'Petit', 'agent', [g2.id]);
    const outsider = this.addUser({
      enterpriseId: 2,
      username: 'oscar',
      password: SEED_PASSWORD,
      email: 'oscar@other.example',
      cellPhone: '+33600000002',
      firstName: 'Oscar',
      lastName: 'Other',
      role: 'admin',
      groups: [],
    });

    const mk = (
      ref: string,
      subject: string,
      agent: SimUser,
      group: SimGroup,
      requestor: { email?: string; phone?: string; name: string },
      hoursAgo: number,
    ) =>
      this.createTicket(agent, {
        reference: ref,
        subject,
        type: 'support',
        description: `Remote assistance: ${subject.toLowerCase()}.`,
        agentId: agent.id,
        groupId: group.id,
        emails: requestor.email ? [requestor.email] : [],
        phones: requestor.phone ? [requestor.phone] : [],
        name: requestor.name,
        startTime: now + hoursAgo * -hour,
        invite: false,
      });
    const t1 = mk(
      'ACME-1001',
      'Router does not boot',
      alice,
      g1,
      { email: 'jane.doe@example.com', name: 'Jane Doe' },
      2,
    );
    const t2 = mk('ACME-1002', 'Boiler error E42', bob, g1, { phone: '+33612345678', name: 'Paul Roux' }, 1);
    this.setTicketState(t2, 'open', 'agent');
    const t3 = mk(
      'ACME-1003',
      'Solar panel inspection',
      alice,
      g1,
      { email: 'li.wei@example.com', name: 'Li Wei' },
      -3,
    );
    this.sendInvitations(t3);
    t3.state = 'invited';
    const t4 = mk(
      'ACME-1004',
      'Washing machine leak',
      carol,
      g2,
      { email: 'sam.lee@example.com', name: 'Sam Lee' },
      5,
    );
    this.setTicketState(t4, 'invited', 'agent');
    this.guestJoins(t4);
    this.takePicture(t4);
    const t5 = mk('ACME-1005', 'Alarm keypad', carol, g2, { phone: '+14155550100', name: 'Ann Smith' }, 26);
    this.setTicketState(t5, 'invited', 'agent');
    this.guestJoins(t5);
    this.sessionEnds(t5);
    this.setTicketState(t5, 'done', 'agent');
    const t6 = mk(
      'ACME-1006',
      'Duplicate request',
      bob,
      g1,
      { email: 'jane.doe@example.com', name: 'Jane Doe' },
      30,
    );
    this.setTicketState(t6, 'cancelled', 'agent');
    this.createTicket(outsider, {
      reference: 'OTHER-1',
      subject: 'Other enterprise ticket',
      emails: ['x.y@other.example'],
      phones: [],
      invite: false,
    });

    for (const [i, c] of [
      { name: 'Weekly support sync', at: now + 24 * hour, mod: admin },
      { name: 'Onboarding Carol', at: now + 2 * hour, mod: carol },
      { name: 'Incident review', at: now - 20 * hour, mod: admin },
    ].entries()) {
      const conf = this.createConference(c.mod, {
        name: c.name,
        participants: ['alice@acme.example', 'bob@acme.example', '+33612345678'],
        startTime: c.at,
        duration: 45,
        invite: false,
      });
      if (i === 2) {
        this.addMedia({
          enterpriseId: 1,
          userId: admin.id,
          type: 'recording',
          title: 'Incident review recording',
          format: 'video/mp4',
          conferenceId: conf.id,
          content: { kind: 'generated', size: 3 * 1024 * 1024, seed: conf.id },
        });
        this.sessions.push({ enterpriseId: 1, ticketId: undefined, start: c.at, end: c.at + 40 * 60_000 });
      }
    }
    this.addMedia({
      enterpriseId: 1,
      userId: alice.id,
      type: 'document',
      title: 'Router manual',
      format: 'application/pdf',
      ticketId: t1.id,
      content: { kind: 'bytes', data: Buffer.from('%PDF-1.4\n% demo manual\n') },
    });
    this.seedHistory(now, [admin, alice, bob, carol]);
    return { admin, agents: [alice, bob, carol] };
  }

  createTicket(
    by: SimUser,
    // Every optional field may also come as `undefined`: the route passes each parameter, given or not.
    t: { [K in keyof Omit<SimTicket, 'requestor'>]?: SimTicket[K] | undefined } & {
      emails: string[];
      phones: string[];
      name?: string | undefined;
      firstName?: string | undefined;
      company?: string | undefined;
      gender?: string | undefined;
      country?: string | undefined;
      invite: boolean;
      initialState?: string | undefined;
    },
  ): SimTicket {
    const now = this.now();
    const ticket: SimTicket = {
      id: this.nextId('ticket'),
      enterpriseId: by.enterpriseId,
      state: 'new',
      type: t.type,
      subject: t.subject,
      reference: t.reference,
      description: t.description,
      agentId: undefined,
      groupId: t.groupId,
      language: t.language,
      startTime: t.startTime,
      endTime: undefined,
      duration: t.duration ?? 30,
      reminder: t.reminder,
      serviceKey: t.serviceKey ?? DEMO_SERVICE_KEY,
      scopes: t.scopes ?? [],
      agentTemplateId: t.agentTemplateId,
      requestorTemplateId: t.requestorTemplateId,
      inviteOrganizer: t.inviteOrganizer ?? true,
      requestor: {
        name: t.name,
        firstName: t.firstName,
        company: t.company,
        gender: t.gender,
        country: t.country,
        phones: t.phones,
        emails: t.emails,
      },
      createdBy: by.id,
      created: now,
      modified: now,
      deleted: undefined,
      events: [],
    };
    this.tickets.set(ticket.id, ticket);
    this.addEvent(ticket, 'ticket.new', 'system', { createdBy: by.username });
    this.changed(ticket, 'create');
    if (t.agentId !== undefined) this.assignAgent(ticket, t.agentId, 'system');
    if (t.initialState && t.initialState !== 'new') this.setTicketState(ticket, t.initialState, 'agent');
    if (t.invite && ticket.state !== 'invited') this.setTicketState(ticket, 'invited', 'system');
    else if (t.invite) this.sendInvitations(ticket, true);
    return ticket;
  }

  createConference(
    by: SimUser,
    c: Partial<SimConference> & { participants: string[]; startTime?: number; invite: boolean },
  ): SimConference {
    const now = this.now();
    const id = this.nextId('conference');
    const conf: SimConference = {
      id,
      enterpriseId: by.enterpriseId,
      name: c.name ?? `Conference-${new Date(now).toISOString().slice(0, 19).replace('T', ' ')} (GMT +00:00)`,
      roomName: `room-${randomBytes(5).toString('hex')}`,
      participants: c.participants,
      message: c.message,
      password: c.password,
      moderation: c.moderation ?? false,
      entryMode: c.entryMode,
      startTime: c.startTime ?? now,
      open: c.open ?? false,
      duration: c.duration ?? 60,
      reminder: c.reminder,
      templateId: c.templateId,
      language: c.language,
      invite: c.invite,
      moderatorId: c.moderatorId ?? by.id,
      createdBy: by.id,
      serviceKey: c.serviceKey ?? DEMO_SERVICE_KEY,
      scope: c.scope ?? [],
      created: now,
      modified: now,
    };
    this.conferences.set(id, conf);
    if (conf.invite)
      for (const p of conf.participants)
        if (p.startsWith('+')) this.sms.push({ enterpriseId: by.enterpriseId, time: now });
    return conf;
  }

  /** One random happening on a live ticket, so a poller has something to report. */
  randomActivity(rand: () => number = Math.random): string | undefined {
    const live = [...this.tickets.values()].filter(
      (t) => !t.deleted && t.enterpriseId === 1 && ['new', 'open', 'invited', 'inprogress'].includes(t.state),
    );
    const ticket = live[Math.floor(rand() * live.length)];
    if (!ticket) return undefined;
    switch (ticket.state) {
      case 'new':
        this.setTicketState(ticket, 'open', 'agent');
        return `ticket ${ticket.id} opened`;
      case 'open':
        this.setTicketState(ticket, 'invited', 'agent');
        return `ticket ${ticket.id}: invitation sent`;
      case 'invited':
        this.guestJoins(ticket);
        return `ticket ${ticket.id}: guest joined`;
      default:
        if (rand() < 0.5) {
          this.takePicture(ticket);
          return `ticket ${ticket.id}: picture taken`;
        }
        this.sessionEnds(ticket);
        this.setTicketState(ticket, 'done', 'agent');
        return `ticket ${ticket.id}: done`;
    }
  }

  // ---------- statistics and report ----------

  /**
   * Demo history, so that a statistics digest has something to show: the people joined three months
   * ago, and each of the last two weeks' days had a few sessions (one at weekends) and text messages.
   * Sessions without a ticket: the tickets report, which counts ticket sessions, is unchanged.
   */
  private seedHistory(now: number, people: SimUser[]): void {
    const day = 86_400_000;
    for (const u of people) u.created = now - 90 * day;
    const midnight = now - (now % day);
    for (let d = 1; d <= 14; d++) {
      const date = midnight - d * day;
      const weekend = [0, 6].includes(new Date(date).getUTCDay());
      const count = weekend ? 1 : 2 + ((d * 7) % 5);
      for (let i = 0; i < count; i++) {
        const start = date + (8 + i * 2) * 3_600_000;
        this.sessions.push({
          enterpriseId: 1,
          ticketId: undefined,
          start,
          end: start + (15 + (((d + i) * 11) % 40)) * 60_000,
        });
      }
      for (let i = 0; i < d % 4; i++) this.sms.push({ enterpriseId: 1, time: date + 9 * 3_600_000 + i });
    }
  }

  /**
   * Statistics of a day (UTC): user_count and disk_usage as at the end of the day; sms, sessions and
   * durations counted over the day.
   */
  statistics(enterpriseId: number, date: string) {
    const start = Date.parse(`${date}T00:00:00Z`);
    const end = start + 86_400_000;
    const users = [...this.users.values()].filter(
      (u) => u.enterpriseId === enterpriseId && u.created < end && !u.deleted,
    );
    const bytes = [...this.medias.values()]
      .filter((m) => m.enterpriseId === enterpriseId && m.created < end)
      .reduce((sum, m) => sum + this.mediaSize(m), 0);
    const day = this.sessions.filter(
      (s) => s.enterpriseId === enterpriseId && s.start >= start && s.start < end,
    );
    const seconds = day.reduce(
      (sum, s) => sum + Math.round(((s.end ?? Math.min(this.now(), end)) - s.start) / 1000),
      0,
    );
    return {
      date,
      enterprise_id: enterpriseId,
      user_count: users.length,
      disk_usage: Math.round((bytes / 1024 / 1024) * 100) / 100,
      sms_count: this.sms.filter((s) => s.enterpriseId === enterpriseId && s.time >= start && s.time < end)
        .length,
      session_count: day.length,
      session_duration: seconds,
      // Billing counts started minutes.
      session_billing_duration: day.reduce(
        (sum, s) => sum + Math.ceil(((s.end ?? Math.min(this.now(), end)) - s.start) / 60_000) * 60,
        0,
      ),
      quotas: this.enterprises.get(enterpriseId)?.quotas,
    };
  }
}
