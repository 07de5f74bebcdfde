import type { WebClient } from '@slack/web-api';
import { md, mention } from '../blocks/mrkdwn.js';
import { TtlCache } from '../platform/cache.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import type { UserRecord } from '../platform/schemas.js';
import type { Directory } from './directory.js';
import { ConfdeskError, noPlatformAccount } from './errors.js';

/** What confdesk needs of a Slack user: their e-mail (identity) and their zone (reading times). */
export interface SlackProfile {
  id: string;
  email: string | undefined;
  tz: string;
  name: string;
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
     * issue 22: the enterprise's people in memory: a person's record (role, groups) is read there
     * rather than by paging through every user on their first request (21 requests for 2,000 people).
     */
    private readonly directory?: Pick<Directory, 'user'>,
  ) {
    this.cache = new TtlCache(profileTtlMs, now, 5_000);
  }

  profile(userId: string): Promise<SlackProfile> {
    return this.cache.getOrLoad(`slack:${userId}`, 'slack', async () => {
      const u = (await this.slack.users.info({ user: userId })).user;
      if (!u)
        throw new ConfdeskError('slack_user_not_found', md`Slack does not know the user ${mention(userId)}.`);
      return {
        id: userId,
        email: u.profile?.email || undefined,
        tz: u.tz || 'UTC',
        name: u.profile?.display_name || u.real_name || u.name || userId,
      };
    });
  }

  /** The platform account of a Slack user; a `no_platform_account` error when there is none. */
  async platformUser(userId: string): Promise<PlatformUser> {
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
      const known = this.directory?.user(id);
      if (known)
        return { id, username: known.username, role: known.role, email, groupIds: [...known.groupIds] };
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
      const groupIds = (record?.groups ?? []).map((g) =>
        String(typeof g === 'object' && g !== null ? (g as { id?: unknown }).id : g),
      );
      return { id, username: record?.username, role: record?.role, email, groupIds };
    });
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
