import type { WebClient } from '@slack/web-api';
import type { DigestData } from '../domain/digest.js';
import { dueRun, nextRunAfter, reportedDay } from '../domain/digest-schedule.js';
import type { Locale } from '../i18n/locale.js';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceMetrics } from '../observability/metrics.js';
import type { ChannelPace } from '../outbound/channel-pace.js';
import { chartFigures, type DigestChart, digestChart } from '../outbound/digest-chart.js';
import { findTagged, postTagged, type Tag, tellPerson, updateTagged } from '../outbound/ledger.js';
import type { SlackPublisher } from '../outbound/publisher.js';
import type { SlackAccess } from '../outbound/slack-access.js';
import { retryLevel } from '../platform/errors.js';
import type { DigestService } from '../services/digest.js';
import type { DigestRepository } from '../store/store.js';
import { classifySlackError } from '../util/slack-errors.js';

/** The metadata type of a digest message: how a lost answer is resolved without posting twice. */
export const digestMetadataType = 'confdesk_digest';

/** The ledger's tag of a schedule's digest for one local day. */
const tagOf = (scheduleId: string, period: string): Tag => ({
  type: digestMetadataType,
  payload: { schedule_id: scheduleId, period },
});

/** No digest of local day `period` is older than that day's start anywhere on Earth (UTC+14). */
const periodStart = (period: string) => new Date(Date.parse(`${period}T00:00:00Z`) - 14 * 3_600_000);

export interface DigestJobOptions {
  store: DigestRepository;
  digests: DigestService;
  /** A Web API client that never retries by itself (see deliveryClient). */
  slack: WebClient;
  logger: Logger;
  /** Renders the digest and the notices to its owner (the publisher). */
  publisher: Pick<SlackPublisher, 'digest' | 'notice'>;
  /** Whether Slack still takes the token: while it refuses it, no digest is tried (see `SlackAccess`). */
  slackAccess: Pick<SlackAccess, 'usable' | 'refused'>;
  owner: string;
  now?: () => Date;
  /**
   * Whether the person who set a digest up may still have it sent (the digest is for platform admins):
   * a digest whose owner lost the right is paused, and they are told once.
   */
  mayPost?: (createdBy: string) => Promise<boolean>;
  /** When figures were missing, the next try (same day), default 30 min. */
  retryMs?: number;
  /** Counts each run: sent, partial (figures missing), failed. */
  metrics?: Pick<WorkspaceMetrics, 'digestRun'> | undefined;
  /** The channels' pace, shared with delivery and people's posts: a digest takes a job's slot. */
  pace?: Pick<ChannelPace, 'turn'> | undefined;
  /**
   * The digest's chart, rendered and uploaded (without a channel) before the post: by default the
   * PNG of outbound/digest-chart.ts through `slack`'s files upload flow; `false`: text only. A chart
   * that fails leaves the digest as text.
   */
  chart?: ((data: DigestData, period: string) => Promise<DigestChart>) | false | undefined;
  /** The language of the channels' digests (and their charts); unset: English. */
  channelLocale?: Locale | undefined;
  /** When Slack says a just-uploaded chart is not ready to show (`invalid_blocks`), the wait before one more try (default 3 s). */
  chartWaitMs?: number;
}

/**
 * Sends the digests that are due: each (schedule, local date) once across restarts and replicas (its
 * run is claimed in the store), today's only after downtime (late, saying so). When figures are
 * missing it posts what it has, says so, and tries again later that day, updating the same message.
 */
export class DigestJob {
  private readonly now: () => Date;
  private stopping = false;
  /** The run being sent now, if any (a shutdown may have to leave it for the next start). */
  private current: { scheduleId: string; period: string; channel: string } | undefined;
  /**
   * The chart uploaded for each run being sent, with the figures it shows: a run tried again (figures
   * missing, a lost answer) with the same figures shows the same file, uploaded once. Dropped when
   * the run is sent.
   */
  private readonly charts = new Map<string, { figures: string; chart: DigestChart }>();

  constructor(private readonly o: DigestJobOptions) {
    this.now = o.now ?? (() => new Date());
  }

  /** Looks at every schedule once; answers how many digests it posted or updated. */
  async runOnce(): Promise<number> {
    let sent = 0;
    if (!(await this.o.slackAccess.usable())) return 0;
    for (const s of await this.o.store.digestSchedules()) {
      if (this.stopping) break;
      const due = dueRun(s, this.now());
      if (!due) continue;
      if (this.o.mayPost && !(await this.allowed(s, this.o.mayPost))) continue;
      const attempt = await this.o.store.claimDigestRun(s.id, due.period, this.o.owner, 5 * 60_000);
      if (attempt === undefined) continue;
      this.current = { scheduleId: s.id, period: due.period, channel: s.channel };
      try {
        if (await this.send(s, due.period, attempt, due.late && attempt === 1)) sent++;
      } catch (error) {
        // A channel that refuses the bot: the person who set the digest up is told once; tried hourly.
        // A token Slack refuses: every digest waits (see `SlackAccess`), tried again once it is taken.
        this.o.metrics?.digestRun('failed');
        const failure = classifySlackError(error);
        const waitMs = failure.kind === 'gone' ? 60 * 60_000 : failure.kind === 'token' ? 0 : 5 * 60_000;
        if (failure.kind === 'token') await this.o.slackAccess.refused(failure.code);
        else
          this.o.logger.warn({ err: error, schedule: s.id, waitMs }, 'digest not sent; trying again later');
        if (failure.kind === 'gone' && (await this.o.store.markDigestRefused(s.id, failure.code)))
          await tellPerson(
            this.o.slack,
            s.createdBy,
            await this.o.publisher.notice(
              { kind: 'digest-refused', channel: s.channel, reason: failure.code },
              s.createdBy,
            ),
            this.o.logger,
          );
        await this.o.store.settleDigestRun(s.id, due.period, {
          status: 'retry',
          retryAt: new Date(this.now().getTime() + waitMs),
        });
        if (failure.kind === 'token') return sent;
      } finally {
        this.current = undefined;
      }
    }
    return sent;
  }

