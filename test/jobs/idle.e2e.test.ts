import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Confdesk, createConfdesk } from '../../src/confdesk.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStore, type Store } from '../../src/store/store.js';
import { eventually } from '../helpers/bot.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/*
 * An idle workspace (nothing subscribed, no card, no digest, nothing waiting) costs nothing between
 * heartbeats: no outbox claim, no scan, no lease; the writes that give its jobs work wake them at once.
 * The bot is built as production builds it (createConfdesk, the default delivery heartbeat), over a
 * real store, the simulator and the Slack double; the store is counted on its way in.
 */

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

interface Counted {
  claims: number;
  leases: number;
  /** The idle check whether something is watched now. */
  watchChecks: number;
}

/**
 * `shared`: the store is announced as PostgreSQL's (other replicas may write it unheard), so the idle
 * jobs ask it every POLL_INTERVAL; the embedded store's only writer is this process.
 */
async function idleBot(shared = false): Promise<{
  confdesk: Confdesk;
  platform: PlatformFixture;
  slack: SlackDouble;
  counted: Counted;
  /** The store as the bot's own writers use it (the publisher writes a person's line with it). */
  store: Store;
  /** The store behind the bot's back (another replica's writes). */
  real: Store;
}> {
  const platform = await startPlatform();
  closing.push(() => platform.close());
  const slack = await new SlackDouble().start();
  closing.push(() => slack.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'confdesk-idle-'));
  closing.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const real = await openStore({ dataDir });
  closing.push(() => real.close());
  const counted: Counted = { claims: 0, leases: 0, watchChecks: 0 };
  const store: Store = {
    ...real,
    ...(shared ? { backend: 'postgres' as const } : {}),
    watchesAnything: () => {
      counted.watchChecks++;
      return real.watchesAnything();
    },
    claim: (...a) => {
      counted.claims++;
      return real.claim(...a);
    },
    acquireLease: (...a) => {
      counted.leases++;
      return real.acquireLease(...a);
    },
  };
  const confdesk = createConfdesk({
    slack: { botToken: 'xoxb-idle', signingSecret: 'idle-secret', apiUrl: slack.apiUrl, port: 0 },
    platform: platform.client,
    store,
    logger: createLogger((process.env.TEST_LOG as 'silent') ?? 'silent'),
    // Scans every second, ten times the speed for the jobs' own delays (the trigger gap of a scan:
    // 1.5 s): were the workspace not idle, a second would show a scan and a claim.
    jobs: { pollIntervalMs: 1_000, paceMs: 20, timeScale: 10 },
  });
  await confdesk.start();
  closing.push(() => confdesk.stop());
  // The listeners see part of it (`deps.store`); it is the whole store the bot's writers share.
  return { confdesk, platform, slack, counted, store: confdesk.deps.store as unknown as Store, real };
}

const lists = (platform: PlatformFixture) =>
  platform.sim.requests.filter((r) => r.path === '/api/v3/tickets').length;

const note = (n: number, holdMs?: number) => ({
  ticketId: '71',
  eventId: `idle-e${n}`,
  channel: 'CIDLE',
  payload: { eventName: 'ticket.note', timestamp: '2027-01-01T09:59:00Z', source: 'agent' },
  ...(holdMs === undefined ? {} : { holdMs }),
});

describe('an idle workspace', () => {
  it('claims, scans and leases nothing between heartbeats; an outbox write is delivered at once', async () => {
    const { platform, slack, counted, store } = await idleBot();
    // The first runs: one claim, one scan (which finds nothing is watched), its lease.
    await eventually(() => lists(platform) >= 1 && counted.claims >= 1, 5_000);
    await new Promise((r) => setTimeout(r, 500));
    const before = { lists: lists(platform), ...counted };
    await new Promise((r) => setTimeout(r, 3_000));
    // The embedded store's writes are all this process's: not even asked whether something is watched.
    expect({ lists: lists(platform), ...counted }).toEqual(before);

    // A person's line (any write to the outbox in this process): posted within a claim's time.
    const written = Date.now();
    await store.advance([note(1)]);
    await eventually(() => slack.messages.length === 1, 2_000);
    expect(Date.now() - written).toBeLessThan(1_000);

    // A webhook's event held for 800 ms: not before, and at once after.
    await store.advance([note(2, 800)]);
    await new Promise((r) => setTimeout(r, 600));
    expect(slack.messages).toHaveLength(1);
    await eventually(() => slack.messages.length === 2, 1_500);
  }, 30_000);

  it('asks a store other replicas may write whether something is watched every POLL_INTERVAL, and follows a watch made there', async () => {
    const { platform, counted, real } = await idleBot(true);
    await eventually(() => lists(platform) >= 1, 5_000);
    // The first scan's requests all answered (a slow machine may still be paging it).
    await new Promise((r) => setTimeout(r, 1_000));
    const checks = counted.watchChecks;
    const idleLists = lists(platform);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(counted.watchChecks - checks).toBeGreaterThanOrEqual(2);
    expect(lists(platform)).toBe(idleLists);
    // Written by another replica: not heard here, found by the next check.
    await real.addSubscription({
      id: 's-elsewhere',
      channel: 'CIDLE',
      kind: 'watch',
      ticketId: '71',
      filter: {},
      createdBy: 'UADMIN',
    });
    await eventually(() => lists(platform) > idleLists, 2_500);
  }, 30_000);

  it('goes back to its pace once something is watched: scans every POLL_INTERVAL, leases renewed', async () => {
    const { confdesk, platform, counted } = await idleBot();
    await eventually(() => lists(platform) >= 1, 5_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const idleLists = lists(platform);
    const idleLeases = counted.leases;
    // What `/ticket watch` does once it has checked the ticket.
    expect(await confdesk.deps.subscriptions.watch('CIDLE', { id: '71' }, 'UADMIN')).toBe(true);
    // The scans' pace from the last one (a second, long past): a scan at once, then one a second.
    await eventually(() => lists(platform) > idleLists, 1_000);
    await new Promise((r) => setTimeout(r, 3_200));
    expect(lists(platform) - idleLists).toBeGreaterThanOrEqual(3);
    expect(counted.leases - idleLeases).toBeGreaterThanOrEqual(3);
  }, 30_000);
});
