import { buildConferenceUnfurl, buildMediaUnfurl, buildTicketUnfurl, type Unfurl } from '../blocks/unfurl.js';
import { type ConferenceSummary, summarize } from '../domain/conference.js';
import { type MediaItem, mediaItemOf, mediaSubject } from '../domain/media.js';
import type { Action, Subject } from '../domain/policy.js';
import { summarizeTicket, type TicketSummary } from '../domain/ticket.js';
import {
  type LinkTarget,
  linkTarget,
  roomOfJoinLink,
  sameLink,
  type UnfurlKind,
  type UnfurlPatterns,
} from '../domain/unfurl-links.js';
import type { Locale } from '../i18n/locale.js';
import { TtlCache } from '../platform/cache.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import { conferenceJoinLink, ticketJoinLinks } from '../platform/join-links.js';
import { runInLane } from '../platform/lane.js';
import { ticketRecord } from '../platform/schemas.js';
import type { TicketRecordRepository } from '../store/ticket-records.js';
import { keepTicketRecord } from '../store/ticket-records.js';
import type { AccessService } from './access.js';
import { conferenceSubject } from './conferences.js';
import { ticketSubject } from './tickets.js';

/** An object a link shows, as read (or kept): what the card shows and what the policy decides on. */
type Found =
  | { kind: 'ticket'; object: TicketSummary }
  | { kind: 'conference'; object: ConferenceSummary }
  | { kind: 'media'; object: MediaItem };

/** How long a read serves a burst of the same link: a minute's chat about one ticket costs one read. */
export const unfurlCacheMs = 30_000;

/** Links looked at in one message at most (Slack sends each link of a message; a list of 50 is not a preview). */
export const unfurlLinksMax = 5;

const seeAction: Record<UnfurlKind, Action> = {
  ticket: 'ticket.see',
  conference: 'conference.see',
  media: 'media.see',
};

/** Statuses that mean "no such object" (or not addressable so): no unfurl, no retry. */
const gone = (error: unknown) =>
  error instanceof PlatformHttpError && [400, 403, 404, 410, 422].includes(error.status);

/**
 * Link unfurls: what a pasted link shows, for the person who posted it. Everything runs in the
 * platform budget's background lane (no person waits on an unfurl; a person's own request goes first),
 * and one read serves a burst: each object is read at most once per `unfurlCacheMs` whoever pastes it
 * (concurrent asks share the read), and a ticket whose record the bot keeps (the scans and the webhooks
 * keep it current) costs no read at all. A ticket read for an unfurl is kept in turn.
 */
export class UnfurlService {
  private readonly cache: TtlCache;
  /** Join links seen on conference records, to their conference (a link pasted again needs no lookup). */
  private readonly joinLinks = new Map<string, string>();

  constructor(
    private readonly o: {
      platform: PlatformClient;
      access: AccessService;
      store: Pick<TicketRecordRepository, 'knownTicket' | 'keepRecord'>;
      patterns: UnfurlPatterns;
      now?: () => number;
    },
  ) {
    this.cache = new TtlCache(unfurlCacheMs, o.now ?? Date.now, 2_000);
  }

  /** Whether any link could be ours: with no pattern, only join links are. */
  target(url: string): LinkTarget {
    return linkTarget(url, this.o.patterns);
  }

  /**
   * The unfurl of `url` as `posterSlackId` may see it, or undefined: not a link of ours, no such
   * object, a poster without a platform account or without the right to see it. Platform and Slack
   * failures are thrown (the caller logs them; the link stays plain). Written in `locale`, the
   * channel's language.
   */
  async preview(posterSlackId: string, url: string, locale: Locale): Promise<Unfurl | undefined> {
    const target = this.target(url);
    if (!target) return undefined;
    return runInLane('background', async () => {
      const asker = await this.o.access.asker(posterSlackId);
      if (!asker.account) return undefined;
      const found = await this.find(target);
      if (!found) return undefined;
      if (!this.o.access.may(asker, seeAction[found.kind], subjectOf(found))) return undefined;
      return render(locale, found);
    });
  }

