import type { SimConference, SimMedia, SimTicket, SimUser } from './model.js';
import type { SimQuirks } from './quirks.js';
import type { SimState } from './state.js';

/** The quirks that change how records are written. */
type ShapeQuirks = Pick<SimQuirks, 'emptyObjectsAsArrays' | 'unknownJoinLinkNames'>;

/** Timestamps as the real service writes them: with an offset, not `Z` (platform-facts.md). */
export const iso = (ms: number | undefined) =>
  ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

export function presentUser(u: SimUser) {
  return {
    id: u.id,
    username: u.username,
    email: u.email ?? null,
    cell_phone: u.cellPhone ?? null,
    first_name: u.firstName,
    last_name: u.lastName,
    role: u.role,
    enterprise_id: u.enterpriseId,
    groups: u.groups,
    ...u.extra,
  };
}

export function presentConference(
  c: SimConference,
  state: SimState,
  scopes: string[] = [],
  quirks?: ShapeQuirks,
) {
  const wire = conferenceWire(c, state, scopes);
  if (!quirks?.unknownJoinLinkNames) return wire;
  // The join link under a name confdesk does not try first.
  const { url, ...rest } = wire;
  return { ...rest, joinLink: url };
}

function conferenceWire(c: SimConference, state: SimState, scopes: string[]) {
  const moderator = state.users.get(c.moderatorId);
  const creator = state.users.get(c.createdBy);
  const now = state.now();
  const end = c.startTime + c.duration * 60_000;
  return {
    id: c.id,
    name: c.name,
    room_name: c.roomName,
    service_key: c.serviceKey,
    url: `${state.publicUrl()}/join/${c.roomName}`,
    status: now < c.startTime ? 'planned' : now < end || c.open ? 'ongoing' : 'ended',
    start_time: iso(c.startTime),
    duration: c.duration,
    message: c.message ?? null,
    has_password: c.password !== undefined,
    moderation: c.moderation,
    entry_mode: c.entryMode ?? null,
    open: c.open,
    reminder: c.reminder ?? null,
    template_id: c.templateId ?? null,
    language: c.language ?? null,
    participants: c.participants,
    moderator: moderator
      ? { id: moderator.id, username: moderator.username, name: fullName(moderator) }
      : c.moderatorId,
    created_by: creator ? { id: creator.id, name: fullName(creator) } : null,
    created: iso(c.created),
    modified: iso(c.modified),
    ...(scopes.includes('media')
      ? { medias: [...state.medias.values()].filter((m) => m.conferenceId === c.id).map((m) => m.id) }
      : {}),
  };
}

const fullName = (u: SimUser) => `${u.firstName} ${u.lastName}`.trim();

export function presentTicket(t: SimTicket, state: SimState, quirks?: ShapeQuirks) {
  const wire: Record<string, unknown> = ticketWire(t, state);
  if (quirks?.unknownJoinLinkNames) {
    const { agent_url, guest_url, ...rest } = wire;
    return phpTicket({ ...rest, links: { agent: agent_url, guest: guest_url } }, quirks);
  }
  return phpTicket(wire, quirks);
}

/** As a PHP backend writes a ticket: no agent and an empty requestor are empty objects (then `[]`). */
function phpTicket(wire: Record<string, unknown>, quirks: ShapeQuirks | undefined) {
  if (!quirks?.emptyObjectsAsArrays) return wire;
  const requestor = Object.fromEntries(
    Object.entries(wire.requestor as Record<string, unknown>).filter(
      ([, v]) => v !== null && !(Array.isArray(v) && v.length === 0),
    ),
  );
  return { ...wire, agent: wire.agent ?? {}, requestor };
}

function ticketWire(t: SimTicket, state: SimState) {
  const agent = t.agentId === undefined ? undefined : state.users.get(t.agentId);
  const base = state.publicUrl();
  // A single phone is sent as a string, several as an array: both occur in the wild (platform-facts.md).
  const phone = t.requestor.phones.length === 1 ? t.requestor.phones[0] : t.requestor.phones;
  return {
    id: t.id,
    state: t.state,
    type: t.type ?? null,
    subject: t.subject ?? null,
    reference: t.reference ?? null,
    description: t.description ?? null,
    language: t.language ?? null,
    created: iso(t.created),
    modified: iso(t.modified),
    start_time: iso(t.startTime),
    end_time: iso(t.endTime),
    duration: t.duration,
    reminder: t.reminder ?? null,
    group_id: t.groupId ?? null,
    service_key: t.serviceKey,
    agent: agent
      ? {
          id: agent.id,
          username: agent.username,
          email: agent.email ?? null,
          phone: agent.cellPhone ?? null,
          firstname: agent.firstName,
          lastname: agent.lastName,
        }
      : null,
    requestor: {
      name: t.requestor.name ?? null,
      first_name: t.requestor.firstName ?? null,
      company: t.requestor.company ?? null,
      gender: t.requestor.gender ?? null,
      country: t.requestor.country ?? null,
      phone,
      email: t.requestor.emails,
    },
    agent_url: `${base}/assist/${t.id}/agent`,
    guest_url: `${base}/assist/${t.id}/guest`,
    ...(t.deleted ? { deleted: iso(t.deleted) } : {}),
  };
}

export function presentMedia(m: SimMedia, state: SimState) {
  return {
    id: m.id,
    type: m.type,
    status: m.status,
    title: m.title,
    description: m.description,
    lat: m.lat ?? null,
    lng: m.lng ?? null,
    format: m.format,
    filename: m.filename,
    size: state.mediaSize(m),
    source_type: m.sourceType,
    conversation_id: m.conversationId,
    ticket_id: m.ticketId ?? null,
    conference_id: m.conferenceId ?? null,
    user_id: m.userId,
    group_id: m.groupId ?? null,
    tags: m.tags,
    created: iso(m.created),
  };
}

/** The legacy list envelope `{data,total,next_offset}` (platform-facts.md). */
export function envelope<T>(all: T[], offset: number, limit: number) {
  const data = all.slice(offset, offset + limit);
  const next = offset + data.length;
  return { data, total: all.length, next_offset: next < all.length ? next : null };
}

/** A PHP backend's JSON: every empty object (associative array) is written as `[]`. */
export function emptyObjectsAsArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(emptyObjectsAsArrays);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [];
  return Object.fromEntries(entries.map(([k, v]) => [k, emptyObjectsAsArrays(v)]));
}
