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
