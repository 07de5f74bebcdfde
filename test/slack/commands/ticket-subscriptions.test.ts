import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionService } from '../../../src/services/subscriptions.js';
import { handleSubscriptionCommand } from '../../../src/slack/commands/ticket-subscriptions.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { fakeSlack, recorder, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** `/ticket watch|unwatch|follow|subscriptions`, over an embedded store of their own. */
const platform = usePlatform();
let store: Store;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-subscriptions-'));
  store = await openStore({ dataDir: dir });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function subscription(
  user: string,
  verb: 'watch' | 'unwatch' | 'follow' | 'subscriptions',
  arg: string,
  channel = 'CSUBS',
) {
  const { deps } = ticketDeps(platform.client, fakeSlack());
  const cards: string[] = [];
  const replies = recorder();
  const run = handleSubscriptionCommand(
    {
      ...deps,
      subscriptions: new SubscriptionService(store),
      postCard: async (where, ticket) => void cards.push(`${where} ${ticket.seen.id}`),
    },
    verb,
    arg,
    { user, channel, locale: 'en' },
    replies.fn,
  );
  return { run, replies, cards };
}

describe('the subscription verbs', () => {
  it('watch posts the card where the channel has none and says so; a second watch says it already is', async () => {
    const first = await subscription(people.alice.id, 'watch', 'ACME-1001');
    await first.run;
    expect(first.cards).toEqual([expect.stringMatching(/^CSUBS \d+$/)]);
    expect(first.replies.text()).toContain('ACME-1001');
    const again = await subscription(people.alice.id, 'watch', 'ACME-1001');
    await again.run;
    expect(again.replies.text()).toMatch(/already/i);
    expect(await store.subscriptionsOf('CSUBS')).toHaveLength(1);
  });

  it('subscriptions lists what the channel follows; unwatch stops it', async () => {
    const list = await subscription(people.alice.id, 'subscriptions', '');
    await list.run;
    expect(list.replies.text()).toContain('ACME-1001');
    const stop = await subscription(people.alice.id, 'unwatch', 'ACME-1001');
    await stop.run;
    expect(await store.subscriptionsOf('CSUBS')).toEqual([]);
  });

  it('refuses to watch a ticket of another group, and a follow of every group to an agent', async () => {
    const other = await subscription(people.alice.id, 'watch', 'ACME-1004', 'CREFUSED');
    await expect(other.run).rejects.toMatchObject({ code: 'not_allowed' });
    const all = await subscription(people.alice.id, 'follow', '', 'CREFUSED');
    await expect(all.run).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('follow every group'),
    });
    expect(await store.subscriptionsOf('CREFUSED')).toEqual([]);
  });

  it('follows a group its member belongs to; a filter it cannot read is said, nothing followed', async () => {
    const mine = await subscription(people.alice.id, 'follow', 'group:"Level 1"', 'CFOLLOW');
    await mine.run;
    expect(await store.subscriptionsOf('CFOLLOW')).toEqual([expect.objectContaining({ kind: 'follow' })]);
    const bad = await subscription(people.alice.id, 'follow', 'states:sideways', 'CBAD');
    await bad.run;
    expect(bad.replies.given).toHaveLength(1);
    expect(await store.subscriptionsOf('CBAD')).toEqual([]);
  });

  // issue 37: reactions
  it('follow reactions turns a channel’s reactions on (once), naming the emoji; off turns them off', async () => {
    const on = await subscription(people.alice.id, 'follow', 'reactions', 'CREACT');
    await on.run;
    expect(on.replies.text()).toContain(':ticket:');
    expect(on.replies.text()).toContain('now act on tickets');
    expect((await store.subscriptionsOf('CREACT')).map((s) => s.kind)).toEqual(['reactions']);
    const again = await subscription(people.alice.id, 'follow', 'reactions', 'CREACT');
    await again.run;
    expect(again.replies.text()).toContain('already act on tickets');
    expect(await store.subscriptionsOf('CREACT')).toHaveLength(1);
    const list = await subscription(people.alice.id, 'subscriptions', '', 'CREACT');
    await list.run;
    expect(list.replies.text()).toContain('Reactions act on tickets');
    const off = await subscription(people.alice.id, 'follow', 'reactions off', 'CREACT');
    await off.run;
    expect(off.replies.text()).toContain('no longer act on tickets');
    expect(await store.subscriptionsOf('CREACT')).toEqual([]);
  });

  it('follow with a filter and reactions does both; reactions need an account, and only their author or an admin turns them off', async () => {
    const both = await subscription(people.alice.id, 'follow', 'group:"Level 1" reactions', 'CBOTH');
    await both.run;
    expect((await store.subscriptionsOf('CBOTH')).map((s) => s.kind).sort()).toEqual(['follow', 'reactions']);
    const nobody = await subscription(people.nobody.id, 'follow', 'reactions', 'CNOBODY');
    await expect(nobody.run).rejects.toMatchObject({ code: 'no_platform_account' });
    expect(await store.subscriptionsOf('CNOBODY')).toEqual([]);
    const bob = await subscription(people.bob.id, 'follow', 'reactions off', 'CBOTH');
    await expect(bob.run).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('remove this subscription'),
    });
    expect((await store.subscriptionsOf('CBOTH')).map((s) => s.kind).sort()).toEqual(['follow', 'reactions']);
    const admin = await subscription(people.admin.id, 'follow', 'reactions off', 'CBOTH');
    await admin.run;
    expect((await store.subscriptionsOf('CBOTH')).map((s) => s.kind)).toEqual(['follow']);
  });
});
