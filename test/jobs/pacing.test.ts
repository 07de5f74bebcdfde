import { describe, expect, it } from 'vitest';
import { idleHeartbeatMs, Pacing, type PacingOptions } from '../../src/jobs/pacing.js';

/** A pace over a clock the test moves; 10 requests a minute, 2 kept for people (a background share of 8). */
function paced(more: Partial<PacingOptions> = {}) {
  const clock = { now: 1_000_000, pages: 1, backfillWaits: true, watched: 0 };
  const pacing = new Pacing({
    pollIntervalMs: 30_000,
    budget: { perWindow: 10, reserve: 2, windowMs: 60_000 },
    allHeard: false,
    lastScanPages: () => clock.pages,
    backfillWaits: () => clock.backfillWaits,
    onWatched: () => clock.watched++,
    now: () => clock.now,
    ...more,
  });
  return { pacing, clock };
}

describe('the jobs’ pace', () => {
  it('scans every POLL_INTERVAL, ten times rarer for 10 minutes after a webhook, and a long list within half the share', () => {
    const { pacing, clock } = paced();
    expect(pacing.scanEvery()).toBe(30_000);
    pacing.webhookArrived();
    expect(pacing.scanEvery()).toBe(300_000);
    clock.now += 599_000;
    expect(pacing.scanEvery()).toBe(300_000);
    clock.now += 1_000;
    expect(pacing.scanEvery()).toBe(30_000);
    // 20 pages a scan at most every 20 / (8 / 2) minutes: 5 minutes.
    clock.pages = 20;
    expect(pacing.scanEvery()).toBe(300_000);
  });

  it('reads at once while the budget has room, else within what the scans leave of the background share', () => {
    const { pacing, clock } = paced();
    expect(pacing.verifyGapMs).toBe(22_500);
    clock.backfillWaits = false;
    expect(pacing.readPaceMs()).toBe(0);
    clock.backfillWaits = true;
    // One page every 30 s is 2 requests a minute of the 8: the reads get 6, one per 10 s.
    expect(pacing.readPaceMs()).toBe(10_000);
  });

  it('leads only while the poller’s lease it got has not run out, and no longer once it stops', () => {
    const { pacing, clock } = paced();
    expect(pacing.leaseMs).toBe(90_000);
    expect(paced({ pollIntervalMs: 5_000 }).pacing.leaseMs).toBe(60_000);
    expect(pacing.leads()).toBe(false);
    expect(pacing.leased(true, clock.now)).toBe(true);
    expect(pacing.leads()).toBe(true);
    clock.now += 89_999;
    expect(pacing.leads()).toBe(true);
    clock.now += 1;
    expect(pacing.leads()).toBe(false);
    pacing.leased(true, clock.now);
    pacing.stopLeading();
    expect(pacing.leads()).toBe(false);
    expect(pacing.leased(false, clock.now)).toBe(false);
    expect(pacing.leads()).toBe(false);
  });

  it('idle, scans once a heartbeat unless a webhook asks; something watched puts every job back at its pace once', () => {
    const { pacing, clock } = paced();
    expect(pacing.watching).toBe(false);
    expect(pacing.leadEvery()).toBe(idleHeartbeatMs);
    // Idle on PostgreSQL: the store is asked every POLL_INTERVAL whether anything is watched.
    expect(pacing.pollEvery()).toBe(30_000);
    expect(pacing.busyEvery(false)).toBe(idleHeartbeatMs);
    expect(pacing.busyEvery(true)).toBe(5_000);
    // The first idle look scans (one page keeps the versions recent); the next within a heartbeat does not.
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(true);
    clock.now += 30_000;
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(false);
    // A webhook about a ticket never seen asks for a scan: the next look scans, once.
    pacing.askScan();
    expect(pacing.pollEvery()).toBe(30_000);
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(true);
    expect(pacing.scanAsked).toBe(false);
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(false);
    clock.now += idleHeartbeatMs;
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(true);
    // The store says something is watched: the jobs are told once, and keep their pace.
    expect(clock.watched).toBe(0);
    expect(pacing.scans(pacing.scanBegins(), true)).toBe(true);
    expect(pacing.scans(pacing.scanBegins(), true)).toBe(true);
    expect(clock.watched).toBe(1);
    expect(pacing.watching).toBe(true);
    expect(pacing.leadEvery()).toBe(30_000);
    expect(pacing.busyEvery(false)).toBe(5_000);
    // Nothing watched any more: idle again, and told again when something is.
    expect(pacing.scans(pacing.scanBegins(), false)).toBe(false);
    expect(pacing.watching).toBe(false);
    pacing.toldWatched();
    expect(clock.watched).toBe(2);
  });

  it('keeps a watch told while the store was being asked, though the store’s answer predates it', () => {
    const { pacing, clock } = paced();
    pacing.scans(pacing.scanBegins(), true);
    const turn = pacing.scanBegins();
    // The write lands between the question and the answer (which did not see it yet).
    pacing.toldWatched();
    expect(pacing.scans(turn, false)).toBe(true);
    expect(pacing.watching).toBe(true);
    expect(clock.watched).toBe(1);
    // The next look without a new write believes the store (and makes its first idle scan).
    pacing.scans(pacing.scanBegins(), false);
    expect(pacing.watching).toBe(false);
  });

  it('asks the store only once a heartbeat where every write is heard, and paces the digests by their schedules', () => {
    const { pacing } = paced({ allHeard: true, timeScale: 10 });
    expect(pacing.heartbeatMs).toBe(idleHeartbeatMs / 10);
    expect(pacing.pollEvery()).toBe(idleHeartbeatMs / 10);
    expect(pacing.digestEvery()).toBe(6_000);
    pacing.scheduled = false;
    expect(pacing.digestEvery()).toBe(idleHeartbeatMs / 10);
  });
});
