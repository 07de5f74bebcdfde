import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../src/platform/client.js';
import { currentLane } from '../../src/platform/lane.js';
import { Directory, personLabel } from '../../src/services/directory.js';

/** A platform client double that records the lane of each call and answers one page of people. */
function fakePlatform(people: { id: number; first_name: string; last_name: string; username: string }[]) {
  const lanes: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const platform = {
    async getMe() {
      lanes.push(`me:${currentLane()}`);
      return { enterprise_id: 1 };
    },
    async *paginate() {
      lanes.push(`users:${currentLane()}`);
      await gate;
      yield* people.map((p) => ({ ...p, email: `${p.username}@acme.example`, role: 'agent', groups: [7] }));
    },
    async listGroups() {
      lanes.push(`groups:${currentLane()}`);
      return { items: [{ id: 7, name: 'Level 1' }] };
    },
  } as unknown as PlatformClient;
  return { platform, lanes, release };
}

describe('the directory', () => {
  it('loads in the backfill lane even when a person’s request starts it, and shares one load', async () => {
    const { platform, lanes, release } = fakePlatform([
      { id: 1, first_name: 'Ada', last_name: 'Admin', username: 'ada' },
    ]);
    const directory = new Directory(platform);
    const first = directory.within(50);
    const second = directory.refresh();
    expect(await first).toBeUndefined(); // not loaded within 50 ms: the picker answers with nothing yet
    release();
    await second;
    expect(lanes).toEqual(['me:backfill', 'users:backfill', 'groups:backfill']);
    expect(directory.searchUsers('ada', 100).users.map((u) => u.label)).toEqual(['Ada Admin (ada)']);
    expect(directory.user('1')?.groupIds).toEqual(['7']);
    expect(directory.group('7')?.label).toBe('Level 1');
  });

  it('asks its job for a refresh on invalidate() once the job is there, and loads itself before', async () => {
    const { platform, lanes, release } = fakePlatform([]);
    release();
    const directory = new Directory(platform);
    directory.invalidate();
    await directory.refresh();
    expect(lanes.filter((l) => l.startsWith('users'))).toHaveLength(1);
    let triggered = 0;
    directory.whenStale(() => triggered++);
    directory.invalidate();
    expect(triggered).toBe(1);
  });

  it('labels people "First Last (login)", or with what there is', () => {
    expect(personLabel({ id: 1, first_name: 'Ada', last_name: 'Admin', username: 'ada' })).toBe(
      'Ada Admin (ada)',
    );
    expect(personLabel({ id: 2, first_name: undefined, last_name: undefined, username: 'bob' })).toBe('bob');
    expect(personLabel({ id: 3, first_name: undefined, last_name: undefined, username: undefined })).toBe(
      'user 3',
    );
  });
});
