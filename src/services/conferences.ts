import { joinMd, mention } from '../blocks/mrkdwn.js';
import { phrase } from '../blocks/text.js';
import {
  type ConferenceFormValues,
  type ConferenceSummary,
  formValuesOf,
  type ListQuery,
  listPageSize,
  type MediaSummary,
  summarize,
} from '../domain/conference.js';
import { mediaItemOf } from '../domain/media.js';
import type { Action, Subject } from '../domain/policy.js';
import type { WorkspaceDefaults } from '../domain/workspace-settings.js';
import type { PlatformClient } from '../platform/client.js';
import { endpoints } from '../platform/endpoints.js';
import { conferenceJoinLink } from '../platform/join-links.js';
import { type ConferenceRecord, conferenceRecord } from '../platform/schemas.js';
import type { AccessService, Asker } from './access.js';
import { ConfdeskError } from './errors.js';
import { notKept, type SentField, wireNames } from './fields-not-kept.js';
import type { IdentityService, PlatformUser } from './identity.js';

/**
 * The create parameters a conference record can show back, to tell which ones the platform kept.
 * Left out: participants (the platform rewrites them), the password (only `has_password` shows),
 * flags whose default looks like a value (`open`, `invite`).
 */
function conferenceFieldsSent(input: Record<string, unknown>): SentField[] {
  const f = (param: string, label: string, at: string, compare: SentField['compare']): SentField => ({
    param,
    label,
    sent: input[param],
    at: [at],
    compare,
  });
  return [
    f('name', 'name', 'name', 'text'),
    f('message', 'message', 'message', 'text'),
    f('startTime', 'start time', 'start_time', 'time'),
    f('duration', 'duration', 'duration', 'number'),
    f('reminder', 'reminder', 'reminder', 'number'),
    f('templateId', 'template', 'template_id', 'id'),
    f('language', 'language', 'language', 'code'),
    f('entryMode', 'entry mode', 'entry_mode', 'code'),
    f('moderator', 'moderator', 'moderator', 'person'),
  ];
}

/** A conference as the policy sees it. */
export const conferenceSubject = (c: ConferenceSummary): Subject => ({
  kind: 'conference',
  moderatorId: c.moderator?.id,
  participants: c.participants,
});

/** What a create or update sends besides the form: resolved participants and moderator, the password. */
interface Prepared {
  input: Record<string, unknown>;
  participants: string[];
  moderator: PlatformUser | undefined;
}

/**
 * The conference use cases, shared by the command, the modal and the card buttons: identity and
 * permission first, then the platform call; the answer merged with what was sent (the platform's
 * create answer carries only id, name and timestamps).
 */
export class ConferenceService {
  constructor(
    private readonly platform: PlatformClient,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
    private readonly now: () => Date = () => new Date(),
    /** The workspace's defaults for what the form leaves empty (distribution mode). */
    private readonly defaults: WorkspaceDefaults = {},
  ) {}

  /** The card's view of a record, its join link read by the platform's reader (which records where it found it). */
  private summarize(r: ConferenceRecord): ConferenceSummary {
    return summarize(r, conferenceJoinLink(r, this.platform.findings));
  }

  /** About how long the rate budget will hold the next interactive call, in ms. */
  waitMs(): number {
    return this.platform.estimateWaitMs('interactive');
  }

