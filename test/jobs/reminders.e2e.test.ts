import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Confdesk, createConfdesk } from '../../src/confdesk.js';
import { dmChannelOf, SlackDouble, type SlackMessage } from '../../src/dev/slack-double.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStore, type Store } from '../../src/store/store.js';
import { people } from '../helpers/people.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/*
 * Conference reminders end to end: the real bot (its jobs, the outbox, delivery) against the platform
 * simulator and the Slack double over loopback, in real time. A conference created on the simulator
 * reaches each participant's DM once, with its Join button; the bot stopped and started again over
 * the same store sends nothing twice.
 */

let platform: PlatformFixture;
let slack: SlackDouble;
let dataDir: string;
let store: Store;
let bot: Confdesk;

async function startConfdesk(): Promise<Confdesk> {
  store = await openStore({ dataDir });
  const c = createConfdesk({
    slack: { botToken: 'xoxb-e2e', signingSecret: 'e2e-secret', apiUrl: slack.apiUrl, port: 0 },
    platform: platform.client,
    store,
    logger: createLogger((process.env.TEST_LOG as 'silent') ?? 'silent'),
    jobs: { pollIntervalMs: 60_000, reminderScanMs: 200, deliverEveryMs: 50, paceMs: 20 },
  });
  await c.start();
  return c;
}

async function stopConfdesk(): Promise<void> {
  await bot.stop();
  await store.close();
}

beforeAll(async () => {
  platform = await startPlatform();
  slack = await new SlackDouble().start();
  for (const p of [people.admin, people.alice, people.bob])
    slack.addUser({ id: p.id, tz: p.tz, ...(p.email ? { email: p.email } : {}) });
  // Alice's Slack speaks French: her reminders are French, the others' English.
  slack.addUser({ id: people.alice.id, tz: people.alice.tz, email: people.alice.email, locale: 'fr-FR' });
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-reminders-e2e-'));
  bot = await startConfdesk();
});
afterAll(async () => {
  await stopConfdesk();
  await slack.stop();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const reminders = (): SlackMessage[] =>
  slack.messages.filter(
    (m) => m.channel.startsWith('D') && JSON.stringify(m.blocks ?? []).includes('reminder_join'),
  );

describe('conference reminders, end to end', () => {
  it('a conference created on the platform reminds each participant in Slack once, in their DM, with its Join button', async () => {
    const conf = await platform.client.createConference({
      participants: [people.alice.email, people.bob.email, 'guest@elsewhere.example'],
      name: 'Design review <!channel>',
      startTime: new Date(Date.now() + 8 * 60_000),
      duration: 30,
    });
    await vi.waitFor(() => expect(reminders()).toHaveLength(3), { timeout: 15_000, interval: 50 });
    const byChannel = new Map(reminders().map((m) => [m.channel, m]));
    expect([...byChannel.keys()].sort()).toEqual(
      [people.admin.id, people.alice.id, people.bob.id].map(dmChannelOf).sort(),
    );
    // Each went through conversations.open, to a D… channel.
    expect(new Set(slack.dmOpens)).toEqual(new Set([people.admin.id, people.alice.id, people.bob.id]));
    const alice = byChannel.get(dmChannelOf(people.alice.id)) as SlackMessage;
    expect(alice.text).toContain('Design review &lt;!channel&gt;');
    expect(alice.text).not.toContain('<!channel>');
    expect(JSON.stringify(alice.blocks)).toContain(`"url":"${platform.sim.url}/join/`);
    expect(JSON.stringify(alice.blocks)).not.toContain('guest@elsewhere.example');
    // The moderator (the platform account that created it) is told who is and is not in Slack.
    const admin = byChannel.get(dmChannelOf(people.admin.id)) as SlackMessage;
    expect(JSON.stringify(admin.blocks)).toContain(`<@${people.alice.id}>, <@${people.bob.id}>`);
    expect(JSON.stringify(admin.blocks)).toContain('guest@elsewhere.example');
    expect(slack.violations).toEqual([]);
    // Tagged for the ledger: a lost answer is looked up, never posted again blindly.
    expect(alice.metadata).toMatchObject({
      event_type: 'confdesk_ticket_event',
      event_payload: { ticket_id: `conference:${conf.id}` },
    });
  });

  it('each reminder is in its recipient’s Slack language: French for a fr-FR person, English otherwise', () => {
    const byChannel = new Map(reminders().map((m) => [m.channel, m]));
    const alice = JSON.stringify(byChannel.get(dmChannelOf(people.alice.id)));
    const bob = JSON.stringify(byChannel.get(dmChannelOf(people.bob.id)));
    expect(alice).toContain('* commence <!date^');
    expect(alice).toContain('"text":"Rejoindre"');
    expect(alice).toContain('Rappel\u202f: Design review');
    expect(alice).not.toContain(' starts ');
    expect(bob).toContain('* starts <!date^');
    expect(bob).toContain('"text":"Join"');
    expect(bob).not.toContain('commence');
  });

  it('the bot stopped and started again over the same store reminds nobody twice', async () => {
    const before = reminders().length;
    const lists = platform.sim.requests.filter(
      (r) => r.method === 'GET' && r.path === '/api/v3/conferences',
    ).length;
    await stopConfdesk();
    bot = await startConfdesk();
    await vi.waitFor(
      () =>
        expect(
          platform.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/conferences').length,
        ).toBeGreaterThan(lists + 2),
      { timeout: 15_000, interval: 50 },
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(reminders()).toHaveLength(before);
  });
});