  /** Forgets what was read of an object (a click changed it): the next paste reads it again. */
  forget(kind: UnfurlKind, id: string): void {
    this.cache.invalidate([`${kind}:${id}`]);
  }

  private async find(target: NonNullable<LinkTarget>): Promise<Found | undefined> {
    switch (target.kind) {
      case 'ticket':
        return this.ticket(target.id);
      case 'conference': {
        const c = await this.conference(target.id);
        return c && { kind: 'conference', object: c };
      }
      case 'media': {
        const m = await this.cached('media', target.id, async () =>
          mediaItemOf(await this.o.platform.getMedia({ mediaId: target.id })),
        );
        return m && { kind: 'media', object: m };
      }
      case 'join':
        return this.joinLink(target.url);
    }
  }

  /**
   * A ticket: its kept record when there is one (no request: the webhooks and the scans keep it
   * current), else one read, shared by a burst and kept for the next.
   */
  private async ticket(id: string): Promise<Found | undefined> {
    const kept = /^\d{1,20}$/.test(id) ? (await this.o.store.knownTicket(id)).record : undefined;
    const parsed = kept ? ticketRecord.safeParse(kept) : undefined;
    if (parsed?.success)
      return {
        kind: 'ticket',
        object: summarizeTicket(parsed.data, new Map(), ticketJoinLinks(parsed.data)),
      };
    const t = await this.cached('ticket', id, async () => {
      const record = await this.o.platform.getTicket({ ticketId: id });
      await keepTicketRecord(this.o.store, record);
      return summarizeTicket(record, new Map(), ticketJoinLinks(record, this.o.platform.findings));
    });
    return t && { kind: 'ticket', object: t };
  }

  private conference(ref: string): Promise<ConferenceSummary | undefined> {
    return this.cached('conference', ref, async () => {
      const record = await this.o.platform.getConference({ conferenceId: ref });
      const c = summarize(record, conferenceJoinLink(record, this.o.platform.findings));
      if (c.joinUrl) this.learnJoinLink(c.joinUrl, c.id);
      return c;
    });
  }

  /**
   * A conference's join link: a link seen on a record before, else the conference read by the link's
   * room name (the platform addresses a conference by id or room name), kept only if that record's own
   * join link is this one, so another link of the same domain never shows a conference.
   */
  private async joinLink(url: string): Promise<Found | undefined> {
    const known = this.joinLinks.get(url);
    const ref = known ?? roomOfJoinLink(url);
    if (!ref) return undefined;
    const c = await this.conference(ref);
    if (!c?.joinUrl || !sameLink(c.joinUrl, url)) return undefined;
    return { kind: 'conference', object: c };
  }

  private learnJoinLink(url: string, id: string): void {
    if (this.joinLinks.size >= 2_000) this.joinLinks.delete(this.joinLinks.keys().next().value as string);
    this.joinLinks.set(url, id);
  }

  /** One read per object per `unfurlCacheMs`, shared by concurrent asks; "no such object" is kept too. */
  private async cached<T>(kind: UnfurlKind, id: string, load: () => Promise<T>): Promise<T | undefined> {
    const key = `${kind}:${id}`;
    const value = await this.cache.getOrLoad<T | null>(
      key,
      key,
      () =>
        load().catch((error: unknown) => {
          if (gone(error)) return null;
          throw error;
        }),
      'background',
    );
    return value ?? undefined;
  }
}

const subjectOf = (f: Found): Subject => {
  switch (f.kind) {
    case 'ticket':
      return ticketSubject(f.object);
    case 'conference':
      return conferenceSubject(f.object);
    case 'media':
      return mediaSubject(f.object);
  }
};

const render = (locale: Locale, f: Found): Unfurl => {
  switch (f.kind) {
    case 'ticket':
      return buildTicketUnfurl(locale, f.object);
    case 'conference':
      return buildConferenceUnfurl(locale, f.object);
    case 'media':
      return buildMediaUnfurl(locale, f.object);
  }
};
