import { md } from '../blocks/mrkdwn.js';
import type { TicketSummary } from '../blocks/ticket-card.js';
import type { TicketFormChoices, TicketFormValues } from '../blocks/ticket-form.js';
import { ticketPermission } from '../domain/permissions.js';
import { dayBound, type TicketQueryText } from '../domain/ticket-query.js';
import { findMove, movesFor, type TicketMove } from '../domain/ticket-workflow.js';
import type { CallOptions, PlatformClient } from '../platform/client.js';
import type { TicketRecord } from '../platform/schemas.js';
import { ConfdeskError, notAllowed } from './errors.js';
import type { IdentityService } from './identity.js';

const interactive: CallOptions = { priority: 'interactive' };

/** Tickets per page of `/ticket list`. */
export const ticketPageSize = 10;

function personLabel(p: TicketRecord['agent']): { id?: string; label: string } | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p === 'string' || typeof p === 'number') return { id: String(p), label: `user ${p}` };
  const full = [p.firstname, p.lastname].filter(Boolean).join(' ');
  const label = p.name || full || p.username || `user ${p.id}`;
  return { ...(p.id !== undefined ? { id: String(p.id) } : {}), label };
}

/** The card's view of a platform ticket record. */
export function summarizeTicket(r: TicketRecord, groupNames: Map<string, string> = new Map()): TicketSummary {
  const extra = r as Record<string, unknown>;
  const url = (v: unknown) => (typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined);
  const groupId = r.group_id === undefined ? undefined : String(r.group_id);
  return {
    id: String(r.id),
    reference: r.reference,
    subject: r.subject,
    description: r.description,
    state: r.state,
    type: r.type,
    requestor: {
      name: r.requestor?.name ?? undefined,
      emails: r.requestor?.email ?? [],
      phones: r.requestor?.phone ?? [],
    },
    agent: personLabel(r.agent),
    group: groupId === undefined ? undefined : { id: groupId, name: groupNames.get(groupId) },
    start: r.start_time,
    duration: r.duration,
    modified: r.modified,
    agentUrl: url(extra.agent_url),
    guestUrl: url(extra.guest_url),
  };
}

/** The fields the edit form may change (spec: ticket update). */
export interface TicketEdit {
  subject?: string | undefined;
  description?: string | undefined;
  reference?: string | undefined;
  state?: string | undefined;
  agent?: string | undefined;
  groupId?: string | undefined;
}

/** A ticket's fields as the edit form shows them and as an edit compares them. */
export function editableFields(t: TicketSummary): Record<keyof TicketEdit, string | undefined> {
  return {
    subject: t.subject,
    description: t.description,
    reference: t.reference,
    state: t.state,
    agent: t.agent?.id,
    groupId: t.group?.id,
  };
}

/** What a move did: the ticket before and after, as the platform has them. */
export interface MoveOutcome {
  move: TicketMove;
  before: TicketSummary;
  after: TicketSummary;
}

/**
 * The ticket use cases shared by the card buttons, the commands and (later) the poller: every card is
 * rebuilt from the platform's record, and every move is checked against the ticket's true state and
 * the person's rights before it is sent.
 */
export class TicketService {
  constructor(
    private readonly platform: PlatformClient,
    private readonly identity: IdentityService,
  ) {}

  private async groupNames(): Promise<Map<string, string>> {
    const me = await this.platform.getMe();
    const groups = await this.platform.listGroups({ enterpriseId: me.enterprise_id }, interactive);
    return new Map(groups.items.map((g) => [String(g.id), g.name ?? `group ${g.id}`]));
  }

  /** The groups and users the create form offers (the first 100 of each: Slack's limit for a select). */
  async formChoices(): Promise<TicketFormChoices> {
    const me = await this.platform.getMe();
    const groups = await this.groupNames();
    const users: TicketFormChoices['users'] = [];
    for await (const u of this.platform.paginate('listEnterpriseUsers', { enterpriseId: me.enterprise_id })) {
      const name = [u.first_name, u.last_name].filter(Boolean).join(' ') || u.username || `user ${u.id}`;
      users.push({ id: String(u.id), name: u.username ? `${name} (${u.username})` : name });
      if (users.length === 100) break;
    }
    return { groups: [...groups].map(([id, name]) => ({ id, name })), users };
  }

  /** The person's platform user id, to preselect them as agent; undefined without an account. */
  async agentFor(actorSlackId: string): Promise<string | undefined> {
    return this.identity.platformUser(actorSlackId).then(
      (u) => u.id,
      () => undefined,
    );
  }

