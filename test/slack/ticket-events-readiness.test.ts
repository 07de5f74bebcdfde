import { describe, expect, it } from 'vitest';
import { describeWaiting } from '../../src/distribution/census.js';
import type { BacklogState } from '../../src/jobs/poller/read-backlog.js';

/** Workspaces running here with these backlogs (undefined: its jobs have not looked yet). */
const running = (backlogs: Record<string, BacklogState | undefined>) => ({
  running: new Map(
    Object.entries(backlogs).map(([team, b]) => [
      team,
      { confdesk: { jobs: { running: () => ({ lastBacklog: () => b }) } } } as never,
    ]),
  ),
});

const quiet: BacklogState = { reads: 0, verify: 2, oldestMs: undefined, drainMs: undefined, posts: 0 };

describe('/readyz’s ticket events in distribution mode', () => {
  it('says nothing waits only when no workspace here has anything waiting', () => {
    expect(describeWaiting(running({ T1: quiet, T2: undefined }))).toBe('no change waiting');
  });

  it('counts the workspaces with something waiting and names the longest-waiting ones with their sentence', () => {
    const said = describeWaiting(
      running({
        T1: quiet,
        T2: { ...quiet, posts: 4, postsOldestMs: 12_000 },
        T3: { ...quiet, awaitingScan: 7 },
        T4: { ...quiet, reads: 2, oldestMs: 300_000, drainMs: 60_000 },
        T5: { ...quiet, cardUpdates: 1 },
      }),
    );
    expect(said).toMatch(/^4 workspace\(s\) with changes waiting; T4: 2 tickets' events still to read/);
    expect(said).toContain(
      'T2: 4 messages (cards, thread lines) waiting to be posted in Slack, the oldest for 12 s',
    );
    expect(said).toContain('and 1 more');
    expect(said).not.toContain('T1');
  });
});
