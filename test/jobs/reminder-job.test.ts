import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dmChannelOf, SlackDouble } from '../../src/dev/slack-double.js';
import { ReminderJob } from '../../src/jobs/reminder-job.js';
import { createLogger } from '../../src/observability/logger.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { DirectMessages } from '../../src/outbound/direct-messages.js';
import { Directory } from '../../src/services/directory.js';
import { openStore, type Store } from '../../src/store/store.js';
import { people } from '../helpers/people.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/*
 * The reminder job's decisions through its real parts: the conference list read from the simulator,
 * Slack's people from the double, the outbox in a real store; only the clock is the test's.
 */

let platform: PlatformFixture;
let slack: SlackDouble;
let store: Store;
let dir: string;
let now: Date;
const outsider = { id: 'UOUT', email: 'someone@elsewhere.example', tz: 'UTC' };

beforeAll(async () => {
  platform = await startPlatform();
  slack = await new SlackDouble().start();
  for (const p of [people.admin, people.alice, people.bob])
    slack.addUser({ id: p.id, tz: p.tz, ...(p.email ? { email: p.email } : {}) });
});
afterAll(async () => {
  await slack.stop();
  await platform.close();
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-reminders-'));
  store = await openStore({ dataDir: dir });
  now = new Date();
  // Each test starts from an enterprise without conferences in the look-ahead.
  for (const c of platform.sim.state.conferences.values())
    if (c.startTime > Date.now() - 3600_000) platform.sim.state.conferences.delete(c.id);
  return async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  };
});

const minutes = (m: number) => new Date(now.getTime() + m * 60_000);

function reminderJob(directory = new Directory(platform.client)) {
  return new ReminderJob({
    platform: platform.client,
    store,
    slack: new DirectMessages(deliveryClient({ token: 'xoxb-test', apiUrl: slack.apiUrl })),
    directory,
    logger: createLogger('silent'),
    scanEveryMs: () => 60_000,
    now: () => now,
  });
}

async function conference(o: { start: Date; name?: string; reminder?: number; participants?: string[] }) {
  const c = await platform.client.createConference({
    participants: o.participants ?? [people.alice.email, people.bob.email, outsider.email, '+33612345678'],
    name: o.name ?? 'Weekly sync',
    startTime: o.start,
    duration: 30,
    ...(o.reminder ? { reminder: o.reminder } : {}),
  });
  return String(c.id);
}

const conferenceLists = () =>
  platform.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/conferences').length;

const waiting = async () =>
  (await store.waitingReminders()).map((i) => [i.channel, i.eventId.split(':')[1]]).sort();

