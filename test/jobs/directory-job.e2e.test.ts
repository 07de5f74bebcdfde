import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, people, useBot } from '../helpers/bot.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

/*
 * The directory's job (issue 22) with the bot's jobs running: nothing read before someone types;
 * once loaded, `invalidate()` brings a refresh within the job's 10 s gap, without a picker's help.
 */

const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 3_600_000 });

const directoryReads = () =>
  f.platform.sim.requests.filter((r) => /^\/api\/v3\/enterprises\/\d+\/groups$/.test(r.path)).length;

describe('the directory’s refresh job', () => {
  it('reads nothing before someone types, then refreshes on invalidate() by itself', {
    timeout: 30_000,
  }, async () => {
    await new Promise((r) => setTimeout(r, 300));
    expect(directoryReads()).toBe(0);
    const first = await f.interact(suggestion(people.admin.id, ids.options.users, 'ali'));
    expect(optionsOf(first.body).map((o) => o.text.text)).toEqual(['Alice Martin (alice)']);
    expect(directoryReads()).toBe(1);
    f.platform.sim.state.addUser({
      enterpriseId: 1,
      username: 'dora',
      password: 'x',
      email: 'dora@acme.example',
      cellPhone: undefined,
      firstName: 'Dora',
      lastName: 'Explorer',
      role: 'agent',
    });
    f.confdesk.deps.directory.invalidate();
    await expect.poll(() => directoryReads(), { timeout: 15_000, interval: 200 }).toBe(2);
    expect(f.confdesk.deps.directory.searchUsers('dora', 100).users.map((u) => u.label)).toEqual([
      'Dora Explorer (dora)',
    ]);
  });
});
