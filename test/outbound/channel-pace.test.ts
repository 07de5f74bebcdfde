import { describe, expect, it } from 'vitest';
import { ChannelPace } from '../../src/outbound/channel-pace.js';

/** A pace of 1 s (and `marginMs`) on a clock the test moves: each sleep advances it. */
function paced(marginMs = 0) {
  let now = 0;
  const pace = new ChannelPace(1_000, {
    marginMs,
    now: () => now,
    sleep: async (ms) => {
      await Promise.resolve();
      now += ms;
    },
  });
  const log: string[] = [];
  const take = async (channel: string, who: 'person' | 'job', label: string) => {
    await pace.turn(channel, who);
    log.push(`${label}@${now}`);
  };
  return {
    pace,
    log,
    take,
    at: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('a channel’s Slack pace, shared by people and jobs', () => {
  it('spaces posts in a channel by the pace, and leaves other channels alone', async () => {
    const { log, take } = paced();
    await take('C1', 'job', 'a');
    await take('C2', 'job', 'b');
    await take('C1', 'job', 'c');
    expect(log).toEqual(['a@0', 'b@0', 'c@1000']);
  });

  it('gives a person the next slot before a job that waited longer (real time, 100 ms pace)', async () => {
    const pace = new ChannelPace(100, { marginMs: 0 });
    const order: [string, number][] = [];
    const started = Date.now();
    const take = async (who: 'person' | 'job', label: string) => {
      await pace.turn('C1', who);
      order.push([label, Date.now() - started]);
    };
    await take('job', 'line-1');
    // A job waits for the next slot; a person asks meanwhile: the person goes first, the job after.
    const job = take('job', 'line-2');
    await new Promise((r) => setTimeout(r, 20));
    await Promise.all([job, take('person', 'card')]);
    expect(order.map(([label]) => label)).toEqual(['line-1', 'card', 'line-2']);
    const [, card] = order[1] as [string, number];
    const [, line2] = order[2] as [string, number];
    expect(card).toBeGreaterThanOrEqual(95);
    expect(card).toBeLessThan(190);
    expect(line2 - card).toBeGreaterThanOrEqual(95);
  });

  it('waits out what Slack said after a 429 before the channel’s next post', async () => {
    const { pace, log, take } = paced();
    await take('C1', 'job', 'a');
    pace.refused('C1', 3_000);
    await take('C1', 'person', 'b');
    expect(log).toEqual(['a@0', 'b@3000']);
  });

  it('runs the pace from a post’s arrival (the middle of its round trip) plus the margin, not from its answer', async () => {
    const { pace, at, advance } = paced(25);
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answered = await pace.turn('C1', 'job');
      starts.push(at());
      advance(200); // a 200 ms round trip: arrival 100 ms after the start
      answered();
    }
    // Each post starts 1,000 ms after the previous one's arrival, and 25 ms more: 1,125 ms apart,
    // where a pace from the answer would take 1,225 ms (60 posts a minute need at most 1,000).
    expect(starts).toEqual([0, 1_125, 2_250]);
  });

  it('keeps the pace while a post is not answered yet (a person’s post beside a job’s)', async () => {
    const { pace, at, advance } = paced(25);
    const first = await pace.turn('C1', 'job');
    await pace.turn('C1', 'person'); // the job's post is still on its way
    expect(at()).toBe(1_025);
    first(); // answered late: it cannot pull the next slot back
    advance(10);
    await pace.turn('C1', 'job');
    expect(at()).toBe(2_050);
  });

  it('runs a channel’s pace from each answer for a minute after Slack refused it a post (a 429), then from the arrival again', async () => {
    const { pace, at, advance } = paced(25);
    /** A post with a 200 ms round trip: answers when the channel's next post could start. */
    const post = async (channel: string) => {
      const answered = await pace.turn(channel, 'job');
      const start = at();
      advance(200);
      answered();
      return start;
    };
    await post('C1');
    // The arrival counted late at Slack's door: it refused the next post.
    pace.refused('C1', 1_000);
    const afterRefusal = await post('C1');
    expect(afterRefusal).toBe(1_200);
    // From the answer now: 1,000 ms + the margin after the answer (1,400), not after the middle.
    expect(await post('C1')).toBe(afterRefusal + 200 + 1_025);
    // Another channel is not concerned.
    const other = await post('C2');
    expect((await post('C2')) - other).toBe(1_125);
    // A minute later the channel runs from the arrival again.
    advance(61_000);
    const first = await post('C1');
    expect((await post('C1')) - first).toBe(1_125);
  });
});
