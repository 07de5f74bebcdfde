import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/runner.js';
import { createLogger } from '../../src/observability/logger.js';
import { PlatformClosedError, PlatformHttpError, retryLevel } from '../../src/platform/errors.js';
import { currentLane, inPeoplesTurn, peoplesTurn } from '../../src/platform/lane.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the job runner', () => {
  it('logs a run ended by the stop (the platform client closed) at info, and any other failure as an error', async () => {
    const lines: { level: number; msg: string; job: string }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const runner = new JobRunner(createLogger('info', sink));
    runner.start({
      name: 'scan',
      everyMs: 60_000,
      run: async () => {
        throw new PlatformClosedError('queued request');
      },
    });
    runner.start({
      name: 'digest',
      everyMs: 60_000,
      run: async () => {
        throw new Error('broken');
      },
    });
    await runner.stop();
    expect(lines.map((l) => [l.level, l.job, l.msg]).sort()).toEqual([
      [30, 'scan', 'background job ended by the stop'],
      [50, 'digest', 'background job failed'],
    ]);
  });

  it('retries after a stop’s closed client at info, after any other failure at warn', () => {
    expect(retryLevel(new PlatformClosedError('getTicket'))).toBe('info');
    expect(retryLevel(new PlatformHttpError('getTicket', 500, {}, undefined))).toBe('warn');
    expect(retryLevel(new Error('broken'))).toBe('warn');
  });

  it('runs a job started or woken by a person’s work outside that person’s turn, in its own lane', async () => {
    const runner = new JobRunner(createLogger('silent'));
    const seen: [string | undefined, string][] = [];
    // Started from a person's load (a workspace started by its first request, say): its first run
    // goes at once, in the caller's context but not in its turn.
    inPeoplesTurn('the shared read groups', () =>
      runner.start({
        name: 'scan',
        everyMs: 60_000,
        minGapMs: 10,
        run: async () => void seen.push([peoplesTurn(), currentLane()]),
      }),
    );
    await sleep(20);
    inPeoplesTurn('the shared read groups', () => runner.trigger('scan'));
    await sleep(100);
    await runner.stop();
    expect(seen).toEqual([
      [undefined, 'background'],
      [undefined, 'background'],
    ]);
  });

  it('never lets a trigger put off a run that was due sooner (a long minimum gap for triggers only)', async () => {
    const runner = new JobRunner(createLogger('silent'));
    const runs: number[] = [];
    const started = Date.now();
    runner.start({
      name: 'scan',
      everyMs: 150,
      minGapMs: 10_000,
      run: async () => runs.push(Date.now() - started),
    });
    await sleep(20);
    runner.trigger('scan'); // asks for a run no sooner than 10 s after the last: the one due at 150 ms stays
    await sleep(400);
    await runner.stop();
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs[1]).toBeLessThan(300);
  });

  it('brings a run forward when triggered, and runs once more after a run that a trigger found in progress', async () => {
    const runner = new JobRunner(createLogger('silent'));
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    runner.start({
      name: 'read',
      everyMs: 60_000,
      minGapMs: 10,
      lane: 'backfill',
      run: async () => {
        runs++;
        expect(currentLane()).toBe('backfill');
        if (runs === 1) await gate;
      },
    });
    runner.trigger('read'); // during the first run: once more after it
    release();
    await sleep(100);
    expect(runs).toBe(2);
    runner.trigger('read');
    await sleep(100);
    expect(runs).toBe(3);
    await runner.stop();
  });

  it('keeps a job going after a trigger that came during a run its timer started', async () => {
    const runner = new JobRunner(createLogger('silent'));
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    runner.start({
      name: 'read',
      everyMs: 100,
      minGapMs: 10,
      run: async () => {
        runs++;
        if (runs === 2) await gate; // the second run, started by the timer, is held
      },
    });
    await sleep(150);
    expect(runs).toBe(2);
    runner.trigger('read'); // during that run: once more after it
    release();
    await sleep(450);
    // Not lost: the run asked for, then the steady rate again.
    expect(runs).toBeGreaterThanOrEqual(5);
    await runner.stop();
  });
});
