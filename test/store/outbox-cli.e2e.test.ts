import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OutboxItem, openStore, type Store, workspaceStoreOptions } from '../../src/store/store.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-outbox-cli-'));
  store = await openStore({ dataDir: dir, now: () => new Date('2027-01-01T10:00:05Z') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run outbox -- …` as the operator runs it, on this store (no .env in its directory). */
const outbox = (...args: string[]) =>
  run(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/store/outbox-cli.ts'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent' },
  });

describe('the outbox command', () => {
  it('lists the dead letters (time, channel, ticket, event, reason) and leaves a running bot’s leases alone', async () => {
    expect((await outbox('dead')).stdout).toContain('No dead letters');
    const item = (eventId: string) => ({
      ticketId: '7',
      eventId,
      channel: 'C1',
      payload: { eventName: 'x' },
    });
    await store.advance([item('e1'), item('e2')]);
    const [e1, e2] = (await store.claim('bot', 10, 60_000)) as [OutboxItem, OutboxItem];
    await store.settle(e1, { status: 'dead', reason: 'msg_too_long' });
    const { stdout } = await outbox('dead');
    expect(stdout.trim().split('\n')).toEqual([
      'set aside (UTC)\tchannel\tticket\tevent\treason',
      '2027-01-01T10:00:05.000Z\tC1\t7\te1\tmsg_too_long',
    ]);
    // e2 is still the bot's to settle.
    expect(await store.settle(e2, { status: 'delivered', slackTs: '1.2' })).toBe(true);
    // Once the cause is fixed: requeued, pending again, listed no more.
    expect((await outbox('requeue', 'C9')).stdout).toContain('No dead letter to requeue');
    expect((await outbox('requeue', 'all')).stdout).toContain('1 dead letter(s) requeued');
    expect((await store.outboxOf('7')).map((i) => i.status)).toEqual(['pending', 'delivered']);
    expect((await outbox('dead')).stdout).toContain('No dead letters');
  });

  it('explains its usage when the command is not one it knows', async () => {
    const failed = await outbox('deadd').catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('npm run outbox -- dead') });
    const noTarget = await outbox('requeue').catch((e: { code: number; stderr: string }) => e);
    expect(noTarget).toMatchObject({ code: 2, stderr: expect.stringContaining('requeue all|<channel>') });
  });
});

describe('the outbox command in distribution mode (issue 23)', () => {
  const distribution = {
    SLACK_SIGNING_SECRET: 's',
    SLACK_CLIENT_ID: '1.2',
    SLACK_CLIENT_SECRET: 'c',
    SLACK_STATE_SECRET: 'st',
    CONFDESK_ENCRYPTION_KEY: 'a'.repeat(64),
    PUBLIC_URL: 'https://confdesk.example',
  };
  const inDistribution = (...args: string[]) =>
    run(join(root, 'node_modules/.bin/tsx'), [join(root, 'src/store/outbox-cli.ts'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent', ...distribution },
    });

  it('asks which workspace, naming the installed ones, and reads that workspace’s own outbox', async () => {
    await store.saveInstallation('TALPHA', 'sealed', new Date());
    const asked = await inDistribution('dead').catch((e: { code: number; stderr: string }) => e);
    expect(asked).toMatchObject({ code: 2, stderr: expect.stringContaining('Installed: TALPHA') });
    const alpha = await openStore(workspaceStoreOptions({ dataDir: dir }, 'TALPHA'));
    try {
      await alpha.advance([{ ticketId: '9', eventId: 'e9', channel: 'CA', payload: { eventName: 'x' } }]);
      const [e9] = (await alpha.claim('bot', 10, 60_000)) as [OutboxItem];
      await alpha.settle(e9, { status: 'dead', reason: 'channel_not_found' });
    } finally {
      await alpha.close();
    }
    expect((await inDistribution('--workspace', 'TALPHA', 'dead')).stdout).toContain('channel_not_found');
    // The registry's own store has no outbox of its own to show.
    expect((await outbox('dead')).stdout).toContain('No dead letters');
  });
});