  /** Creates a ticket; the agent defaults to the person creating it. */
  async create(actorSlackId: string, v: TicketFormValues): Promise<TicketSummary> {
    const agent = v.agent ?? (await this.identity.platformUser(actorSlackId)).id;
    const input = {
      name: v.name,
      phones: v.phones.length ? v.phones : undefined,
      emails: v.emails.length ? v.emails : undefined,
      language: v.language,
      type: v.type,
      subject: v.subject,
      reference: v.reference,
      description: v.description,
      groupId: v.groupId,
      agent,
      invite: v.invite,
      agentTemplateId: v.agentTemplateId,
      requestorTemplateId: v.requestorTemplateId,
      inviteOrganizer: v.inviteOrganizer,
      startTime: v.startTime,
      duration: v.duration,
      reminder: v.reminder,
      firstName: v.firstName,
      company: v.company,
      gender: v.gender,
      country: v.country,
      serviceKey: v.serviceKey,
      scopes: v.scopes.length ? v.scopes : undefined,
      state: v.state,
    };
    const created = await this.platform.createTicket(
      input as Parameters<PlatformClient['createTicket']>[0],
      interactive,
    );
    // The create answer may be partial: the card is built from the ticket as the platform now has it.
    return this.get(String(created.id));
  }

  /** The ticket, if the person may act on it; a `not_allowed` error saying why otherwise. */
  async forAction(actorSlackId: string, ticketId: string, verb: string): Promise<TicketSummary> {
    const [actor, ticket] = await Promise.all([this.identity.platformUser(actorSlackId), this.get(ticketId)]);
    const permission = ticketPermission(
      { id: actor.id, role: actor.role, groupIds: actor.groupIds },
      { agentId: ticket.agent?.id, groupId: ticket.group?.id },
    );
    if (!permission.allowed) throw notAllowed(`You cannot ${verb} this ticket: ${permission.why}.`);
    return ticket;
  }

  /** The ticket's timeline, oldest first. */
  async events(ticketId: string) {
    const page = await this.platform.listTicketEvents({ ticketId, limit: 100 }, interactive);
    return page.items;
  }

  /**
   * A partial update: only the fields whose value differs from the ticket as the platform has it
   * now are sent. Answers the ticket after the update and the names of the fields changed.
   */
  async edit(
    actorSlackId: string,
    ticketId: string,
    v: TicketEdit,
  ): Promise<{ after: TicketSummary; changed: string[] }> {
    const before = await this.forAction(actorSlackId, ticketId, 'edit');
    const current = editableFields(before);
    const changes = Object.fromEntries(
      (Object.keys(current) as (keyof TicketEdit)[])
        .filter((k) => v[k] !== undefined && v[k] !== current[k])
        .map((k) => [k, v[k]]),
    );
    const changed = Object.keys(changes);
    if (changed.length === 0) return { after: before, changed };
    await this.platform.updateTicket(
      { ticketId, ...changes } as Parameters<PlatformClient['updateTicket']>[0],
      interactive,
    );
    return { after: await this.get(ticketId), changed };
  }

  async remove(actorSlackId: string, ticketId: string): Promise<TicketSummary> {
    const ticket = await this.forAction(actorSlackId, ticketId, 'delete');
    await this.platform.deleteTicket({ ticketId }, interactive);
    return ticket;
  }

  /** One page of `/ticket list`: the person's tickets, everyone's, or a group's, with the spec's filters. */
  async list(actorSlackId: string, q: TicketQueryText, offset: number) {
    const [actor, profile] = await Promise.all([
      this.identity.platformUser(actorSlackId),
      this.identity.profile(actorSlackId),
    ]);
    const groups = await this.groupNames();
    const groupId = q.scope === 'group' ? await this.groupId(q.group ?? '') : undefined;
    // The bot's own platform account may see everything: the person's role decides what they see.
    const admin = actor.role === 'admin';
    if (q.scope === 'all' && !q.reference && !admin)
      throw notAllowed(
        'Everyone’s tickets are for video platform admins. Try `/ticket list` (yours) or `/ticket list group &lt;name&gt;`.',
      );
    if (q.scope === 'group' && !admin && !actor.groupIds.includes(groupId as string))
      throw notAllowed(
        md`Only the members of ${q.group ?? ''} and video platform admins can list its tickets.`.text,
      );
    const day = (d: string | undefined, end: boolean) => (d ? dayBound(d, profile.tz, end) : undefined);
    const page = await this.platform.listTickets(
      {
        offset,
        limit: ticketPageSize,
        user: q.scope === 'mine' || (q.reference && !admin) ? actor.id : 'all',
        ...(groupId ? { groupId } : {}),
        ...(q.reference ? { reference: q.reference } : {}),
        ...(q.search ? { search: q.search } : {}),
        ...(q.type ? { type: q.type } : {}),
        ...(q.requestorId ? { requestorId: q.requestorId } : {}),
        createdAfter: day(q.createdAfter, false),
        createdBefore: day(q.createdBefore, true),
        startedAfter: day(q.startedAfter, false),
        endedBefore: day(q.endedBefore, true),
      },
      interactive,
    );
    const items = page.items.map((r) => summarizeTicket(r, groups));
    const hasMore = page.nextOffset !== undefined || offset + page.items.length < (page.total ?? 0);
    return { items, total: page.total, hasMore };
  }

