import type { WebClient } from '@slack/web-api';
import { classifySlackError } from '../util/slack-errors.js';

/** A Slack person found by e-mail is kept this long; an e-mail no member has, less (they may join). */
const memberTtlMs = 60 * 60_000;
const strangerTtlMs = 10 * 60_000;

/** Slack asked to slow down: nothing more is asked until `retryAfterMs` (the caller looks again later). */
export class SlackBusyError extends Error {
  readonly code = 'slack_rate_limited';
  constructor(readonly retryAfterMs: number) {
    super(`Slack asked to wait ${retryAfterMs} ms`);
  }
}

/**
 * Who is a member of the workspace, by e-mail (`users.lookupByEmail`, Tier 3), and each person's
 * direct-message channel with the bot (`conversations.open`): Slack calls the reminders make, never
 * the platform's. Both are kept (a member an hour, an e-mail no member has ten minutes, a DM channel
 * for good: it does not change), so a scan every minute asks Slack only about what it has not seen.
 * The client is one that never retries by itself: a 429 stops this scan's questions (`SlackBusyError`)
 * rather than pausing a client that answers people.
 */
export class DirectMessages {
  private readonly members = new Map<string, { user: string | undefined; until: number }>();
  private readonly channels = new Map<string, string>();
  private busyUntil = 0;

  constructor(
    private readonly slack: Pick<WebClient, 'users' | 'conversations'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this e-mail's answer is known without asking Slack. */
  known(email: string): boolean {
    return (this.members.get(email.toLowerCase())?.until ?? 0) > this.now();
  }

  /** The Slack member with this e-mail (active, not a bot), or undefined. */
  async memberByEmail(email: string): Promise<string | undefined> {
    const key = email.toLowerCase();
    const kept = this.members.get(key);
    if (kept && kept.until > this.now()) return kept.user;
    this.notBusy();
    let user: string | undefined;
    try {
      const u = (await this.slack.users.lookupByEmail({ email })).user;
      user = u?.id && !u.deleted && !u.is_bot ? u.id : undefined;
    } catch (error) {
      const failure = classifySlackError(error);
      if (failure.kind === 'rate_limited') throw this.busy(failure.retryAfterMs);
      // `users_not_found`: no member has it. Anything else is thrown: the scan looks again later.
      if (failure.code !== 'users_not_found') throw error;
    }
    this.members.set(key, { user, until: this.now() + (user ? memberTtlMs : strangerTtlMs) });
    return user;
  }

  /** The person's DM channel with the bot (`D…`), opened once and kept. */
  async channelOf(user: string): Promise<string> {
    const kept = this.channels.get(user);
    if (kept) return kept;
    this.notBusy();
    let id: string | undefined;
    try {
      id = (await this.slack.conversations.open({ users: user })).channel?.id;
    } catch (error) {
      const failure = classifySlackError(error);
      if (failure.kind === 'rate_limited') throw this.busy(failure.retryAfterMs);
      throw error;
    }
    if (!id) throw new Error('conversations.open answered no channel');
    this.channels.set(user, id);
    return id;
  }

  private notBusy(): void {
    const wait = this.busyUntil - this.now();
    if (wait > 0) throw new SlackBusyError(wait);
  }

  private busy(retryAfterMs: number): SlackBusyError {
    this.busyUntil = this.now() + retryAfterMs;
    return new SlackBusyError(retryAfterMs);
  }
}
