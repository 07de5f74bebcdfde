import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ConfdeskOptions, createConfdesk } from '../../src/confdesk.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import type { Wake } from '../../src/jobs/replicas/wakes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { eventually, silent, usePlatform } from '../helpers/listener-fakes.js';

/*
 * The jobs' host as the composition root builds it (real services, publisher, store, the in-process
 * simulator and the Slack double); Slack's transport is never started: only the jobs' life is.
 */

const platform = usePlatform();
let slack: SlackDouble;
let store: Store;
let dir: string;
const hosts: { stop(): Promise<unknown> }[] = [];

beforeAll(async () => {
  slack = await new SlackDouble().start();
});
afterAll(() => slack.stop());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-job-host-'));
  store = await openStore({ dataDir: dir });
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stop().catch(() => undefined);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A workspace's confdesk over the test's store; its jobs scan every minute, delivery sleeps at its heartbeat. */
function workspace(more: Partial<ConfdeskOptions> = {}) {
  const confdesk = createConfdesk({
    slack: { botToken: 'xoxb-host', signingSecret: 'host', apiUrl: slack.apiUrl, port: 0 },
    platform: platform.client,
    store,
    logger: silent,
    jobs: { pollIntervalMs: 60_000, paceMs: 0 },
    ...more,
  });
  const { jobs } = confdesk;
  hosts.push({ stop: () => jobs.stop(Number.POSITIVE_INFINITY, async () => undefined) });
  return confdesk;
}

const event = (eventId: string) => ({
  ticketId: '7',
  eventId,
  channel: 'C1',
  payload: { eventName: `event.${eventId}`, timestamp: '2027-01-01T09:59:00Z', source: 'agent' },
});
const posted = (eventId: string) =>
  slack.messages.filter(
    (m) =>
      (m.metadata as { event_payload?: { event_id?: string } } | undefined)?.event_payload?.event_id ===
      eventId,
  ).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Whether another replica could take the poller's lease now. */
const leaseFree = async () => {
  const got = await store.acquireLease('poller', 'another-replica', 60_000);
  if (got) await store.releaseLease('poller', 'another-replica');
  return got;
};

describe('the jobs’ host', () => {
  it('runs the jobs here from the start, or only while asked to, and hands the poller’s lease over when asked to stop', async () => {
    const alone = workspace().jobs;
    expect(alone.running()).toBeUndefined();
    alone.start();
    expect(alone.running()).toBeDefined();
    expect(alone.here()).toBe(true);
    // Asked to run elsewhere, a process that runs its jobs from the start keeps them.
    await alone.runJobs(false);
    expect(alone.here()).toBe(true);
    await alone.stop(Number.POSITIVE_INFINITY, async () => undefined);

    const shared = workspace({ jobsWhenAsked: true }).jobs;
    shared.start();
    expect(shared.running()).toBeUndefined();
    expect(shared.here()).toBe(false);
    await shared.runJobs(true);
    const jobs = shared.running();
    expect(jobs).toBeDefined();
    // Its first scan takes the poller's lease.
    await eventually(async () => expect(await leaseFree()).toBe(false));
    await shared.runJobs(true);
    expect(shared.running()).toBe(jobs);
    await shared.runJobs(false);
    expect(shared.running()).toBeUndefined();
    expect(await leaseFree()).toBe(true);
  });

  it('takes a webhook where the jobs do not run: what it tells is in the store for the replica running them', async () => {
    const partial = { kind: 'partial' as const, ticketId: '42', missing: ['eventName'] };
    // No jobs at all (a Slack-only instance): nothing is taken.
    await workspace({ jobs: undefined, jobsWhenAsked: true }).jobs.onWebhook(partial);
    expect(await store.wantedReads(10)).toEqual([]);
    const host = workspace({ jobsWhenAsked: true }).jobs;
    host.start();
    await host.onWebhook(partial);
    expect((await store.wantedReads(10)).map((w) => w.ticketId)).toEqual(['42']);
    expect(host.running()).toBeUndefined();
  });

  it('tells the replicas of this process’s writes only while its jobs run elsewhere', async () => {
    const told: Wake[] = [];
    const confdesk = workspace({ jobsWhenAsked: true, writesElsewhere: (w) => told.push(w) });
    confdesk.jobs.start();
    // Every writer of the workspace writes through the store the services were given (the listeners
    // see a narrower type of it).
    const written = confdesk.deps.store as Store;
    await written.advance([event('e1')]);
    expect(told).toEqual([{ job: 'deliver' }]);
    await written.addSubscription({
      id: 's1',
      channel: 'C1',
      kind: 'watch',
      ticketId: '7',
      filter: {},
      createdBy: 'U1',
    });
    expect(told).toEqual([{ job: 'deliver' }, { job: 'poll' }]);
    await confdesk.jobs.runJobs(true);
    await written.advance([event('e2')]);
    expect(told).toHaveLength(2);
    // The jobs here heard it instead.
    await eventually(() => expect(posted('e2')).toBe(1));
  });

  it('wakes the jobs running here with another replica’s write, as with its own', async () => {
    const host = workspace().jobs;
    host.start();
    // The first look at the outbox is over: delivery sleeps until its heartbeat (5 minutes) or a wake.
    await sleep(300);
    await store.advance([event('e3')]);
    await sleep(500);
    expect(posted('e3')).toBe(0);
    host.wake({ job: 'deliver' });
    await eventually(() => expect(posted('e3')).toBe(1));
  });

  it('stops for good: lets Slack’s requests finish until the deadline, says whether they did, and starts no job after', async () => {
    const host = workspace({ jobsWhenAsked: true }).jobs;
    host.start();
    await host.runJobs(true);
    await eventually(async () => expect(await leaseFree()).toBe(false));
    const left = await host.stop(Date.now() + 200, () => new Promise(() => undefined));
    expect(left).toEqual({ released: 0, unknown: 0, digests: [], requestsFinished: false });
    expect(await leaseFree()).toBe(true);

    const idle = workspace({ jobsWhenAsked: true }).jobs;
    idle.start();
    expect((await idle.stop(Number.POSITIVE_INFINITY, async () => undefined)).requestsFinished).toBe(true);
    await idle.runJobs(true);
    expect(idle.running()).toBeUndefined();
  });
});
