import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import pg from 'pg';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDigest } from '../../src/blocks/digest.js';
import { chartGeometry } from '../../src/blocks/digest-chart.js';
import { buildJobNotice } from '../../src/blocks/job-notices.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { DigestJob, digestMetadataType } from '../../src/jobs/digest-job.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics, type WorkspaceMetrics } from '../../src/observability/metrics.js';
import { ChannelPace } from '../../src/outbound/channel-pace.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { SlackAccess } from '../../src/outbound/slack-access.js';
import { AccessService } from '../../src/services/access.js';
import { DigestService } from '../../src/services/digest.js';
import { IdentityService } from '../../src/services/identity.js';
import { openStore, type Store, type StoreOptions } from '../../src/store/store.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/**
 * The digest job with a clock the test moves, against the simulator and the Slack double: once per
 * schedule and day across restarts and two replicas (on both store backends), late after downtime,
 * and a digest with missing figures completed later that day in the same message.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const backends: [string, () => StoreOptions][] = [
  ['embedded', () => ({ dataDir: mkdtempSync(join(tmpdir(), 'confdesk-digest-job-')) })],
  ...(databaseUrl
    ? [
        [
          'PostgreSQL',
          () => ({ databaseUrl, schema: `confdesk_digest_${randomBytes(4).toString('hex')}` }),
        ] as [string, () => StoreOptions],
      ]
    : []),
];
if (!databaseUrl)
  console.warn('digest-job.test.ts: TEST_DATABASE_URL is not set, so only the embedded store is tested.');

/** A digest job on this store, the simulator and the Slack double, on the test's clock. */
const digestJob = (
  store: Store,
  owner: string,
  now: () => Date,
  metrics?: WorkspaceMetrics,
  pace?: ChannelPace,
) =>
  new DigestJob({
    metrics,
    pace,
    store,
    digests: new DigestService(platform.client, store),
    slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
    slackAccess: new SlackAccess({
      slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
      store,
      logger: createLogger('silent'),
    }),
    logger: createLogger('silent'),
    publisher: {
      digest: (data, o) => buildDigest(data, { ...o, locale: 'en' }),
      notice: async (n) => buildJobNotice('en', n),
    },
    owner,
    now,
  });

/** Every day at `time` in Paris, in `channel`. */
const daily = (store: Store, channel: string, time: string, createdBy: string) =>
  store.addDigestSchedule({
    id: `d-${channel}`,
    channel,
    zone: 'Europe/Paris',
    time,
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    createdBy,
  });

/** Removes a test's store: its temp dir, or its PostgreSQL schema. */
async function dispose(opts: StoreOptions): Promise<void> {
  if (opts.dataDir) rmSync(opts.dataDir, { recursive: true, force: true });
  if (!opts.schema) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`drop schema if exists ${opts.schema} cascade`);
  await client.end();
}

let platform: PlatformFixture;
let slack: SlackDouble;
beforeAll(async () => {
  platform = await startPlatform();
  slack = await new SlackDouble().start();
});
afterAll(async () => {
  await slack.stop();
  await platform.close();
});

