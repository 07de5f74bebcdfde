import { phrase } from '../blocks/text.js';
import { type MediaItem, mediaItemOf, pastUploadLimit } from '../domain/media.js';
import type { Action, Subject } from '../domain/policy.js';
import {
  editableFields,
  summarizeTicket,
  type TicketEdit,
  type TicketFormChoices,
  type TicketFormValues,
  type TicketSummary,
} from '../domain/ticket.js';
import { dayBound, type TicketQueryText } from '../domain/ticket-query.js';
import { findMove, isActiveState, movesFor, type TicketMove } from '../domain/ticket-workflow.js';
import type { WorkspaceDefaults } from '../domain/workspace-settings.js';
import type { Download, PlatformClient } from '../platform/client.js';
import { endpoints } from '../platform/endpoints.js';
import { PlatformHttpError } from '../platform/errors.js';
import { ticketJoinLinks } from '../platform/join-links.js';
import { currentLane, runInLane } from '../platform/lane.js';
import type { TicketRecord } from '../platform/schemas.js';
import { slackErrorCode } from '../util/slack-errors.js';
import { discard } from '../util/streams.js';
import type { AccessService } from './access.js';
import type { Directory } from './directory.js';
import { ConfdeskError } from './errors.js';
import { notKept, type SentField, shownAsSent, wireNames } from './fields-not-kept.js';
import type { IdentityService } from './identity.js';

/**
 * The name the platform gives a ticket's media archive (it adds `.zip`): the reference, else the id,
 * in letters, digits, `-` and `_` only (the name is the platform's query parameter and Slack's file
 * name; a reference is anyone's text).
 */