  private async prepare(
    asker: Asker,
    v: ConferenceFormValues,
    password: string | undefined,
    mode: 'create' | 'edit',
  ): Promise<Prepared> {
    const fromSlack = await this.identity.emailsOf(v.people);
    if (fromSlack.missing.length)
      throw new ConfdeskError(
        'participant_without_email',
        phrase('conference.error.noSlackEmail', {
          people: joinMd(fromSlack.missing.map(mention), ', '),
          count: fromSlack.missing.length,
        }),
        'people',
      );
    const participants = [...new Set([...v.participants, ...fromSlack.emails])];
    // Creating, the moderator defaults to the person; editing, an empty field keeps the current one.
    const actorId = asker.slackId;
    let moderator: PlatformUser | undefined;
    if (v.moderator && v.moderator !== actorId) {
      try {
        moderator = await this.identity.platformUser(v.moderator);
      } catch (error) {
        if (error instanceof ConfdeskError && error.code === 'no_platform_account')
          throw new ConfdeskError(
            'moderator_without_account',
            phrase('conference.error.moderatorNoAccount', { moderator: mention(v.moderator) }),
            'moderator',
          );
        throw error;
      }
      this.access.check(asker, 'conference.moderate-other', { kind: 'moderator', moderatorId: moderator.id });
    } else if (v.moderator || mode === 'create') {
      moderator = asker.account;
    }
    const input: Record<string, unknown> = {
      participants: participants.length ? participants : undefined,
      name: v.name,
      message: v.message,
      password,
      moderation: v.moderation,
      entryMode: v.entryMode,
      startTime: v.startTime,
      open: v.open,
      duration: v.duration,
      reminder: v.reminder,
      templateId: v.templateId,
      language: v.language,
      invite: v.invite,
      moderator: moderator?.id,
      scope: v.sso ? ['sso'] : undefined,
    };
    return { input, participants, moderator };
  }

  async create(
    actorId: string,
    v: ConferenceFormValues,
    password?: string,
  ): Promise<ConferenceSummary & { notKept: string[] }> {
    const asker = await this.access.asker(actorId);
    this.access.check(asker, 'conference.create');
    const { input, participants, moderator } = await this.prepare(asker, v, password, 'create');
    if (participants.length === 0)
      throw new ConfdeskError('no_participants', phrase('conference.error.nobody'), 'participants');
    const created = await this.platform.createConference({
      ...input,
      language: input.language ?? this.defaults.language,
      participants,
      serviceKey: v.serviceKey ?? this.defaults.serviceKey,
    } as Parameters<PlatformClient['createConference']>[0]);
    // What the answer shows is compared with what was sent; a field it does not carry stays unknown
    // (no extra request: the answer may be partial, platform-facts.md).
    const dropped = notKept(created, conferenceFieldsSent({ ...input, participants }));
    this.platform.findings.dropped('createConference', wireNames(dropped, endpoints.createConference.wire));
    const notKeptParams = new Set(dropped.map((f) => f.param));
    return {
      ...this.merge(this.summarize(created), v, participants, moderator, notKeptParams),
      notKept: dropped.map((f) => f.label),
    };
  }

  /** Updates after checking the actor may; only what the form holds is sent (PUT). */
  async update(
    actorId: string,
    conferenceId: string,
    v: ConferenceFormValues,
    password?: string,
  ): Promise<ConferenceSummary> {
    const { asker, conference: before } = await this.managed(actorId, conferenceId, 'conference.edit');
    const { input, participants, moderator } = await this.prepare(asker, v, password, 'edit');
    const answer = await this.platform.updateConference({ conferenceId: before.id, ...input } as Parameters<
      PlatformClient['updateConference']
    >[0]);
    // The update's answer is not specified: use it when it is a conference record, else what was known.
    const parsed = conferenceRecord.safeParse(answer);
    return this.merge(parsed.success ? this.summarize(parsed.data) : before, v, participants, moderator);
  }

  async remove(actorId: string, conferenceId: string): Promise<ConferenceSummary> {
    const conference = await this.forManagement(actorId, conferenceId, 'delete');
    await this.platform.deleteConference({ conferenceId: conference.id });
    return conference;
  }

  /** The conference, if the actor may edit or delete it; a `not_allowed` error naming who may. */
  async forManagement(actorId: string, ref: string, verb: 'edit' | 'delete'): Promise<ConferenceSummary> {
    return (await this.managed(actorId, ref, verb === 'edit' ? 'conference.edit' : 'conference.delete'))
      .conference;
  }

