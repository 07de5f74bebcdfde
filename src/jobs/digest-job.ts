import type { WebClient } from '@slack/web-api';
import { dueRun, nextRunAfter, reportedDay } from '../domain/digest-schedule.js';
import type { Logger } from '../observability/logger.js';
import type { DigestService } from '../services/digest.js';
import type { DigestRepository } from '../store/store.js';
import { gone } from './delivery.js';
import type { DigestRenderer } from './ports.js';

/** The metadata type of a digest message: how a lost answer is resolved without posting twice. */
export const digestMetadataType = 'confdesk_digest';

export interface DigestJobOptions {
  store: DigestRepository;
  digests: DigestService;
  /** A Web API client that never retries by itself (see deliveryClient). */
  slack: WebClient;
  logger: Logger;
  /** Renders the digest (the publisher). */
  publisher: DigestRenderer;
  owner: string;
  now?: () => Date;
  /**
   * Whether the person who set a digest up may still have it sent (the digest is for platform admins):
   * a digest whose owner lost the right is paused, and they are told once.
   */
  mayPost?: (createdBy: string) => Promise<boolean>;
  /** When figures were missing, the next try (same day), default 30 min. */
  retryMs?: number;
}

/**
 * Sends the digests that are due: each (schedule, local date) once across restarts and replicas (its
 * run is claimed in the store), today's only after downtime (late, saying so). When figures are
 * missing it posts what it has, says so, and tries again later that day, updating the same message.
 */
export class DigestJob {
  private readonly now: () => Date;

  constructor(private readonly o: DigestJobOptions) {
    this.now = o.now ?? (() => new Date());
  }

  /** Looks at every schedule once; answers how many digests it posted or updated. */
  async runOnce(): Promise<number> {
    let sent = 0;
    for (const s of await this.o.store.digestSchedules()) {
      const due = dueRun(s, this.now());
      if (!due) continue;
      if (this.o.mayPost && !(await this.allowed(s, this.o.mayPost))) continue;
      const attempt = await this.o.store.claimDigestRun(s.id, due.period, this.o.owner, 5 * 60_000);
      if (attempt === undefined) continue;
      try {
        if (await this.send(s, due.period, attempt, due.late && attempt === 1)) sent++;
      } catch (error) {
        // A channel that refuses the bot: the person who set the digest up is told once; tried hourly.
        const refused = (error as { data?: { error?: string } }).data?.error ?? '';
        const waitMs = gone.has(refused) ? 60 * 60_000 : 5 * 60_000;
        this.o.logger.warn({ err: error, schedule: s.id, waitMs }, 'digest not sent; trying again later');
        if (gone.has(refused) && (await this.o.store.markDigestRefused(s.id, refused)))
          await this.o.slack.chat
            .postMessage({
              channel: s.createdBy,
              text: `I cannot post the daily digest in <#${s.channel}> (Slack says \`${refused}\`). Invite me there with \`/invite @confdesk\`, or remove the digest with \`/conference digest off\` in that channel.`,
            })
            .catch((e: unknown) => this.o.logger.warn({ err: e }, 'could not tell the digest’s owner'));
        await this.o.store.settleDigestRun(s.id, due.period, {
          status: 'retry',
          retryAt: new Date(this.now().getTime() + waitMs),
        });
      }
    }
    return sent;
  }

  /** Whether the schedule's owner may still have it sent; when not, they are told once. Errors: later. */
  private async allowed(
    s: { id: string; channel: string; createdBy: string },
    mayPost: (createdBy: string) => Promise<boolean>,
  ): Promise<boolean> {
    let allowed: boolean;
    try {
      allowed = await mayPost(s.createdBy);
    } catch (error) {
      this.o.logger.warn({ err: error, schedule: s.id }, 'could not check a digest owner’s rights; later');
      return false;
    }
    if (allowed) return true;
    if (await this.o.store.markDigestNotAllowed(s.id, s.createdBy)) {
      this.o.logger.warn({ schedule: s.id, channel: s.channel }, 'digest paused: its owner is not an admin');
      await this.o.slack.chat
        .postMessage({
          channel: s.createdBy,
          text: `The daily digest you set up in <#${s.channel}> is paused: the enterprise's statistics are for video platform admins, and your account is not one. An admin can set it up again with \`/conference digest\`, or remove it with \`/conference digest off\` there.`,
        })
        .catch((e: unknown) => this.o.logger.warn({ err: e }, 'could not tell the digest’s owner'));
    }
    return false;
  }

  private async send(
    s: { id: string; channel: string; zone: string; time: string; weekdays: number[] },
    period: string,
    attempt: number,
    late: boolean,
  ): Promise<boolean> {
    const { store, slack } = this.o;
    const data = await this.o.digests.collect(reportedDay(period));
    const message = this.o.publisher.digest(data, { late, ...this.nextOf(s) });
    const metadata = { event_type: digestMetadataType, event_payload: { schedule_id: s.id, period } };
    // A message from an earlier attempt (or one whose answer was lost) is updated, not posted again.
    let ts =
      (await store.digestRun(s.id, period))?.slackTs ??
      (attempt > 1 ? await this.findPosted(s.channel, s.id, period) : undefined);
    if (ts) await slack.chat.update({ channel: s.channel, ts, ...message, metadata });
    else ts = (await slack.chat.postMessage({ channel: s.channel, ...message, metadata })).ts as string;
    await store.clearDigestRefused(s.id); // posted: a later refusal is news again
    const complete = data.missing.length === 0;
    await store.settleDigestRun(
      s.id,
      period,
      complete
        ? { status: 'sent', slackTs: ts }
        : {
            status: 'retry',
            slackTs: ts,
            retryAt: new Date(this.now().getTime() + (this.o.retryMs ?? 30 * 60_000)),
          },
    );
    return true;
  }

  private nextOf(s: Parameters<typeof nextRunAfter>[0]) {
    const next = nextRunAfter(s, this.now());
    return next ? { next } : {};
  }

  private async findPosted(channel: string, scheduleId: string, period: string): Promise<string | undefined> {
    const answer = await this.o.slack.conversations.history({
      channel,
      include_all_metadata: true,
      limit: 100,
    });
    return (answer.messages ?? []).find((m) => {
      const meta = (m as { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } })
        .metadata;
      return (
        meta?.event_type === digestMetadataType &&
        meta.event_payload?.schedule_id === scheduleId &&
        meta.event_payload?.period === period
      );
    })?.ts;
  }
}
