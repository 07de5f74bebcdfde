/**
 * Slack's pace in each channel, shared by everything that posts there: about one message a second,
 * counted by Slack whoever posts (https://docs.slack.dev/apis/web-api/rate-limits: chat.postMessage).
 * People's posts (a card `/ticket show` asked for, a reply in a thread) take the channel's next slot
 * before the jobs' (delivery's lines, digests): a person waits at most one slot, never behind a
 * channel's backlog, and the jobs' next post waits for theirs instead of colliding with it (a 429).
 *
 * Slack counts a post when it arrives, somewhere between its start and its answer. The pace runs
 * from the middle of the two (the arrival, when the way there and back take as long), plus a small
 * margin for the difference: a busy channel gets about 58 of its 60 posts a minute, where running the pace from
 * the answer would lose the round trip on every post (a fifth of the channel on a 200 ms link).
 * When the way there is the slow part (a post that waited at Slack's door before it was counted),
 * the middle is too early and Slack answers 429: a channel refused so runs its pace from the answer
 * for the next minute, the one estimate that cannot be early.
 */
export class ChannelPace {
  /** When each channel's next post may start. */
  private readonly next = new Map<string, number>();
  /** People waiting for each channel's slot: the jobs wait while any does. */
  private readonly people = new Map<string, number>();
  /** Channels that answered a 429 for their pace, and until when their pace runs from the answer. */
  private readonly cautious = new Map<string, number>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly marginMs: number;

  constructor(
    /** The least time between two posts' arrivals at Slack in one channel. */
    readonly paceMs = 1_000,
    o: { marginMs?: number; now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.marginMs = o.marginMs ?? 25;
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Waits for the channel's next slot and takes it; a person's turn goes before any job's. Answers
   * the function to call when the post is answered (posted or refused), which places the pace at
   * the post's arrival.
   */
  async turn(channel: string, who: 'person' | 'job'): Promise<() => void> {
    if (who === 'person') this.people.set(channel, (this.people.get(channel) ?? 0) + 1);
    try {
      for (;;) {
        const wait = (this.next.get(channel) ?? Number.NEGATIVE_INFINITY) - this.now();
        const yielding = who === 'job' && (this.people.get(channel) ?? 0) > 0;
        if (wait <= 0 && !yielding) break;
        await this.sleep(Math.max(wait, yielding ? 50 : 0));
      }
    } finally {
      if (who === 'person') {
        const left = (this.people.get(channel) ?? 1) - 1;
        if (left > 0) this.people.set(channel, left);
        else this.people.delete(channel);
      }
    }
    const startedAt = this.now();
    const gap = this.paceMs + this.marginMs;
    this.later(channel, startedAt + gap);
    this.forgetOld();
    return () => {
      const answeredAt = this.now();
      const careful = (this.cautious.get(channel) ?? 0) > answeredAt;
      this.later(channel, (careful ? answeredAt : startedAt + (answeredAt - startedAt) / 2) + gap);
    };
  }

  /**
   * Slack refused a post for its pace (429): nothing goes there before `retryAfterMs`, and for a
   * minute the channel's pace runs from each post's answer.
   */
  refused(channel: string, retryAfterMs: number): void {
    const now = this.now();
    this.later(channel, now + retryAfterMs);
    this.cautious.set(channel, now + 60_000);
  }

  private later(channel: string, at: number): void {
    this.next.set(channel, Math.max(this.next.get(channel) ?? Number.NEGATIVE_INFINITY, at));
  }

  /** Keeps the map small: channels quiet for a minute are forgotten (their next post goes at once). */
  private forgetOld(): void {
    if (this.next.size < 1_000) return;
    const before = this.now() - 60_000;
    for (const [channel, at] of this.next) if (at < before) this.next.delete(channel);
    for (const [channel, until] of this.cautious) if (until < this.now()) this.cautious.delete(channel);
  }
}
