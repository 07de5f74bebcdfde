import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropStore, openStore, workspaceStoreOptions } from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/*
 * Distribution mode's part of the store (issue 23): the installations and settings of the process's
 * registry, and each workspace's own store beside it, dropped whole on uninstall. Both backends.
 */

const backends = storeBackends('workspace store tests');

describe.each(backends)('workspaces in the store, $name', ({ options }) => {
  it('keeps installations and settings by team, and forgets exactly one team', async () => {
    const store = await openStore(options());
    try {
      await store.saveInstallation('TA', 'sealed-a', new Date('2026-11-25T10:00:00Z'));
      await store.saveInstallation('TB', 'sealed-b', new Date('2026-11-25T10:00:00Z'));
      await store.saveInstallation('TA', 'sealed-a2', new Date('2026-11-25T11:00:00Z'));
      await store.saveWorkspaceSettings('TA', '{"a":1}');
      await store.saveWorkspaceSettings('TB', '{"b":1}');
      await store.saveInstallation('TC', 'sealed-c', new Date('2026-11-25T12:00:00Z'));
      await store.saveWorkspaceSettings('TNOTINSTALLED', '{"x":1}');
      // One read of what every replica compares: install times, settings as kept (or none).
      expect(await store.installedWorkspaces()).toEqual([
        { team: 'TA', installedAt: new Date('2026-11-25T11:00:00Z'), settings: '{"a":1}' },
        { team: 'TB', installedAt: new Date('2026-11-25T10:00:00Z'), settings: '{"b":1}' },
        { team: 'TC', installedAt: new Date('2026-11-25T12:00:00Z'), settings: undefined },
      ]);
      await store.forgetWorkspace('TC');
      await store.forgetWorkspace('TNOTINSTALLED');
      expect(await store.installedTeams()).toEqual(['TA', 'TB']);
      expect(await store.installation('TA')).toBe('sealed-a2');
      await store.forgetWorkspace('TA');
      expect(await store.installedTeams()).toEqual(['TB']);
      expect(await store.installation('TA')).toBeUndefined();
      expect(await store.workspaceSettings('TA')).toBeUndefined();
      expect(await store.workspaceSettings('TB')).toBe('{"b":1}');
    } finally {
      await store.close();
    }
  });

  it("a workspace's own store is separate from the registry's and from another workspace's, and dropped whole", async () => {
    const base = options();
    const registry = await openStore(base);
    const a = await openStore(workspaceStoreOptions(base, 'TALPHA'));
    const b = await openStore(workspaceStoreOptions(base, 'TBETA'));
    try {
      await a.addSubscription({
        id: '00000000-0000-4000-8000-000000000001',
        channel: 'CA',
        kind: 'watch',
        ticketId: '1',
        filter: {},
        createdBy: 'UA',
      });
      expect(await a.subscriptionsBy('UA')).toHaveLength(1);
      expect(await b.subscriptionsBy('UA')).toEqual([]);
      expect(await registry.subscriptionsBy('UA')).toEqual([]);
      // Its digests, cards and queue too.
      await a.addDigestSchedule({
        id: 'd1',
        channel: 'CA',
        zone: 'Europe/Paris',
        time: '09:00',
        weekdays: [1],
        createdBy: 'UA',
      });
      await a.save({ ticketId: '7', channel: 'CA', ts: '1.2' });
      await a.advance([{ ticketId: '7', eventId: 'e1', channel: 'CA', payload: { eventName: 'x' } }]);
      expect(await b.digestSchedules()).toEqual([]);
      expect(await b.forTicket('7')).toEqual([]);
      expect(await b.claim('bot', 10, 60_000)).toEqual([]);
      expect(await registry.digestSchedules()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
    await dropStore(workspaceStoreOptions(base, 'TALPHA'));
    if (base.dataDir) expect(existsSync(join(base.dataDir, 'workspaces', 'TALPHA'))).toBe(false);
    const again = await openStore(workspaceStoreOptions(base, 'TALPHA'));
    const stillB = await openStore(workspaceStoreOptions(base, 'TBETA'));
    try {
      expect(await again.subscriptionsBy('UA')).toEqual([]);
      expect(await again.digestSchedules()).toEqual([]);
      expect(await again.forTicket('7')).toEqual([]);
      expect(await again.claim('bot', 10, 60_000)).toEqual([]);
      expect(await stillB.subscriptionsBy('UA')).toEqual([]);
    } finally {
      await again.close();
      await stillB.close();
      await registry.close();
      await dropStore(workspaceStoreOptions(base, 'TALPHA'));
      await dropStore(workspaceStoreOptions(base, 'TBETA'));
    }
  });

  it('replaces a value only while it is the one read (a reinstall meanwhile wins), keeping the install time', async () => {
    const store = await openStore(options());
    try {
      const at = new Date('2026-11-25T10:00:00Z');
      await store.saveInstallation('TA', 'old', at);
      expect(await store.replaceInstallation('TA', 'old', 'resealed')).toBe(true);
      expect(await store.installation('TA')).toBe('resealed');
      expect((await store.installedAt('TA'))?.toISOString()).toBe(at.toISOString());
      // What was read is no longer there (a reinstall came): nothing is replaced.
      await store.saveInstallation('TA', 'reinstalled', new Date('2026-11-25T11:00:00Z'));
      expect(await store.replaceInstallation('TA', 'resealed', 'stale')).toBe(false);
      expect(await store.installation('TA')).toBe('reinstalled');
      expect(await store.installedAt('TB')).toBeUndefined();
      await store.saveWorkspaceSettings('TA', '{"a":1}');
      expect(await store.replaceWorkspaceSettings('TA', '{"a":0}', '{"a":2}')).toBe(false);
      expect(await store.replaceWorkspaceSettings('TA', '{"a":1}', '{"a":2}')).toBe(true);
      expect(await store.workspaceSettings('TA')).toBe('{"a":2}');
      // Another scope's row with the same key and value is never touched.
      expect(await store.replaceWorkspaceSettings('TB', '{"a":2}', '{"b":3}')).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('an install state is used once across replicas, and forgotten once it has expired', async () => {
    const base = options();
    const one = await openStore(base);
    const two = await openStore(base);
    try {
      const now = new Date('2026-11-25T10:00:00Z');
      const until = new Date('2026-11-25T10:10:00Z');
      const tries = await Promise.all([
        one.useInstallState('digest-a', until, now),
        two.useInstallState('digest-a', until, now),
        one.useInstallState('digest-a', until, now),
      ]);
      expect(tries.filter(Boolean)).toHaveLength(1);
      expect(await two.useInstallState('digest-b', until, now)).toBe(true);
      // After its expiry the record goes (the state itself no longer verifies by then).
      const later = new Date('2026-11-25T10:11:00Z');
      expect(await one.useInstallState('digest-c', new Date('2026-11-25T10:21:00Z'), later)).toBe(true);
      expect(await one.useInstallState('digest-a', new Date('2026-11-25T10:21:00Z'), later)).toBe(true);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('records once since when every secret is bound to its workspace', async () => {
    const store = await openStore(options());
    try {
      expect(await store.secretsBoundSince()).toBeUndefined();
      await store.noteSecretsBound(new Date('2026-11-25T10:00:00Z'));
      await store.noteSecretsBound(new Date('2026-11-26T10:00:00Z'));
      expect((await store.secretsBoundSince())?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    } finally {
      await store.close();
    }
  });

  it('refuses what is not a Slack team id as a store name', () => {
    expect(() => workspaceStoreOptions(options(), '../etc')).toThrow(/team id/);
    expect(() => workspaceStoreOptions(options(), 'T1"; drop')).toThrow(/team id/);
  });
});

describe('workspace schemas on PostgreSQL', () => {
  it('refuses a schema name PostgreSQL would cut to 63 bytes (two teams would share one schema)', () => {
    const base = {
      databaseUrl: 'postgres://localhost/x',
      schema: 'a_rather_long_schema_name_for_confdesk_here',
    };
    expect(() => workspaceStoreOptions(base, 'T0123456789ABCDEF')).toThrow(/63/);
    expect(workspaceStoreOptions({ databaseUrl: 'postgres://localhost/x' }, 'T0123ABCD').schema).toBe(
      'confdesk_ws_t0123abcd',
    );
  });
});