describe.each(backends)('the digest job (%s store)', (_, options) => {
  it('takes a slot of the channel’s Slack pace, after the post that took the last one', async () => {
    const opts = options();
    const store = await openStore(opts);
    try {
      const channel = `CPACE${randomBytes(2).toString('hex')}`;
      await daily(store, channel, '09:00', 'U1');
      const pace = new ChannelPace(400, { marginMs: 0 });
      (await pace.turn(channel, 'person'))(); // a person's card went out just now
      const took = Date.now();
      const job = digestJob(store, 'paced', () => new Date('2027-03-29T07:01:00Z'), undefined, pace);
      expect(await job.runOnce()).toBe(1);
      const post = slack.callsOf('chat.postMessage').find((c) => c.args.channel === channel);
      expect((post?.at ?? 0) - took).toBeGreaterThanOrEqual(390);
    } finally {
      await store.close();
      await dispose(opts);
    }
  });

  it('posts each day once across two replicas and a restart, late after downtime, and completes a partial digest in place', async () => {
    let now = new Date('2027-03-29T07:01:00Z'); // Monday 09:01 in Paris
    const opts = options();
    // Two replicas: two connections to PostgreSQL; the embedded store is one process's, so there two
    // workers share it.
    const first = await openStore({ ...opts, now: () => now });
    const stores: Store[] = [first, opts.databaseUrl ? await openStore({ ...opts, now: () => now }) : first];
    const channel = `CDIG${randomBytes(2).toString('hex')}`;
    await daily(first, channel, '09:00', 'U1');
    const job = (store: Store, owner: string) => digestJob(store, owner, () => now);
    const posts = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
    const [a, b] = stores.map((s, i) => job(s, `replica-${i}`)) as [DigestJob, DigestJob];
    expect((await Promise.all([a.runOnce(), b.runOnce()])).reduce((x, y) => x + y)).toBe(1);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.args.metadata).toMatchObject({ event_type: digestMetadataType });
    expect(JSON.stringify(posts()[0]?.args.blocks)).toContain('Sunday 28 March 2027'); // the day before
    // A restart (a new job, a new owner) later that day sends nothing more.
    now = new Date('2027-03-29T15:00:00Z');
    expect(await job(stores[1] as Store, 'restarted').runOnce()).toBe(0);
    // Down from Tuesday 08:00 to Wednesday 11:00: Wednesday's digest, late; Tuesday's never.
    now = new Date('2027-03-31T09:00:00Z');
    expect(await a.runOnce()).toBe(1);
    expect(posts()).toHaveLength(2);
    expect(JSON.stringify(posts()[1]?.args.blocks)).toContain('Late: confdesk was not running');
    // Thursday the platform fails: the digest says what is missing, then is completed in place.
    now = new Date('2027-04-01T07:00:30Z');
    platform.sim.faults.errorRate = 1;
    try {
      expect(await b.runOnce()).toBe(1);
    } finally {
      platform.sim.faults.errorRate = 0;
    }
    expect(posts()).toHaveLength(3);
    expect(JSON.stringify(posts()[2]?.args.blocks)).toContain('I will try again later today');
    expect(await a.runOnce()).toBe(0); // not before its retry time
    now = new Date('2027-04-01T07:31:00Z');
    expect(await a.runOnce()).toBe(1);
    expect(posts()).toHaveLength(3);
    const updated = slack.messages.filter((m) => m.channel === channel)[2];
    expect(JSON.stringify(updated?.blocks)).not.toContain('I will try again');
    expect(slack.callsOf('chat.update').filter((c) => c.args.channel === channel)).toHaveLength(1);
    for (const s of new Set(stores)) await s.close();
    await dispose(opts);
  });

  it('tells the person who set it up, once, when the channel refuses the bot, and posts once it is back', async () => {
    const opts = options();
    let now = new Date('2027-03-29T07:01:00Z');
    const store = await openStore({ ...opts, now: () => now });
    const channel = `CREF${randomBytes(2).toString('hex')}`;
    const owner = `UOWN${randomBytes(2).toString('hex')}`;
    await daily(store, channel, '09:00', owner);
    const metrics = new Metrics();
    const job = digestJob(store, 'refused', () => now, metrics.workspace('TDIG'));
    slack.notInChannel.add(channel);
    expect(await job.runOnce()).toBe(0);
    now = new Date(now.getTime() + 60 * 60_000 + 1_000);
    expect(await job.runOnce()).toBe(0); // tried again an hour later, still refused
    const told = slack.callsOf('chat.postMessage').filter((c) => c.args.channel === owner);
    expect(told).toHaveLength(1);
    expect(String(told[0]?.args.text)).toContain('/invite @confdesk');
    slack.notInChannel.delete(channel);
    now = new Date(now.getTime() + 60 * 60_000 + 1_000);
    expect(await job.runOnce()).toBe(1);
    // Each run counted by its outcome: two refused, then one sent with every figure.
    const runs = await metrics.text();
    expect(runs).toContain('confdesk_digest_runs_total{workspace="TDIG",outcome="failed"} 2');
    expect(runs).toContain('confdesk_digest_runs_total{workspace="TDIG",outcome="sent"} 1');
    expect(runs).not.toContain('outcome="partial"');
    await store.close();
    await dispose(opts);
  });

  it('sends a digest set in a time the clocks skip once, at the next minute that exists', async () => {
    const opts = options();
    let now = new Date('2027-03-28T00:59:00Z'); // 01:59 in Paris; at 02:00 the clocks go to 03:00
    const store = await openStore({ ...opts, now: () => now });
    const channel = `CDST${randomBytes(2).toString('hex')}`;
    await daily(store, channel, '02:30', 'U1');
    const job = digestJob(store, 'dst', () => now);
    const posts = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
    expect(await job.runOnce()).toBe(0);
    now = new Date('2027-03-28T01:00:10Z'); // 03:00:10 CEST: the first minute that exists after 02:30
    expect(await job.runOnce()).toBe(1);
    now = new Date('2027-03-28T01:30:00Z'); // 03:30 CEST, where a naive shift would put it
    expect(await job.runOnce()).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(JSON.stringify(posts()[0]?.args.blocks)).not.toContain('Late:');
    await store.close();
    await dispose(opts);
  });

  it('a shutdown that cannot wait for a digest being sent hands it to the next start, which updates the message instead of posting again', async () => {
    const opts = options();
    // Today, on the real clock: the double stamps its messages with it, and the ledger looks from the
    // reported day on. A 00:00 digest is due whatever the hour (sent late).
    const now = new Date();
    const store = await openStore({ ...opts, now: () => now });
    const channel = `CSTOP${randomBytes(2).toString('hex')}`;
    await daily(store, channel, '00:00', 'U1');
    const posts = () => slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
    // Slack takes the post, its answer is slow: the shutdown's time runs out meanwhile.
    slack.latency.set('chat.postMessage', 1_500);
    const stopping = digestJob(store, 'stopping', () => now);
    const run = stopping.runOnce();
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    stopping.drain();
    expect(await stopping.abandon()).toBe(channel);
    slack.latency.delete('chat.postMessage');
    // The next start, at once (no claim to run out): the message is found by its metadata and updated.
    expect(await digestJob(store, 'next', () => now).runOnce()).toBe(1);
    expect(posts()).toHaveLength(1);
    expect(slack.callsOf('chat.update').filter((c) => c.args.channel === channel)).toHaveLength(1);
    await run;
    await store.close();
    await dispose(opts);
  });
});