  /** The values the edit form starts from, after the permission check. */
  async forEditing(
    actorId: string,
    ref: string,
  ): Promise<{ values: ConferenceFormValues; hasPassword: boolean }> {
    const { record } = await this.managed(actorId, ref, 'conference.edit');
    return {
      values: formValuesOf(record),
      hasPassword: (record as Record<string, unknown>).has_password === true,
    };
  }

  /** The conference and its record, if the actor may do `action` to it; the policy's refusal otherwise. */
  private async managed(actorId: string, ref: string, action: Action) {
    const { asker, object } = await this.access.about(
      actorId,
      action,
      async () => {
        const record = await this.platform.getConference({ conferenceId: ref });
        return { record, conference: this.summarize(record) };
      },
      (o) => conferenceSubject(o.conference),
    );
    return { asker, ...object };
  }

  /** The conference, for those who may see it (participants, moderator, admins). */
  async see(actorId: string, ref: string): Promise<ConferenceSummary> {
    return (await this.managed(actorId, ref, 'conference.see')).conference;
  }

  /** The conference's join link, for those who may join; given privately on a click. */
  async joinLink(actorId: string, ref: string): Promise<{ conference: ConferenceSummary; url?: string }> {
    const { conference } = await this.managed(actorId, ref, 'conference.join');
    return { conference, ...(conference.joinUrl ? { url: conference.joinUrl } : {}) };
  }

  /** One page of the actor's conferences (as moderator or participant); App Home asks for a longer one. */
  async list(actorId: string, q: ListQuery, limit = listPageSize) {
    const actor = await this.access.require(actorId, 'conference.list');
    const now = this.now();
    const page = await this.platform.listConferences({
      user: Number(actor.id),
      offset: q.offset,
      limit,
      ...(q.search ? { search: q.search } : {}),
      ...(q.filter === 'upcoming'
        ? { since: new Date(now.getTime() - 24 * 3600_000), order: 'asc' as const }
        : {}),
      ...(q.filter === 'past' ? { until: now, order: 'desc' as const } : {}),
    });
    const ended = (c: ConferenceSummary) =>
      c.status === 'ended' ||
      (c.start !== undefined && c.start.getTime() + (c.duration ?? 60) * 60_000 < now.getTime());
    const items = page.items
      .map((r) => this.summarize(r))
      .filter((c) => q.filter !== 'upcoming' || !ended(c));
    const hasMore = page.nextOffset !== undefined || q.offset + page.items.length < (page.total ?? 0);
    return { items, total: q.filter === 'upcoming' ? undefined : page.total, hasMore };
  }

  /** Recordings and snapshots, for the moderator, participants and admins. */
  async medias(
    actorId: string,
    ref: string,
  ): Promise<{ conference: ConferenceSummary; items: MediaSummary[]; total?: number }> {
    const { conference } = await this.managed(actorId, ref, 'conference.media');
    const page = await this.platform.listConferenceMedias({ conferenceId: conference.id, limit: 48 });
    // Read as the media library reads every media record (owner, group, thumbnail tolerated).
    const items = page.items.map(mediaItemOf);
    return { conference, items, ...(page.total !== undefined ? { total: page.total } : {}) };
  }

  /** The platform's answer completed with what was sent (its create answer carries little). */
  private merge(
    base: ConferenceSummary,
    v: ConferenceFormValues,
    participants: string[],
    moderator: PlatformUser | undefined,
    notKept: Set<string> = new Set(),
  ): ConferenceSummary {
    // What the platform did not keep is shown as the platform has it, not as it was sent.
    const sent = (param: string) => !notKept.has(param);
    return {
      ...base,
      name: sent('name') ? (v.name ?? base.name) : base.name,
      start: sent('startTime') ? (v.startTime ?? base.start) : base.start,
      duration: sent('duration') ? (v.duration ?? base.duration) : base.duration,
      participants: participants.length ? participants : base.participants,
      moderator:
        moderator && sent('moderator')
          ? { id: moderator.id, label: moderator.username ?? moderator.email }
          : base.moderator,
    };
  }
}