describe('the reminder job', () => {
  it('writes one reminder per Slack member and the moderator, in their DMs, held until 10 minutes before', async () => {
    const id = await conference({ start: minutes(10.5) });
    const lists = conferenceLists();
    const scan = await reminderJob().runOnce();
    expect(scan).toMatchObject({ conferences: 1, written: 3, dropped: 0 });
    expect(conferenceLists() - lists).toBe(1);
    expect(await waiting()).toEqual([
      [dmChannelOf(people.admin.id), people.admin.id],
      [dmChannelOf(people.alice.id), people.alice.id],
      [dmChannelOf(people.bob.id), people.bob.id],
    ]);
    const [item] = await store.outboxOf(`conference:${id}`);
    expect(item?.eventId).toMatch(
      new RegExp(`^reminder:U[A-Z]+:${minutes(10.5).toISOString().slice(0, 16)}`),
    );
    // Held until it is due: delivery cannot claim it yet.
    expect(await store.claim('me', 10, 60_000)).toEqual([]);
    // The moderator's says who was invited: Slack members by id, the others as entered.
    const mod = (await store.outboxOf(`conference:${id}`)).find(
      (i) => i.channel === dmChannelOf(people.admin.id),
    );
    expect(mod?.payload.invited).toEqual({
      members: [people.alice.id, people.bob.id],
      outside: [outsider.email, '+33612345678'],
    });
    expect(mod?.payload.joinUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/join\//);
  });

  it('writes each reminder once however many scans see it (idempotent across scans and restarts)', async () => {
    await conference({ start: minutes(5) });
    expect((await reminderJob().runOnce()).written).toBe(3);
    expect((await reminderJob().runOnce()).written).toBe(0);
    now = minutes(1);
    expect((await reminderJob().runOnce()).written).toBe(0);
    expect(await waiting()).toHaveLength(3);
  });

  it('waits for a reminder not due before the next scan, and writes it when it is', async () => {
    await conference({ start: minutes(30) });
    const job = reminderJob();
    expect(await job.runOnce()).toMatchObject({ conferences: 1, written: 0 });
    now = minutes(19.5);
    expect((await job.runOnce()).written).toBe(3);
  });

  it('takes back the reminders of a conference deleted meanwhile: nobody is reminded', async () => {
    const id = await conference({ start: minutes(10.5) });
    const job = reminderJob();
    expect((await job.runOnce()).written).toBe(3);
    await platform.client.deleteConference({ conferenceId: id });
    expect(await job.runOnce()).toMatchObject({ conferences: 0, written: 0, dropped: 3 });
    expect(await store.outboxOf(`conference:${id}`)).toEqual([]);
  });

  it('reminds of a moved conference at its new time: the old reminders are taken back', async () => {
    const id = await conference({ start: minutes(10.5) });
    const job = reminderJob();
    await job.runOnce();
    const moved = new Date(Math.floor(minutes(40).getTime() / 1000) * 1000);
    await platform.client.updateConference({ conferenceId: id, startTime: moved });
    expect(await job.runOnce()).toMatchObject({ written: 0, dropped: 3 });
    now = minutes(29.5);
    expect((await job.runOnce()).written).toBe(3);
    const items = await store.outboxOf(`conference:${id}`);
    expect(items).toHaveLength(3);
    expect(items.every((i) => i.eventId.endsWith(moved.toISOString()))).toBe(true);
  });

  it('reminds of no conference that started while the bot was stopped, and at once of one due but not started', async () => {
    await conference({ start: minutes(-5), name: 'Started' });
    const soon = await conference({ start: minutes(4), name: 'Soon' });
    const scan = await reminderJob().runOnce();
    expect(scan).toMatchObject({ conferences: 1, written: 3 });
    const claimed = await store.claim('me', 10, 60_000);
    expect(new Set(claimed.map((i) => i.ticketId))).toEqual(new Set([`conference:${soon}`]));
  });

  it('keeps a waiting reminder Slack’s pace held past the start for two minutes, then takes it back', async () => {
    await conference({ start: minutes(5) });
    const job = reminderJob();
    expect((await job.runOnce()).written).toBe(3);
    now = minutes(6);
    expect(await job.runOnce()).toMatchObject({ written: 0, dropped: 0 });
    expect(await waiting()).toHaveLength(3);
    now = minutes(2.5);
    expect(await job.runOnce()).toMatchObject({ written: 0, dropped: 3 });
  });

  it('follows each person’s choice: off, or their own lead time before the conference’s', async () => {
    await store.setReminderPrefs(people.alice.id, { enabled: false });
    await store.setReminderPrefs(people.bob.id, { enabled: true, leadMinutes: 30 });
    const id = await conference({ start: minutes(20.5), reminder: 25 });
    const job = reminderJob();
    await job.runOnce();
    // Bob (30 min) is due now; the moderator (the conference's 25 min) now too; alice never.
    expect(await waiting()).toEqual([
      [dmChannelOf(people.admin.id), people.admin.id],
      [dmChannelOf(people.bob.id), people.bob.id],
    ]);
    const bob = (await store.outboxOf(`conference:${id}`)).find(
      (i) => i.channel === dmChannelOf(people.bob.id),
    );
    expect(bob?.payload.leadMinutes).toBe(30);
    // Bob turns his off before his reminder went: it is taken back.
    await store.setReminderPrefs(people.bob.id, { enabled: false });
    expect((await job.runOnce()).dropped).toBe(1);
    expect(await waiting()).toEqual([[dmChannelOf(people.admin.id), people.admin.id]]);
  });

  it('reads the list once a scan for every conference, and asks Slack about each e-mail once', async () => {
    for (let i = 0; i < 12; i++) await conference({ start: minutes(5 + i / 10), name: `Conf ${i}` });
    const job = reminderJob();
    const lists = conferenceLists();
    const lookups = slack.calls.filter((c) => c.method === 'users.lookupByEmail').length;
    expect((await job.runOnce()).written).toBe(36);
    expect(conferenceLists() - lists).toBe(1);
    // alice, bob, the outsider and the moderator's e-mail: once each for twelve conferences.
    expect(slack.calls.filter((c) => c.method === 'users.lookupByEmail').length - lookups).toBe(4);
    await job.runOnce();
    expect(conferenceLists() - lists).toBe(2);
    expect(slack.calls.filter((c) => c.method === 'users.lookupByEmail').length - lookups).toBe(4);
  });

  it('finds a participant and the moderator by their identity links when their e-mails differ', async () => {
    slack.addUser({ id: 'UCARLA', tz: 'UTC', email: 'carla@slack-only.example' });
    const admin = [...platform.sim.state.users.values()].find((u) => u.username === 'admin');
    const bob = [...platform.sim.state.users.values()].find((u) => u.username === 'bob');
    await store.linkUser({
      team: 'T1',
      slackUserId: 'UCARLA',
      platformUserId: String(bob?.id),
      linkedBy: people.admin.id,
      linkedAt: new Date(),
    });
    await store.linkUser({
      team: 'T1',
      slackUserId: 'UMODLINK',
      platformUserId: String(admin?.id),
      linkedBy: people.admin.id,
      linkedAt: new Date(),
    });
    slack.addUser({ id: 'UMODLINK', tz: 'UTC' });
    await conference({ start: minutes(5), participants: [people.bob.email] });
    await reminderJob().runOnce();
    expect(await waiting()).toEqual([
      [dmChannelOf('UCARLA'), 'UCARLA'],
      [dmChannelOf('UMODLINK'), 'UMODLINK'],
    ]);
    await store.unlinkUser('T1', 'UCARLA');
    await store.unlinkUser('T1', 'UMODLINK');
  });
});