  /** A ticket's media (snapshots, documents, recordings), for those who may act on it. */
  async medias(actorSlackId: string, ticketId: string) {
    const ticket = await this.forAction(actorSlackId, ticketId, 'see the media of');
    const page = await this.platform.listTicketMedias({ ticketId, limit: 40 }, interactive);
    return { ticket, items: page.items, total: page.total };
  }

  /** Streams one media file (its size from the record when the download does not say). */
  async download(mediaId: string) {
    return this.platform.downloadMedia({ mediaId }, interactive);
  }

  /** Exports a ticket (format as the platform names it; with or without its timeline) and streams the file. */
  async export(actorSlackId: string, ticketId: string, format: string, timeline: boolean) {
    const ticket = await this.forAction(actorSlackId, ticketId, 'export');
    const resource = await this.platform.exportTicket({ ticketId, format, timeline }, interactive);
    const file = resource.url
      ? await this.platform.downloadUrl(resource.url, interactive)
      : await this.platform.downloadExport({ exportId: String(resource.id) }, interactive);
    return { ticket, file };
  }

  /** A user group's id by its name (case-insensitive), or a `unknown_group` error listing the groups. */
  async groupId(name: string): Promise<string> {
    const groups = await this.groupNames();
    const found = [...groups].find(([, n]) => n.toLowerCase() === name.toLowerCase())?.[0];
    if (!found)
      throw new ConfdeskError(
        'unknown_group',
        md`No group is named “${name}”. Groups: ${[...groups.values()].join(', ') || 'none'}.`.text,
      );
    return found;
  }

  /** A ticket's card for background work: from a record in hand, or read on the budget's low lane. */
  async summary(ticket: string | TicketRecord): Promise<TicketSummary> {
    const record =
      typeof ticket === 'string'
        ? await this.platform.getTicket({ ticketId: ticket }, { priority: 'background' })
        : ticket;
    return summarizeTicket(record, await this.groupNames());
  }

  /** A ticket by id, or by its reference. */
  async get(ref: string): Promise<TicketSummary> {
    return summarizeTicket(await this.record(ref), await this.groupNames());
  }

  private async record(ref: string): Promise<TicketRecord> {
    if (/^\d+$/.test(ref)) return this.platform.getTicket({ ticketId: ref }, interactive);
    const page = await this.platform.listTickets({ reference: ref, limit: 2, user: 'all' }, interactive);
    const found = page.items[0];
    if (!found) throw new ConfdeskError('ticket_not_found', md`No ticket has the reference “${ref}”.`.text);
    return found;
  }

  /**
   * Applies a move from a card. Refused (with the reason) when the person may not act on the ticket,
   * or when the ticket's true state no longer offers the move (it changed elsewhere).
   */
  async move(actorSlackId: string, ticketId: string, moveId: string): Promise<MoveOutcome> {
    const move = findMove(moveId);
    if (!move)
      throw new ConfdeskError('unknown_move', 'This button is out of date: press Refresh on the card.');
    const [actor, record] = await Promise.all([
      this.identity.platformUser(actorSlackId),
      this.platform.getTicket({ ticketId }, interactive),
    ]);
    const groups = await this.groupNames();
    const before = summarizeTicket(record, groups);
    const permission = ticketPermission(
      { id: actor.id, role: actor.role, groupIds: actor.groupIds },
      { agentId: before.agent?.id, groupId: before.group?.id },
    );
    if (!permission.allowed)
      throw notAllowed(`You cannot ${move.label.toLowerCase()} this ticket: ${permission.why}.`);
    if (!movesFor(before.state).some((m) => m.id === move.id))
      throw new ConfdeskError(
        'move_not_offered',
        md`This ticket is now *${before.state ?? 'in an unknown state'}*, where “${move.label}” is not possible. The card shows its current state.`
          .text,
      );
    await this.platform.updateTicket(
      move.to ? { ticketId, state: move.to } : { ticketId, agent: actor.id },
      interactive,
    );
    const after = summarizeTicket(await this.platform.getTicket({ ticketId }, interactive), groups);
    return { move, before, after };
  }
}
