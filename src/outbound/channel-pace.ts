/**
 * Slack's pace in each channel, shared by everything that posts there: about one message a second,
 * counted by Slack whoever posts (https://docs.slack.dev/apis/web-api/rate-limits: chat.postMessage).
 * People's posts (a card `/ticket show` asked for, a reply in a thread) take the channel's next slot
 * before the jobs' (delivery's lines, digests): a person waits at most one slot, never behind a
 * channel's backlog, and the jobs' next post waits for theirs instead of colliding with it (a 429).
 */
export class ChannelPace {
  /** When each channel's last post started (or when Slack said it may post again). */
  private readonly last = new Map<string, number>();
  /** People waiting for each channel's slot: the jobs wait while any does. */
  private readonly people = new Map<string, number>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    /**
     * The least time from a post's answer (or, without one, its start) to the next post's start in
     * the channel: Slack counts a post when it arrives, somewhere between the two, so a second after
     * the answer can never arrive within Slack's second, and costs only the round trip.
     */
    readonly paceMs = 1_000,
    o: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {},
  ) {
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Waits for the channel's next slot and takes it; a person's turn goes before any job's. */
  async turn(channel: string, who: 'person' | 'job'): Promise<void> {
    if (who === 'person') this.people.set(channel, (this.people.get(channel) ?? 0) + 1);
    try {
      for (;;) {
        const wait = (this.last.get(channel) ?? Number.NEGATIVE_INFINITY) + this.paceMs - this.now();
        const yielding = who === 'job' && (this.people.get(channel) ?? 0) > 0;
        if (wait <= 0 && !yielding) break;
        await this.sleep(Math.max(wait, yielding ? 50 : 0));
      }
      this.last.set(channel, this.now());
    } finally {
      if (who === 'person') {
        const left = (this.people.get(channel) ?? 1) - 1;
        if (left > 0) this.people.set(channel, left);
        else this.people.delete(channel);
      }
    }
    this.forgetOld();
  }

  /** The channel's post that took the last turn was answered (posted or refused): the pace runs from now. */
  answered(channel: string): void {
    this.last.set(channel, Math.max(this.last.get(channel) ?? 0, this.now()));
  }

  /** Slack refused a post for its pace (429): nothing goes there before `retryAfterMs`. */
  refused(channel: string, retryAfterMs: number): void {
    this.last.set(channel, this.now() + retryAfterMs - this.paceMs);
  }

  /** Keeps the map small: channels quiet for a minute are forgotten (their next post goes at once). */
  private forgetOld(): void {
    if (this.last.size < 1_000) return;
    const before = this.now() - 60_000;
    for (const [channel, at] of this.last) if (at < before) this.last.delete(channel);
  }
}
