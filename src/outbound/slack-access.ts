import type { WebClient } from '@slack/web-api';
import type { Logger } from '../observability/logger.js';
import type { SettingsRepository } from '../store/store.js';
import { classifySlackError } from '../util/slack-errors.js';

/** While Slack refuses the token, `auth.test` is asked again this often (and the jobs wait). */
export const tokenRecheckMs = 60_000;

/**
 * Whether Slack still takes the bot's token, as the jobs that post learn it. A refusal of the token
 * or the workspace (`classifySlackError` kind `token`: revoked, uninstalled, expired…) refuses every
 * message alike, so the jobs pause instead of trying each message every few seconds: one log line,
 * `/readyz` and the doctor say why (the store keeps it for a doctor run elsewhere), and `auth.test`
 * is asked once a minute until Slack accepts the token again; then the jobs resume by themselves.
 * Nothing is lost: the outbox keeps the messages and the digest runs stay due.
 */
export class SlackAccess {
  private refusal: { code: string; since: Date } | undefined;
  private nextCheck = 0;
  private readonly now: () => Date;
  private readonly recheckMs: number;

  constructor(
    private readonly o: {
      slack: WebClient;
      store: Pick<SettingsRepository, 'noteSlackRefusal'>;
      logger: Logger;
      recheckMs?: number;
      now?: () => Date;
    },
  ) {
    this.now = o.now ?? (() => new Date());
    this.recheckMs = o.recheckMs ?? tokenRecheckMs;
  }

  /** What `/readyz` says while paused. */
  problem(): string | undefined {
    return this.refusal
      ? `slack: Slack refuses the bot token (${this.refusal.code}) since ${this.refusal.since.toISOString()}: ticket events and digests are paused until a workspace admin reinstalls the app or SLACK_BOT_TOKEN is replaced`
      : undefined;
  }

  /** A call was refused for the token or the workspace (`code`: Slack's error): pause the jobs. */
  async refused(code: string): Promise<void> {
    if (this.refusal) return;
    this.refusal = { code, since: this.now() };
    this.nextCheck = this.now().getTime() + this.recheckMs;
    this.o.logger.error(
      { code },
      `Slack refuses the bot token (${code}): ticket events and digests are paused and kept; reinstall the app to the workspace or replace SLACK_BOT_TOKEN (checking again every ${Math.round(this.recheckMs / 1000)} s)`,
    );
    await this.o.store
      .noteSlackRefusal(this.refusal)
      .catch((error: unknown) => this.o.logger.warn({ err: error }, 'could not record the refusal'));
  }

  /** Whether the jobs may post now; while paused, asks `auth.test` at most once per `recheckMs`. */
  async usable(): Promise<boolean> {
    if (!this.refusal) return true;
    if (this.now().getTime() < this.nextCheck) return false;
    this.nextCheck = this.now().getTime() + this.recheckMs;
    try {
      await this.o.slack.auth.test();
    } catch (error) {
      const failure = classifySlackError(error);
      if (failure.kind !== 'token') this.o.logger.warn({ err: error }, 'could not ask Slack about the token');
      return false;
    }
    this.o.logger.info({ code: this.refusal.code }, 'Slack accepts the bot token again: the jobs resume');
    this.refusal = undefined;
    await this.o.store
      .noteSlackRefusal(undefined)
      .catch((error: unknown) => this.o.logger.warn({ err: error }, 'could not clear the refusal'));
    return true;
  }
}
