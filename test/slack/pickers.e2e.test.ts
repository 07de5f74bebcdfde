import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { noChoice } from '../../src/blocks/options.js';
import { directoryRefreshCost } from '../../src/services/directory.js';
import { type BotFixture, people, useBot } from '../helpers/bot.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

/*
 * The type-ahead pickers with 2,000 more people in the enterprise: signed `block_suggestion`
 * requests into the real receiver, answered from the directory the bot keeps in memory.
 */

const crowd = 2_000;
const f = {} as BotFixture;
useBot(f, { sim: { crowd } });

/** Sends a type-ahead request; answers its options and how long it took. */
const ask = async (user: string, actionId: string, value: string) => {
  const started = performance.now();
  const res = await f.interact(suggestion(user, actionId, value));
  const ms = performance.now() - started;
  expect(res.status).toBe(200);
  return { options: optionsOf(res.body), ms };
};

beforeAll(async () => {
  // The first request starts the load; the tests below read a loaded directory.
  await ask(people.admin.id, ids.options.users, '');
  await f.confdesk.deps.directory.refresh();
});

describe('the type-ahead pickers with 2,000 people', () => {
  it('answers a first-name query with those people, accents ignored, at most 100, within 3 s', async () => {
    const { options, ms } = await ask(people.admin.id, ids.options.users, 'elodie');
    expect(ms).toBeLessThan(3_000);
    expect(options).toHaveLength(100);
    for (const o of options) expect(o.text.text).toMatch(/^Élodie /);
  });

  it('answers a last-name query with those people', async () => {
    const { options } = await ask(people.admin.id, ids.options.users, 'lefevre');
    expect(options.length).toBeGreaterThan(0);
    expect(options.length).toBeLessThanOrEqual(100);
    for (const o of options) expect(o.text.text).toContain(' Lefèvre (');
  });

  it('answers an e-mail query with exactly that person, valued by their platform id', async () => {
    const { options } = await ask(people.admin.id, ids.options.users, 'zoe.novak12@crowd.example');
    const zoe = [...f.platform.sim.state.users.values()].find((u) => u.username === 'zoe.novak12');
    expect(options).toEqual([
      { text: { type: 'plain_text', text: 'Zoë Novak (zoe.novak12)', emoji: true }, value: String(zoe?.id) },
    ]);
  });

  it('answers a login query with the exact login first', async () => {
    const { options } = await ask(people.admin.id, ids.options.moderators, 'zoe.novak12');
    expect(options[0]?.text.text).toBe('Zoë Novak (zoe.novak12)');
    expect(options.every((o) => o.text.text.includes('(zoe.novak12'))).toBe(true);
  });

  it('offers a plain agent only themselves and the people of their groups, and only their groups', async () => {
    const level1 = [...f.platform.sim.state.groups.values()].find((g) => g.name === 'Level 1')?.id;
    const { options } = await ask(people.alice.id, ids.options.agents, 'a');
    expect(options.length).toBeGreaterThan(0);
    for (const o of options)
      expect(f.platform.sim.state.users.get(Number(o.value))?.groups).toContain(level1);
    const groups = await ask(people.alice.id, ids.options.groups, '');
    expect(groups.options.map((o) => o.text.text)).toEqual(['Level 1']);
    const all = await ask(people.admin.id, ids.options.groups, '');
    expect(all.options.map((o) => o.text.text)).toEqual(['Level 1', 'Level 2']);
  });

  it('gives a Slack person without a platform account nothing to pick, only why', async () => {
    const { options } = await ask(people.nobody.id, ids.options.users, 'a');
    expect(options).toEqual([
      {
        text: {
          type: 'plain_text',
          text: 'Your Slack e-mail has no account on the video platform',
          emoji: true,
        },
        value: noChoice,
      },
    ]);
    const nomail = await ask(people.nomail.id, ids.options.agents, 'a');
    expect(nomail.options.map((o) => o.value)).toEqual([noChoice]);
  });

  it('costs the requests it claims per refresh: 5 user pages of 500 and the groups (users/me at most once)', async () => {
    const from = f.platform.sim.requests.length;
    await f.confdesk.deps.directory.refresh();
    const made = f.platform.sim.requests.slice(from).map((r) => r.path);
    const lists = made.filter((p) => /^\/api\/v3\/enterprises\/\d+\/(users|groups)$/.test(p));
    const me = made.filter((p) => p === '/api/v3/users/me');
    const users = f.platform.sim.state.liveUsers(1).length;
    expect(users).toBeGreaterThan(crowd);
    expect(lists).toHaveLength(directoryRefreshCost(users) - 1);
    expect(me.length).toBeLessThanOrEqual(1);
    expect(made.length).toBe(lists.length + me.length);
  });

  it('finds a person the bot created after invalidate() asked for a refresh', async () => {
    f.platform.sim.state.addUser({
      enterpriseId: 1,
      username: 'quentin.newcomer',
      password: 'x',
      email: 'quentin@acme.example',
      cellPhone: undefined,
      firstName: 'Quentin',
      lastName: 'Newcomer',
      role: 'agent',
    });
    expect((await ask(people.admin.id, ids.options.users, 'quentin')).options).toEqual([]);
    f.confdesk.deps.directory.invalidate();
    await expect
      .poll(async () =>
        (await ask(people.admin.id, ids.options.users, 'quentin')).options.map((o) => o.text.text),
      )
      .toEqual(['Quentin Newcomer (quentin.newcomer)']);
  });
});
