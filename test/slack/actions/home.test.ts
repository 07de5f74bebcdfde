import { describe, expect, it } from 'vitest';
import {
  handleHomeDigestRemove,
  handleHomeRequeueDead,
  handleHomeSubscriptionRemove,
} from '../../../src/slack/actions/home.js';
import type { HomeDeps } from '../../../src/slack/deps.js';
import type { StoredDigestSchedule } from '../../../src/store/digests.js';
import type { Subscription } from '../../../src/store/subscriptions.js';
import { click, fakeSlack, services, silent, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** App Home's buttons: each checks the policy, changes the store, then publishes the person's Home again. */
const platform = usePlatform();

const subscription = (createdBy: string): Subscription => ({
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  channel: 'C1',
  kind: 'watch',
  ticketId: '1',
  filter: {},
  createdBy,
  createdAt: new Date(),
});

/** The Home's deps over a store of one subscription, one digest and dead letters; what changed is kept. */
function home(o: { subscriptions?: Subscription[]; digests?: StoredDigestSchedule[] } = {}) {
  const slack = fakeSlack();
  const done: string[] = [];
  const deps: HomeDeps = {
    access: services(platform.client, slack).access,
    logger: silent,
    homes: {
      opened: async (user) => void done.push(`opened ${user}`),
      refresh: async (user) => void done.push(`refresh ${user}`),
    },
    store: {
      subscriptionsBy: async (user) => (o.subscriptions ?? []).filter((s) => s.createdBy === user),
      removeSubscription: async (id) => Boolean(done.push(`removed ${id}`)),
      digestSchedules: async () => o.digests ?? [],
      removeDigestSchedule: async (id) => Boolean(done.push(`removed digest ${id}`)),
      requeueDead: async () => done.push('requeued'),
    },
  };
  return { deps, done, slack };
}

describe('Home’s Remove on a subscription', () => {
  it('removes one the person added, then refreshes their Home', async () => {
    const { deps, done, slack } = home({ subscriptions: [subscription(people.alice.id)] });
    const { c } = click(slack, { user: people.alice.id, value: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    await handleHomeSubscriptionRemove(deps)(c);
    expect(done).toEqual([`removed 7c9e6679-7425-40de-944b-e07fc1f90ae7`, `refresh ${people.alice.id}`]);
  });

  it('refuses one the person did not add as out of date, and a forged id, changing nothing', async () => {
    const { deps, done, slack } = home({ subscriptions: [subscription(people.admin.id)] });
    const other = click(slack, { user: people.alice.id, value: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    await expect(handleHomeSubscriptionRemove(deps)(other.c)).rejects.toMatchObject({ code: 'stale_button' });
    const forged = click(slack, { user: people.admin.id, value: 'not-a-uuid' });
    await expect(handleHomeSubscriptionRemove(deps)(forged.c)).rejects.toMatchObject({
      code: 'stale_button',
    });
    expect(done).toEqual([]);
  });
});

describe('Home’s Remove on a digest', () => {
  const digest = (createdBy: string): StoredDigestSchedule => ({
    id: 'd1',
    channel: 'C1',
    zone: 'Europe/Paris',
    time: '09:00',
    weekdays: [1],
    createdBy,
  });

  it('removes an admin’s own digest, then refreshes their Home', async () => {
    const { deps, done, slack } = home({ digests: [digest(people.admin.id)] });
    await handleHomeDigestRemove(deps)(click(slack, { user: people.admin.id, value: 'd1' }).c);
    expect(done).toEqual(['removed digest d1', `refresh ${people.admin.id}`]);
  });

  it('refuses a person who is no longer an admin with the policy’s sentence, and another’s digest as stale', async () => {
    const { deps, done, slack } = home({ digests: [digest(people.alice.id)] });
    await expect(
      handleHomeDigestRemove(deps)(click(slack, { user: people.alice.id, value: 'd1' }).c),
    ).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('video platform admins'),
    });
    await expect(
      handleHomeDigestRemove(deps)(click(slack, { user: people.admin.id, value: 'd1' }).c),
    ).rejects.toMatchObject({ code: 'stale_button' });
    expect(done).toEqual([]);
  });
});

describe('Home’s Requeue all', () => {
  it('gives the dead letters another try for an admin', async () => {
    const { deps, done, slack } = home();
    await handleHomeRequeueDead(deps)(click(slack, { user: people.admin.id }).c);
    expect(done).toEqual(['requeued', `refresh ${people.admin.id}`]);
  });

  it('refuses an agent, and a person without a platform account with how to get one', async () => {
    const { deps, done, slack } = home();
    await expect(
      handleHomeRequeueDead(deps)(click(slack, { user: people.alice.id }).c),
    ).rejects.toMatchObject({
      code: 'not_allowed',
    });
    await expect(
      handleHomeRequeueDead(deps)(click(slack, { user: people.nobody.id }).c),
    ).rejects.toMatchObject({
      code: 'no_platform_account',
      message: expect.stringContaining('nobody@example.com'),
    });
    expect(done).toEqual([]);
  });
});