  /** Shutting down: the digest being sent may finish; no other is started. */
  drain(): void {
    this.stopping = true;
  }

  /**
   * The shutdown's time is up: the digest being sent, if any, is handed to the next start at once (its
   * run due again now, instead of when its claim runs out). A message it may have posted is found by
   * its metadata and updated, not posted twice. Answers its channel.
   */
  async abandon(): Promise<string | undefined> {
    const run = this.current;
    if (!run) return undefined;
    await this.o.store.settleDigestRun(run.scheduleId, run.period, { status: 'retry', retryAt: this.now() });
    return run.channel;
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
      this.o.logger[retryLevel(error)](
        { err: error, schedule: s.id },
        'could not check a digest owner’s rights; later',
      );
      return false;
    }
    if (allowed) return true;
    if (await this.o.store.markDigestNotAllowed(s.id, s.createdBy)) {
      this.o.logger.warn({ schedule: s.id, channel: s.channel }, 'digest paused: its owner is not an admin');
      await tellPerson(
        this.o.slack,
        s.createdBy,
        await this.o.publisher.notice({ kind: 'digest-paused', channel: s.channel }, s.createdBy),
        this.o.logger,
      );
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
    const chart = await this.chartOf(data, s.id, period);
    const messageOf = (c: DigestChart | undefined) =>
      this.o.publisher.digest(data, { late, ...this.nextOf(s), ...(c ? { chart: c } : {}) });
    const tag = tagOf(s.id, period);
    // A message from an earlier attempt (or one whose answer was lost) is updated, not posted again.
    let ts =
      (await store.digestRun(s.id, period))?.slackTs ??
      (attempt > 1
        ? await findTagged(slack, { channel: s.channel, oldest: periodStart(period) }, tag)
        : undefined);
    const deliver = async (message: ReturnType<typeof messageOf>) => {
      if (ts) await updateTagged(slack, { channel: s.channel, ts }, message, tag);
      else {
        const answered = await this.o.pace?.turn(s.channel, 'job');
        ts = await postTagged(slack, { channel: s.channel }, message, tag).finally(() => answered?.());
      }
    };
    // Slack refuses an image block whose file it has not finished processing (`invalid_blocks`,
    // nothing posted): one more try after a wait, then the digest goes out as text.
    const refusedBlocks = (error: unknown) => classifySlackError(error).code === 'invalid_blocks';
    try {
      await deliver(messageOf(chart));
    } catch (error) {
      if (!chart || !refusedBlocks(error)) throw error;
      await new Promise((r) => setTimeout(r, this.o.chartWaitMs ?? 3_000));
      try {
        await deliver(messageOf(chart));
      } catch (again) {
        if (!refusedBlocks(again)) throw again;
        this.o.logger.warn({ err: again, schedule: s.id }, 'digest chart refused by Slack; sent as text');
        await deliver(messageOf(undefined));
      }
    }
    if (ts === undefined) throw new Error('the digest was posted without a ts');
    await store.clearDigestRefused(s.id); // posted: a later refusal is news again
    const complete = data.missing.length === 0;
    if (complete) this.charts.delete(`${s.id}/${period}`);
    this.o.metrics?.digestRun(complete ? 'sent' : 'partial');
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

  /** The run's chart, uploaded once for the same figures; undefined (the digest as text) when it fails. */
  private async chartOf(
    data: DigestData,
    scheduleId: string,
    period: string,
  ): Promise<DigestChart | undefined> {
    const key = `${scheduleId}/${period}`;
    const figures = chartFigures(data, this.o.channelLocale ?? 'en');
    const kept = this.charts.get(key);
    if (kept?.figures === figures) return kept.chart;
    try {
      const chart = this.o.chart
        ? await this.o.chart(data, period)
        : this.o.chart === false
          ? undefined
          : await digestChart(this.o.slack, data, period, this.o.channelLocale ?? 'en');
      if (chart) this.charts.set(key, { figures, chart });
      return chart;
    } catch (error) {
      this.o.logger.warn({ err: error, schedule: scheduleId }, 'digest chart not uploaded; sent as text');
      return undefined;
    }
  }

  private nextOf(s: Parameters<typeof nextRunAfter>[0]) {
    const next = nextRunAfter(s, this.now());
    return next ? { next } : {};
  }
}
