import { slackFileMaxBytes } from '../blocks/limits.js';
import type { MediaPage } from '../blocks/media.js';
import { phrase } from '../blocks/text.js';
import {
  type MediaFilterText,
  type MediaItem,
  mediaFilterSyntax,
  mediaItemOf,
  mediaSubject,
  parseMediaFilters,
  pastUploadLimit,
} from '../domain/media.js';
import type { Action } from '../domain/policy.js';
import { dayBound } from '../domain/ticket-query.js';
import type { Download, PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import { discard } from '../util/streams.js';
import type { AccessService } from './access.js';
import { ConfdeskError } from './errors.js';
import type { IdentityService } from './identity.js';

/** The library's page size: the platform's own default for `/medias` (platform-facts.md). */
export const mediaPageSize = 10;

/** What a share gets: the file to stream, or (past Slack's limit) the link to give instead. */
export type MediaShareSource =
  | { kind: 'file'; media: MediaItem; file: Download }
  | { kind: 'too-big'; media: MediaItem; size: number; url: string };

/**
 * The media library's use cases, for the library modal and the conference and ticket
 * cards alike: listing with the spec's filters (only what the person may see), one item, edit,
 * delete, and the file to share (streamed, or a link past Slack's file size limit).
 */
export class MediaService {
  /** Slack's file size limit (`limits.ts`); tests lower it rather than generate a gigabyte. */
  maxUploadBytes = slackFileMaxBytes;

  constructor(
    private readonly platform: PlatformClient,
    private readonly identity: IdentityService,
    private readonly access: AccessService,
  ) {}

  /**
   * A page of the library for `actorId`. A plain user's list is their own media unless they name a
   * group or a person; then what the platform answers is filtered to what they may see (`hidden`
   * says how many were left out). `user:all` is for admins; an admin's default is everyone's.
   */
  async list(
    actorId: string,
    text: string,
    offset: number,
  ): Promise<MediaPage & { filters: MediaFilterText }> {
    const parsed = parseMediaFilters(text);
    if (!parsed.ok)
      throw new ConfdeskError('bad_media_filter', phrase(parsed.problem.key, parsed.problem.values));
    const f = parsed.filters;
    const asker = await this.access.asker(actorId);
    this.access.check(asker, 'media.list');
    const me = asker.account?.id as string;
    const admin = this.access.may(asker, 'media.list-all');
    let user: string;
    if (f.user === 'all') {
      this.access.check(asker, 'media.list-all');
      user = 'all';
    } else if (f.user === 'me' || (f.user === undefined && !admin && f.group === undefined)) user = me;
    else if (f.user === undefined) user = 'all';
    else user = await this.userId(f.user);
    const groupId = f.group === undefined ? undefined : await this.groupId(f.group);
    const zone = f.since || f.until ? (await this.identity.profile(actorId)).tz : 'UTC';
    const page = await this.platform.listMedias({
      offset,
      limit: mediaPageSize,
      user,
      ...(groupId ? { userGroup: Number(groupId) } : {}),
      ...(f.type ? { mediaType: f.type } : {}),
      ...(f.status ? { status: f.status } : {}),
      ...(f.source ? { sourceType: f.source } : {}),
      ...(f.tag ? { tag: f.tag } : {}),
      ...(f.conversation ? { conversationId: f.conversation } : {}),
      ...(f.since ? { since: dayBound(f.since, zone, false) } : {}),
      ...(f.until ? { until: dayBound(f.until, zone, true) } : {}),
      ...(f.search ? { search: f.search } : {}),
    });
    const all = page.items.map(mediaItemOf);
    const items = all.filter((m) => this.access.may(asker, 'media.see', mediaSubject(m)));
    const hasMore =
      page.nextOffset !== undefined ||
      (page.total !== undefined
        ? offset + page.items.length < page.total
        : page.items.length >= mediaPageSize);
    return {
      filters: f,
      items,
      offset,
      limit: mediaPageSize,
      total: items.length === all.length ? page.total : undefined,
      hasMore,
      hidden: all.length - items.length,
    };
  }

  /** One media item, for those the policy lets do `action` on it (read by the bot only to decide). */
  async forAction(actorId: string, mediaId: string, action: Action): Promise<MediaItem> {
    if (!/^\d{1,20}$/.test(mediaId))
      throw new ConfdeskError('no_such_media', phrase('media.error.noSuch', { id: mediaId }));
    const { object } = await this.access.about(
      actorId,
      action,
      () => this.read(mediaId),
      (m) => mediaSubject(m),
    );
    return object;
  }

  /** Saves title, description and location; answers the item as it now is. */
  async edit(
    actorId: string,
    mediaId: string,
    values: { title?: string; description?: string; lat?: number; lng?: number },
  ): Promise<MediaItem> {
    const before = await this.forAction(actorId, mediaId, 'media.edit');
    await this.platform.updateMedia({ mediaId, ...values });
    return { ...before, ...values };
  }

  /** Deletes it for good; answers what was deleted. */
  async remove(actorId: string, mediaId: string): Promise<MediaItem> {
    const media = await this.forAction(actorId, mediaId, 'media.delete');
    await this.platform.deleteMedia({ mediaId });
    return media;
  }

  /** Where the file can be fetched from outside Slack: its own URL, else the platform's download path. */
  downloadUrl(m: MediaItem): string {
    return m.url ?? `${this.platform.baseUrl}/api/v3/medias/${m.id}/download`;
  }

  /**
   * The file of a media to share, streamed from the platform (never whole in memory), for those who
   * may share it; past Slack's file size limit, the link instead (a size the record did not give is
   * read from the download's Content-Length before any byte is sent on).
   */
  async shareSource(actorId: string, mediaId: string): Promise<MediaShareSource> {
    const media = await this.forAction(actorId, mediaId, 'media.share');
    return this.sourceOf(media);
  }

  /** The same for a media another door already checked (a ticket's media, through `ticket.media`). */
  async sourceOf(media: MediaItem): Promise<MediaShareSource> {
    const tooBig = (size: number) => ({
      kind: 'too-big' as const,
      media,
      size,
      url: this.downloadUrl(media),
    });
    if (pastUploadLimit(media.size, this.maxUploadBytes)) return tooBig(media.size as number);
    const file = await this.platform.downloadMedia({ mediaId: media.id });
    if (pastUploadLimit(file.contentLength, this.maxUploadBytes)) {
      discard(file.body);
      return tooBig(file.contentLength as number);
    }
    return { kind: 'file', media, file };
  }

  private async read(mediaId: string): Promise<MediaItem> {
    try {
      return mediaItemOf(await this.platform.getMedia({ mediaId }));
    } catch (error) {
      if (error instanceof PlatformHttpError && error.status === 404)
        throw new ConfdeskError('no_such_media', phrase('media.error.gone', { id: mediaId }));
      throw error;
    }
  }

  /** A person named in `user:`: an id, an e-mail, or a login of the enterprise. */
  private async userId(ref: string): Promise<string> {
    if (/^\d{1,20}$/.test(ref)) return ref;
    const unknown = () =>
      new ConfdeskError('bad_media_filter', phrase('media.error.user', { ref, syntax: mediaFilterSyntax }));
    if (ref.includes('@')) {
      try {
        return String((await this.platform.getUserIdByEmail({ email: ref })).id);
      } catch (error) {
        if (error instanceof PlatformHttpError && error.status === 404) throw unknown();
        throw error;
      }
    }
    const me = await this.platform.getMe();
    for await (const u of this.platform.paginate('listEnterpriseUsers', { enterpriseId: me.enterprise_id }))
      if (u.username?.toLowerCase() === ref.toLowerCase()) return String(u.id);
    throw unknown();
  }

  /** A group named in `group:`: its id, or its name (case-insensitive). */
  private async groupId(ref: string): Promise<string> {
    const me = await this.platform.getMe();
    const groups = await this.platform.listGroups({ enterpriseId: me.enterprise_id });
    const g = groups.items.find(
      (x) => String(x.id) === ref || (x.name ?? '').toLowerCase() === ref.toLowerCase(),
    );
    if (!g) throw new ConfdeskError('bad_media_filter', phrase('media.error.group', { ref }));
    return String(g.id);
  }
}
