import { phrase } from '../blocks/text.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError } from '../platform/errors.js';
import type { UserLinkRepository } from '../store/store.js';
import type { AccessService } from './access.js';
import type { Directory } from './directory.js';
import { personLabel } from './directory.js';
import { ConfdeskError } from './errors.js';
import type { IdentityService, PlatformUser } from './identity.js';

/** A platform account a link names, with how to show it. */
export interface LinkedAccount {
  account: PlatformUser;
  /** "First Last (login)" when the directory knows them, else the login or the id. */
  label: string;
}

/**
 * Admins link a Slack person to a platform account by hand when their e-mails differ;
 * identity then uses the link before the e-mail match (`IdentityService.platformUser`).
 */
export class IdentityLinkService {
  constructor(
    private readonly access: AccessService,
    private readonly identity: IdentityService,
    private readonly store: UserLinkRepository,
    private readonly platform: PlatformClient,
    private readonly directory: Directory,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Links `slackUserId` (in workspace `team`) to the platform account named by `ref` (an e-mail, a
   * login or a user id), replacing an earlier link. Refused (nothing stored) unless `identity.link`.
   */
  async link(adminSlackId: string, team: string, slackUserId: string, ref: string): Promise<LinkedAccount> {
    await this.access.require(adminSlackId, 'identity.link');
    const id = await this.resolve(ref);
    const account = id === undefined ? undefined : await this.identity.accountById(id, undefined);
    if (!account) throw new ConfdeskError('platform_user_not_found', phrase('people.link.notFound', { ref }));
    await this.store.linkUser({
      team,
      slackUserId,
      platformUserId: account.id,
      linkedBy: adminSlackId,
      linkedAt: this.now(),
    });
    this.identity.forgetLink(slackUserId);
    // The admin's answer names the person (the command was acked: a first load may be waited for).
    await this.directory.within(10_000);
    return { account, label: this.labelOf(account) };
  }

  /** Removes the person's link (e-mail matching applies again); answers whether there was one. */
  async unlink(adminSlackId: string, team: string, slackUserId: string): Promise<boolean> {
    await this.access.require(adminSlackId, 'identity.link');
    const removed = await this.store.unlinkUser(team, slackUserId);
    this.identity.forgetLink(slackUserId);
    return removed;
  }

  private labelOf(account: PlatformUser): string {
    const known = this.directory.user(account.id);
    return (
      known?.label ??
      personLabel({ id: account.id, username: account.username, first_name: undefined, last_name: undefined })
    );
  }

  /** The platform user id `ref` names: an id as is, an e-mail by the platform's lookup, a login in the directory. */
  private async resolve(ref: string): Promise<string | undefined> {
    if (/^\d+$/.test(ref)) return ref;
    if (ref.includes('@'))
      try {
        return String((await this.platform.getUserIdByEmail({ email: ref })).id);
      } catch (error) {
        if (error instanceof PlatformHttpError && error.status === 404) return undefined;
        throw error;
      }
    // An admin's command can wait for a first load (it was acked); the directory reads in the background lane.
    await this.directory.within(20_000);
    return this.directory.userByLogin(ref)?.id;
  }
}
