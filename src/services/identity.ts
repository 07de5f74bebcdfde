import type { WebClient } from '@slack/web-api';
import { mention } from '../blocks/mrkdwn.js';
import { phrase } from '../blocks/text.js';
import { type Locale, localeOfSlack } from '../i18n/locale.js';
import { TtlCache } from '../platform/cache.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import type { UserRecord } from '../platform/schemas.js';
import type { UserLinkRepository } from '../store/store.js';
import type { Directory } from './directory.js';
import { ConfdeskError, noPlatformAccount } from './errors.js';

/**
 * What confdesk needs of a Slack user: their e-mail (identity), their zone (reading times) and their
 * language (what they alone see: help texts, direct messages, App Home).
 */
export interface SlackProfile {
  id: string;
  email: string | undefined;
  tz: string;
  name: string;
  /** Their Slack locale's catalog (`fr-FR` → `fr`, anything not French → `en`). */
  locale: Locale;
}

/** A Slack user's account on the video platform. */
export interface PlatformUser {
  id: string;
  username: string | undefined;
  role: string | undefined;
  email: string;
  /** Ids of the user groups they belong to. */
  groupIds: string[];
}

/** Slack profiles change rarely; a person's platform account even less. */
const profileTtlMs = 10 * 60_000;

/**
 * Maps Slack users to platform users by their Slack profile e-mail (`users.info` →
 * `GET /api/v3/users/id`), with both answers cached.
 */
export class IdentityService {
  private readonly cache: TtlCache;

  constructor(
    private readonly slack: Pick<WebClient, 'users'>,
    private readonly platform: PlatformClient,
    now: () => number = Date.now,
    /**
     * The enterprise's people in memory: a person's record (role, groups) is read there
     * rather than by paging through every user on their first request (21 requests for 2,000 people).
     */
    private readonly directory?: Pick<Directory, 'user'>,
    /** The links admins made by hand (`/conference admin link`), read before the e-mail. */
    private readonly links?: Pick<UserLinkRepository, 'userLink'>,
  ) {
    this.cache = new TtlCache(profileTtlMs, now, 5_000);
  }

  profile(userId: string): Promise<SlackProfile> {
    return this.cache.getOrLoad(`slack:${userId}`, 'slack', async () => {
      // include_locale: Slack leaves `locale` (`fr-FR`) out of the answer without it.
      const u = (await this.slack.users.info({ user: userId, include_locale: true })).user;
      if (!u)
        throw new ConfdeskError(
          'slack_user_not_found',
          phrase('identity.unknownSlackUser', { user: mention(userId) }),
        );
      return {
        id: userId,
        email: u.profile?.email || undefined,
        tz: u.tz || 'UTC',
        name: u.profile?.display_name || u.real_name || u.name || userId,
        locale: localeOfSlack(u.locale),
      };
    });
  }

  /**
   * Forgets what is known of `userId` from Slack (their profile: e-mail, time zone, language) and the
   * platform account found by their e-mail, so the next request reads them again: Slack's
   * `user_change` says they changed. No request here.
   */
  forget(userId: string): void {
    const known = this.cache.peek(`slack:${userId}`) as SlackProfile | undefined;
    this.cache.delete(`slack:${userId}`);
    if (known?.email) this.cache.delete(`platform:${known.email.toLowerCase()}`);
  }

  /**
   * The language of what `userId` alone sees, from their cached profile (one `users.info` at most
   * per profile's lifetime, shared with every other use of it); English when Slack cannot tell.
   */
  async locale(userId: string): Promise<Locale> {
    try {
      return (await this.profile(userId)).locale;
    } catch {
      return 'en';
    }
  }

  /**
   * The platform account of a Slack user: the one an admin linked them to, else the one with their
   * Slack e-mail; a `no_platform_account` error when there is none.
   */
  async platformUser(userId: string): Promise<PlatformUser> {
    const linked = await this.linkOf(userId);
    if (linked)
      return this.cache.getOrLoad(`account:${linked}`, 'platform', async () => {
        const account = await this.accountById(linked, undefined);
        if (!account)
          throw new ConfdeskError('no_platform_account', phrase('identity.linkGone', { id: linked }));
        return account;
      });
    const profile = await this.profile(userId);
    const email = profile.email;
    if (!email) throw noPlatformAccount(undefined);
    return this.cache.getOrLoad(`platform:${email.toLowerCase()}`, 'platform', async () => {
      let id: string;
      try {
        id = String((await this.platform.getUserIdByEmail({ email })).id);
      } catch (error) {
        if (error instanceof PlatformHttpError && error.status === 404) throw noPlatformAccount(email);
        throw error;
      }
      return (
        (await this.accountById(id, email)) ?? {
          id,
          username: undefined,
          role: undefined,
          email,
          groupIds: [],
        }
      );
    });
  }

  /**
   * The link's forgotten (after `link` or `unlink`): the person's next request reads it again. Other
   * replicas learn it when their cache of it expires (10 minutes).
   */
  forgetLink(userId: string): void {
    this.cache.invalidate([`link:${userId}`]);
  }

  /** The platform user id an admin linked the person to, if any (cached like the profile). */
  private async linkOf(userId: string): Promise<string | undefined> {
    const links = this.links;
    if (!links) return undefined;
    const found = await this.cache.getOrLoad(`link:${userId}`, `link:${userId}`, async () => ({
      id: (await links.userLink(userId))?.platformUserId,
    }));
    return found.id;
  }

  /**
   * A platform user's account by id: from the directory when it knows them, else by paging through
   * the enterprise's users; undefined when there is no such user. `email`: the one that found them.
   */
  async accountById(id: string, email: string | undefined): Promise<PlatformUser | undefined> {
    const known = this.directory?.user(id);
    if (known)
      return {
        id,
        username: known.username,
        role: known.role,
        email: email ?? known.email ?? '',
        groupIds: [...known.groupIds],
      };
    const me = await this.platform.getMe();
    let record: UserRecord | undefined;
    for await (const u of this.platform.paginate('listEnterpriseUsers', {
      enterpriseId: me.enterprise_id,
    })) {
      if (String(u.id) === id) {
        record = u;
        break;
      }
    }
    if (!record) return undefined;
    const groupIds = (record.groups ?? []).map((g) =>
      String(typeof g === 'object' && g !== null ? (g as { id?: unknown }).id : g),
    );
    return { id, username: record.username, role: record.role, email: email ?? record.email ?? '', groupIds };
  }

  /** E-mails of Slack users (mentions, people pickers); names those without one. */
  async emailsOf(userIds: string[]): Promise<{ emails: string[]; missing: string[] }> {
    const profiles = await Promise.all(userIds.map((id) => this.profile(id)));
    return {
      emails: profiles.flatMap((p) => (p.email ? [p.email] : [])),
      missing: profiles.filter((p) => !p.email).map((p) => p.id),
    };
  }
}
