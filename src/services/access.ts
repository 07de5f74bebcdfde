import { type Action, decide, type Person, type Rule, type Subject } from '../domain/policy.js';
import type { Locale } from '../i18n/locale.js';
import { ConfdeskError, notAllowed } from './errors.js';
import type { IdentityService, PlatformUser } from './identity.js';

/** A person as the policy sees them, with the reason they have no account when they have none. */
export interface Asker extends Person {
  account?: PlatformUser | undefined;
  /** Why `account` is missing (no e-mail in Slack, no platform account with it): the sentence to show. */
  noAccount?: ConfdeskError | undefined;
}

/**
 * The policy (`domain/policy.ts`) applied to a Slack person: their platform account is looked up
 * (by Slack e-mail, cached by the identity service), then the table decides. Every door calls this
 * before reading or writing anything on the person's behalf.
 */
export class AccessService {
  constructor(
    private readonly identity: IdentityService,
    /** A workspace's own rows in place of the table's (distribution mode: who may create tickets). */
    private readonly rules: Partial<Record<Action, Rule>> = {},
  ) {}

  /** The language of what `slackId` alone sees (their Slack locale, from their cached profile). */
  locale(slackId: string): Promise<Locale> {
    return this.identity.locale(slackId);
  }

  /** The person and their platform account, if they have one (a platform failure is thrown). */
  async asker(slackId: string): Promise<Asker> {
    try {
      return { slackId, account: await this.identity.platformUser(slackId) };
    } catch (error) {
      if (error instanceof ConfdeskError && error.code === 'no_platform_account')
        return { slackId, noAccount: error };
      throw error;
    }
  }

  /** Throws the refusal when the asker may not; without an account, the sentence saying how to get one. */
  check(asker: Asker, action: Action, subject?: Subject): void {
    const decision = decide(action, asker, subject, this.rules[action]);
    if (decision.allowed) return;
    if (!asker.account && asker.noAccount) throw asker.noAccount;
    throw notAllowed(decision);
  }

  /**
   * Checks an action that needs no object (create, list, digest…) and answers the person's account.
   * Actions open to anyone do not need this.
   */
  async require(slackId: string, action: Action, subject?: Subject): Promise<PlatformUser> {
    const asker = await this.asker(slackId);
    this.check(asker, action, subject);
    return asker.account as PlatformUser;
  }

  /**
   * Checks an action on an object: a person without an account is refused before anything is read;
   * otherwise the object is read (by the bot, only to decide) and the table decides.
   */
  async about<T>(
    slackId: string,
    action: Action,
    load: () => Promise<T>,
    subjectOf: (object: T) => Subject,
  ): Promise<{ account: PlatformUser; asker: Asker; object: T }> {
    const asker = await this.asker(slackId);
    if (!asker.account) this.check(asker, action);
    const object = await load();
    this.check(asker, action, subjectOf(object));
    return { account: asker.account as PlatformUser, asker, object };
  }

  /** Whether the asker may, without throwing (to show or hide an item). */
  may(asker: Asker, action: Action, subject?: Subject): boolean {
    return decide(action, asker, subject).allowed;
  }
}