export function archiveName(t: Pick<TicketSummary, 'id' | 'reference'>): string {
  const base = (t.reference ?? '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 80);
  return `${base || `ticket-${t.id}`}-media`;
}

/** Tickets per page of `/ticket list`. */
export const ticketPageSize = 10;

/**
 * The create parameters a ticket record can show back (platform-api.md, ticket record), to tell
 * which ones the platform kept. Left out: what the record never shows (templates, invite, scopes),
 * the state (the platform moves it itself) and e-mails and phones (it rewrites their format).
 */
function ticketFieldsSent(input: Record<string, unknown>): SentField[] {
  const f = (param: string, label: string, at: string[], compare: SentField['compare']): SentField => ({
    param,
    label,
    sent: input[param],
    at,
    compare,
  });
  return [
    f('groupId', 'group', ['group_id'], 'id'),
    f('agent', 'agent', ['agent'], 'person'),
    f('reference', 'reference', ['reference'], 'id'),
    f('type', 'type', ['type'], 'code'),
    f('subject', 'subject', ['subject'], 'text'),
    f('description', 'description', ['description'], 'text'),
    f('language', 'language', ['language'], 'code'),
    f('startTime', 'start time', ['start_time'], 'time'),
    f('duration', 'duration', ['duration'], 'number'),
    f('reminder', 'reminder', ['reminder'], 'number'),
    f('name', 'requestor name', ['requestor', 'name'], 'text'),
    f('firstName', 'requestor first name', ['requestor', 'first_name'], 'text'),
    f('company', 'company', ['requestor', 'company'], 'text'),
    f('gender', 'gender', ['requestor', 'gender'], 'code'),
    f('country', 'country', ['requestor', 'country'], 'code'),
  ];
}

/** A ticket as the policy sees it. */
export const ticketSubject = (t: TicketSummary): Subject => ({
  kind: 'ticket',
  agentId: t.agent?.id,
  groupId: t.group?.id,
});

/** What a move did: the ticket before and after, as the platform has them. */
export interface MoveOutcome {
  move: TicketMove;
  before: TicketSummary;
  after: TicketSummary;
  /** The platform's record after the move (the cards' known version: a webhook's older news is ignored). */
  record: TicketRecord;
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
    private readonly access: AccessService,
    /** The people and groups the type-ahead menus search (their labels prefill the forms). */
    private readonly directory?: Directory,
    /** The workspace's defaults for what the form leaves empty (distribution mode). */
    private readonly defaults: WorkspaceDefaults = {},
  ) {}

  /** The card's view of a record, its join links read by the platform's reader (which records where it found them). */
  private summarize(r: TicketRecord, groups: Map<string, string>): TicketSummary {
    return summarizeTicket(r, groups, ticketJoinLinks(r, this.platform.findings));
  }

  /**
   * The enterprise's group names (a card's labels): the directory's when it has been loaded (kept
   * fresh by its own job, so a card costs no request), else the client's cached list. A person's card
   * never waits for them nor spends the people's reserve on them (issue 38): unread, they are read
   * now only when the budget has room beyond the reserve; otherwise the card shows the group's number
   * this once while the list is read behind, in the backfill lane, for the next cards.
   */
  private async groupNames(): Promise<Map<string, string>> {
    const known = this.directory?.snapshot();
    if (known?.groupById.size) return new Map([...known.groupById].map(([id, g]) => [id, g.label]));
    const me = this.platform.peek('getMe', {});
    const cached = me && this.platform.peek('listGroups', { enterpriseId: me.enterprise_id });
    if (cached) return namesOf(cached.items);
    const read = async () => {
      const m = await this.platform.getMe();
      return namesOf((await this.platform.listGroups({ enterpriseId: m.enterprise_id })).items);
    };
    const { budget } = this.platform;
    if (currentLane() !== 'interactive' || budget.free > budget.reserve) return read();
    void runInLane('backfill', read).catch(() => undefined);
    return new Map();
  }

  /**
   * The labels of the group and agent a form is prefilled with, from the directory (the menus are
   * type-ahead: the options handler serves the rest). Refuses a person without a platform account
   * before the form opens.
   */
  async formChoices(
    actorSlackId: string,
    picked: { agent?: string | undefined; groupId?: string | undefined } = {},
  ): Promise<TicketFormChoices> {
    await this.access.require(actorSlackId, 'ticket.create');
    // A first load waits a little (the form opens behind a working view); a later one never does.
    await this.directory?.within(1_500);
    const users: TicketFormChoices['users'] = [];
    const groups: TicketFormChoices['groups'] = [];
    const agent = picked.agent && this.directory?.user(picked.agent);
    if (agent) users.push({ id: agent.id, name: agent.label });
    if (picked.groupId) {
      const name =
        this.directory?.group(picked.groupId)?.label ?? (await this.groupNames()).get(picked.groupId);
      if (name) groups.push({ id: picked.groupId, name });
    }
    return { groups, users };
  }

  /** The person's platform user id, to preselect them as agent; undefined without an account. */
  async agentFor(actorSlackId: string): Promise<string | undefined> {
    return this.identity.platformUser(actorSlackId).then(
      (u) => u.id,
      () => undefined,
    );
  }

  /**
   * Creates a ticket; the agent defaults to the person creating it. Giving it a group or another agent
   * needs the policy's `ticket.assign` on that group.
   */
  async create(actorSlackId: string, v: TicketFormValues): Promise<TicketSummary & { notKept: string[] }> {
    const asker = await this.access.asker(actorSlackId);
    this.access.check(asker, 'ticket.create');
    const agent = v.agent ?? asker.account?.id;
    if (v.groupId !== undefined || agent !== asker.account?.id)
      this.access.check(asker, 'ticket.assign', { kind: 'group', groupId: v.groupId });
    const input = {
      name: v.name,
      phones: v.phones.length ? v.phones : undefined,
      emails: v.emails.length ? v.emails : undefined,
      language: v.language ?? this.defaults.language,
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
      serviceKey: v.serviceKey ?? this.defaults.serviceKey,
      scopes: v.scopes.length ? v.scopes : undefined,
      state: v.state,
    };
    const created = await this.platform.createTicket(input as Parameters<PlatformClient['createTicket']>[0]);
    // The create answer may be partial: unless it shows the ticket with its state and every field
    // sent, as sent, the card is built from the ticket as the platform now has it (one more request),
    // and what it shows is compared with what was sent (a guessed parameter may have been ignored).
    const sent = ticketFieldsSent(input);
    const record =
      created.state !== undefined && created.state !== null && shownAsSent(created, sent)
        ? created
        : { ...created, ...(await this.platform.getTicket({ ticketId: String(created.id) })) };
    const dropped = notKept(record, sent);
    this.platform.findings.dropped('createTicket', wireNames(dropped, endpoints.createTicket.wire));
    return {
      ...summarizeTicket(record, await this.groupNames(), ticketJoinLinks(record)),
      notKept: dropped.map((f) => f.label),
    };
  }

  /**
   * The ticket (by id or reference), if the person may do `action` to it; the policy's refusal
   * otherwise. Nobody without an account gets past the first check, so nothing is read for them.
   */
  async forAction(actorSlackId: string, ref: string, action: Action): Promise<TicketSummary> {
    return (await this.access.about(actorSlackId, action, () => this.get(ref), ticketSubject)).object;
  }

  /** The ticket's timeline, oldest first, for those who may see it. */
  async timeline(actorSlackId: string, ref: string) {
    const ticket = await this.forAction(actorSlackId, ref, 'ticket.timeline');
    const page = await this.platform.listTicketEvents({ ticketId: ticket.id, limit: 100 });
    return { ticket, events: page.items };
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
    const { asker, object: before } = await this.access.about(
      actorSlackId,
      'ticket.edit',
      () => this.get(ticketId),
      ticketSubject,
    );
    const current = editableFields(before);
    const changes = Object.fromEntries(
      (Object.keys(current) as (keyof TicketEdit)[])
        .filter((k) => v[k] !== undefined && v[k] !== current[k])
        .map((k) => [k, v[k]]),
    );
    const changed = Object.keys(changes);
    if (changed.length === 0) return { after: before, changed };
    // Handing the ticket to another group or agent: as when creating one.
    if (changes.groupId !== undefined || (changes.agent !== undefined && changes.agent !== asker.account?.id))
      this.access.check(asker, 'ticket.assign', { kind: 'group', groupId: v.groupId ?? before.group?.id });
    await this.platform.updateTicket({ ticketId, ...changes } as Parameters<
      PlatformClient['updateTicket']
    >[0]);
    return { after: await this.get(ticketId), changed };
  }

  async remove(actorSlackId: string, ticketId: string): Promise<TicketSummary> {
    const ticket = await this.forAction(actorSlackId, ticketId, 'ticket.delete');
    await this.platform.deleteTicket({ ticketId });
    return ticket;
  }

  /** One page of `/ticket list`: the person's tickets, everyone's, or a group's, with the spec's filters. */
  async list(actorSlackId: string, q: TicketQueryText, offset: number) {
    // The bot's own platform account may see everything: the person's rights decide what they see.
    const asker = await this.access.asker(actorSlackId);
    this.access.check(asker, 'ticket.list-mine');
    if (q.scope === 'all' && !q.reference) this.access.check(asker, 'ticket.list-all');
    const groupId = q.scope === 'group' ? await this.groupId(q.group ?? '') : undefined;
    if (q.scope === 'group') this.access.check(asker, 'ticket.list-group', { kind: 'group', groupId });
    const actor = asker.account as NonNullable<typeof asker.account>;
    const admin = actor.role === 'admin';
    const [profile, groups] = await Promise.all([this.identity.profile(actorSlackId), this.groupNames()]);
    const day = (d: string | undefined, end: boolean) => (d ? dayBound(d, profile.tz, end) : undefined);
    const page = await this.platform.listTickets({
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
    });
    const items = page.items.map((r) => this.summarize(r, groups));
    const hasMore = page.nextOffset !== undefined || offset + page.items.length < (page.total ?? 0);
    return { items, total: page.total, hasMore };
  }

  /**
   * The person's tickets that still need someone (App Home): one list request of their latest
   * `limit`, the finished ones left out. `total` is the platform's count of all their tickets.
   */
  async openOf(actorSlackId: string, limit: number) {
    const actor = await this.access.require(actorSlackId, 'ticket.list-mine');
    const [page, groups] = await Promise.all([
      this.platform.listTickets({ offset: 0, limit, user: actor.id }),
      this.groupNames(),
    ]);
    const items = page.items.map((r) => this.summarize(r, groups)).filter((t) => isActiveState(t.state));
    return { items, more: page.nextOffset !== undefined || page.items.length < (page.total ?? 0) };
  }

  /** A ticket's media (snapshots, documents, recordings), for those who may act on it. */
  async medias(actorSlackId: string, ticketId: string) {
    const ticket = await this.forAction(actorSlackId, ticketId, 'ticket.media');
    const page = await this.platform.listTicketMedias({ ticketId: ticket.id, limit: 40 });
    return { ticket, items: page.items, total: page.total };
  }

  /**
   * One media of a ticket, for those who may see its media: the media must be one of that ticket's (a
   * button's value names both, and is not trusted). Sharing it is the media library's
   * (`MediaService.sourceOf`), so the card and the library stream files the same way.
   */
  async mediaOf(actorSlackId: string, ticketId: string, mediaId: string): Promise<MediaItem> {
    const { items } = await this.medias(actorSlackId, ticketId);
    const media = items.find((m) => String(m.id) === mediaId);
    if (!media) throw new ConfdeskError('stale_button', phrase('ticketService.mediaGone'));
    return mediaItemOf(media);
  }

  /**
   * Every media of a ticket in one archive (the platform's `downloadTicketMedias`, a zip), for those
   * who may see the ticket's media: its download, still unread, or past `maxBytes` by its
   * Content-Length the size instead (the download released, nothing sent on). A ticket without
   * media is said in a sentence.
   */
  async allMedia(
    actorSlackId: string,
    ticketId: string,
    maxBytes: number,
  ): Promise<
    | { kind: 'file'; ticket: TicketSummary; file: Download; filename: string }
    | { kind: 'too-big'; ticket: TicketSummary; size: number }
  > {
    const ticket = await this.forAction(actorSlackId, ticketId, 'ticket.media');
    const filename = archiveName(ticket);
    let file: Download;
    try {
      file = await this.platform.downloadTicketMedias({ ticketId: ticket.id, filename });
    } catch (error) {
      if (error instanceof PlatformHttpError && error.status === 404)
        throw new ConfdeskError('no_ticket_media', phrase('ticketService.noMedia'));
      throw error;
    }
    if (pastUploadLimit(file.contentLength, maxBytes)) {
      discard(file.body);
      return { kind: 'too-big', ticket, size: file.contentLength as number };
    }
    return { kind: 'file', ticket, file, filename: `${filename}.zip` };
  }

  /** Exports a ticket (format as the platform names it; with or without its timeline) and streams the file. */
  async export(actorSlackId: string, ticketId: string, format: string, timeline: boolean) {
    const ticket = await this.forAction(actorSlackId, ticketId, 'ticket.export');
    const resource = await this.platform.exportTicket({ ticketId: ticket.id, format, timeline });
    const file = resource.url
      ? await this.platform.downloadUrl(resource.url)
      : await this.platform.downloadExport({ exportId: String(resource.id) });
    return { ticket, file };
  }

  /** A user group's id by its name (case-insensitive), or a `unknown_group` error listing the groups. */
  async groupId(name: string): Promise<string> {
    const groups = await this.groupNames();
    const found = [...groups].find(([, n]) => n.toLowerCase() === name.toLowerCase())?.[0];
    if (!found) {
      const all = [...groups.values()].join(', ');
      throw new ConfdeskError(
        'unknown_group',
        all
          ? phrase('ticketService.noGroup', { name, groups: all })
          : phrase('ticketService.noGroupAtAll', { name }),
      );
    }
    return found;
  }

  /**
   * Whether a person may see a ticket, for background work that posts on their behalf (what their
   * subscriptions deliver); their account is cached, so this rarely costs a request.
   */
  async maySee(slackId: string, record: TicketRecord): Promise<boolean> {
    const asker = await this.access.asker(slackId).catch((error: unknown) => {
      // A person Slack no longer knows (deactivated, gone) may see nothing; other failures are thrown.
      const code = slackErrorCode(error);
      if (code === 'user_not_found' || code === 'user_not_visible') return { slackId };
      throw error;
    });
    return this.access.may(asker, 'ticket.see', ticketSubject(summarizeTicket(record)));
  }

  /**
   * A ticket's card for background work (no rights check: the job checked whom it posts for): from a
   * record in hand, or read in the caller's lane (a job's is the background one, see `runInLane`).
   */
  async summary(ticket: string | TicketRecord): Promise<TicketSummary> {
    const record = typeof ticket === 'string' ? await this.platform.getTicket({ ticketId: ticket }) : ticket;
    return this.summarize(record, await this.groupNames());
  }

  /** A ticket by id, or by its reference. */
  async get(ref: string): Promise<TicketSummary> {
    return this.summarize(await this.record(ref), await this.groupNames());
  }

  private async record(ref: string): Promise<TicketRecord> {
    if (/^\d+$/.test(ref)) return this.platform.getTicket({ ticketId: ref });
    const page = await this.platform.listTickets({ reference: ref, limit: 2, user: 'all' });
    const found = page.items[0];
    if (!found) throw new ConfdeskError('ticket_not_found', phrase('ticketService.refNotFound', { ref }));
    return found;
  }

  /**
   * Applies a move from a card. Refused (with the reason) when the person may not act on the ticket,
   * or when the ticket's true state no longer offers the move (it changed elsewhere).
   */
  async move(actorSlackId: string, ticketId: string, moveId: string): Promise<MoveOutcome> {
    const tried = await this.tryMove(actorSlackId, ticketId, moveId);
    if (tried.kind === 'moved') return tried.outcome;
    const { ticket, move } = tried;
    throw new ConfdeskError(
      'move_not_offered',
      ticket.state === undefined
        ? phrase('ticketService.moveImpossibleUnknown', { move: move.label })
        : phrase('ticketService.moveImpossible', { state: ticket.state, move: move.label }),
    );
  }

  /**
   * A move a reaction asks for (`slack/events/reaction-added.ts`), checked as a click's: the outcome;
   * or, changing nothing, the ticket as it is when its state does not offer the move (the reactor is
   * told which moves it offers), or when the person taking it is its agent already.
   */
  async tryMove(
    actorSlackId: string,
    ticketId: string,
    moveId: string,
  ): Promise<
    | { kind: 'moved'; outcome: MoveOutcome }
    | { kind: 'not-offered' | 'already-agent'; ticket: TicketSummary; move: TicketMove }
  > {
    const move = findMove(moveId);
    if (!move) throw new ConfdeskError('unknown_move', phrase('ticketService.staleButton'));
    const { account: actor, object: before } = await this.access.about(
      actorSlackId,
      'ticket.move',
      () => this.get(ticketId),
      ticketSubject,
    );
    if (!movesFor(before.state).some((m) => m.id === move.id))
      return { kind: 'not-offered', ticket: before, move };
    if (moveId === 'assign' && before.agent?.id !== undefined && before.agent.id === actor.id)
      return { kind: 'already-agent', ticket: before, move };
    await this.platform.updateTicket(move.to ? { ticketId, state: move.to } : { ticketId, agent: actor.id });
    const record = await this.record(ticketId);
    return {
      kind: 'moved',
      outcome: { move, before, after: this.summarize(record, await this.groupNames()), record },
    };
  }
}

/** Group names by id, as a card shows them. */
const namesOf = (groups: readonly { id: number | string; name?: string | null | undefined }[]) =>
  new Map(groups.map((g) => [String(g.id), g.name ?? `group ${g.id}`]));