describe('the digest’s chart', () => {
  /** A digest job on a fresh embedded store with one daily schedule in a channel of its own. */
  async function setUp(o: { chartWaitMs?: number; realClock?: boolean } = {}) {
    const opts = backends[0]?.[1]() as StoreOptions;
    // On the real clock where a lost answer is looked for: the double stamps its messages with it, and
    // the ledger looks from the reported day on (a 00:00 digest is due whatever the hour).
    let now = o.realClock ? new Date() : new Date('2027-03-29T07:01:00Z'); // Monday 09:01 in Paris
    const store = await openStore({ ...opts, now: () => now });
    const channel = `CCHART${randomBytes(2).toString('hex')}`;
    await daily(store, channel, o.realClock ? '00:00' : '09:00', 'U1');
    const job = new DigestJob({
      store,
      digests: new DigestService(platform.client, store),
      slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
      slackAccess: new SlackAccess({
        slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
        store,
        logger: createLogger('silent'),
      }),
      logger: createLogger('silent'),
      publisher: {
        digest: (data, o) => buildDigest(data, { ...o, locale: 'en' }),
        notice: async (n) => buildJobNotice('en', n),
      },
      owner: 'chart',
      now: () => now,
      chartWaitMs: o.chartWaitMs ?? 50,
    });
    const inChannel = () => slack.messages.filter((m) => m.channel === channel);
    const images = (blocks: unknown) =>
      ((blocks ?? []) as { type: string; slack_file?: { id: string }; alt_text?: string }[]).filter(
        (b) => b.type === 'image',
      );
    const uploadsSince = slack.callsOf('files.completeUploadExternal').length;
    const completes = () => slack.callsOf('files.completeUploadExternal').slice(uploadsSince);
    return {
      store,
      job,
      channel,
      inChannel,
      images,
      completes,
      later: (ms: number) => {
        now = new Date(now.getTime() + ms);
      },
      close: async () => {
        await store.close();
        await dispose(opts);
      },
    };
  }

  it('is uploaded without a file message and shown in the digest as an image block with its figures in alt text', async () => {
    const t = await setUp();
    try {
      expect(await t.job.runOnce()).toBe(1);
      // One message in the channel: the digest, its chart inside it; no file message of its own.
      expect(t.inChannel()).toHaveLength(1);
      const [image] = t.images(t.inChannel()[0]?.blocks);
      expect(image?.alt_text).toMatch(/^Chart of the last 7 days\. .*sessions, \d+ minutes/);
      const [complete] = t.completes();
      expect(complete?.args.channel_id).toBeUndefined();
      const fileId = image?.slack_file?.id as string;
      expect(complete?.args.files).toEqual([expect.objectContaining({ id: fileId })]);
      // The bytes Slack received are the PNG of the chart's size; the text figures are still there.
      const png = PNG.sync.read(slack.uploads.get(fileId)?.bytes as Buffer);
      expect([png.width, png.height]).toEqual([chartGeometry.width, chartGeometry.height]);
      expect(JSON.stringify(t.inChannel()[0]?.blocks)).toContain('*Sessions*');
      expect(slack.violations).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('goes out as text, once, when the upload fails', async () => {
    const t = await setUp();
    try {
      slack.failNext('files.getUploadURLExternal', { kind: 'error', error: 'internal_error' });
      expect(await t.job.runOnce()).toBe(1);
      expect(t.inChannel()).toHaveLength(1);
      expect(t.images(t.inChannel()[0]?.blocks)).toEqual([]);
      expect(JSON.stringify(t.inChannel()[0]?.blocks)).toContain('*Sessions*');
      expect(t.completes()).toHaveLength(0);
      // Sent: not tried again later that day.
      t.later(60 * 60_000);
      expect(await t.job.runOnce()).toBe(0);
      expect(t.inChannel()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('waits for Slack to finish a just-uploaded file, and goes out as text when it does not in time', async () => {
    const ready = await setUp({ chartWaitMs: 300 });
    slack.filesProcessingMs = 150;
    try {
      expect(await ready.job.runOnce()).toBe(1);
      const posts = slack.callsOf('chat.postMessage').filter((c) => c.args.channel === ready.channel);
      expect(posts).toHaveLength(2); // refused once (not ready), then taken
      expect(ready.inChannel()).toHaveLength(1);
      expect(ready.images(ready.inChannel()[0]?.blocks)).toHaveLength(1);
    } finally {
      await ready.close();
    }
    const late = await setUp({ chartWaitMs: 20 });
    slack.filesProcessingMs = 60_000;
    try {
      expect(await late.job.runOnce()).toBe(1);
      expect(late.inChannel()).toHaveLength(1);
      expect(late.images(late.inChannel()[0]?.blocks)).toEqual([]);
      expect(late.completes()).toHaveLength(1);
    } finally {
      slack.filesProcessingMs = 0;
      await late.close();
    }
  });

  it('is uploaded once when the digest’s answer is lost and it is sent again: the same message, the same file', async () => {
    const t = await setUp({ realClock: true });
    try {
      slack.failNext('chat.postMessage', { kind: 'lost_response' });
      expect(await t.job.runOnce()).toBe(0); // posted, but the bot cannot know
      t.later(5 * 60_000 + 1_000);
      expect(await t.job.runOnce()).toBe(1); // found by its metadata, updated
      expect(t.inChannel()).toHaveLength(1);
      const [image] = t.images(t.inChannel()[0]?.blocks);
      expect(image?.slack_file?.id).toBeDefined();
      expect(t.completes()).toHaveLength(1);
      expect(slack.callsOf('chat.update').filter((c) => c.args.channel === t.channel)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('a digest job that posts for someone', () => {
  it('pauses a digest whose owner is no platform admin, tells them once, and still sends an admin’s', async () => {
    const now = new Date('2027-03-29T07:01:00Z'); // Monday 09:01 in Paris
    const opts = backends[0]?.[1]() as StoreOptions;
    const store = await openStore({ ...opts, now: () => now });
    slack.addUser({ id: 'UDADMIN', email: 'admin@acme.example' });
    slack.addUser({ id: 'UDALICE', email: 'alice@acme.example' }); // an agent, not an admin
    const identity = new IdentityService(
      new WebClient('xoxb-digest', { slackApiUrl: slack.apiUrl }),
      platform.client,
    );
    const access = new AccessService(identity);
    const job = new DigestJob({
      store,
      digests: new DigestService(platform.client, store),
      slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
      slackAccess: new SlackAccess({
        slack: deliveryClient({ token: 'xoxb-digest', apiUrl: slack.apiUrl }),
        store,
        logger: createLogger('silent'),
      }),
      logger: createLogger('silent'),
      publisher: {
        digest: (data, o) => buildDigest(data, { ...o, locale: 'en' }),
        notice: async (n) => buildJobNotice('en', n),
      },
      owner: 'one',
      now: () => now,
      mayPost: async (user) => access.may(await access.asker(user), 'digest.set'),
    });
    try {
      await daily(store, 'CDIGADM', '09:00', 'UDADMIN');
      await daily(store, 'CDIGALI', '09:00', 'UDALICE');
      const to = (channel: string) =>
        slack.callsOf('chat.postMessage').filter((c) => c.args.channel === channel);
      expect(await job.runOnce()).toBe(1);
      expect(await job.runOnce()).toBe(0);
      expect(to('CDIGADM')).toHaveLength(1);
      expect(to('CDIGALI')).toHaveLength(0);
      expect(to('UDALICE')).toHaveLength(1);
      expect(String(to('UDALICE')[0]?.args.text)).toContain('is paused');
    } finally {
      await store.close();
      await dispose(opts);
    }
  });
});
