import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import type { PickerDeps } from '../../../src/slack/deps.js';
import { handlePicker, type PickerList } from '../../../src/slack/options/pickers.js';
import { fakeSlack, recorder, services, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

type Args = Parameters<ReturnType<typeof handlePicker>>[0];

/** The type-ahead menus: answered from the directory, with what the person typing may pick. */
const platform = usePlatform();
let deps: PickerDeps;
beforeAll(() => {
  deps = services(platform.client, fakeSlack());
});

/** The labels (or the notice) the menu `list` shows to `user` typing `value`. */
async function typed(list: PickerList, user: string, value: string): Promise<string[]> {
  const ack = recorder<{ options: { text: { text: string } }[] }>();
  const body = { type: 'block_suggestion', user: { id: user }, action_id: ids.options[list], value };
  await handlePicker(deps, list)({ ack: ack.fn, body } as unknown as Args);
  expect(ack.given).toHaveLength(1);
  return (ack.given[0]?.options ?? []).map((o) => o.text.text);
}

describe('the type-ahead menus', () => {
  it('offer an agent the agents of their groups, and an admin everyone', async () => {
    const agent = await typed('agents', people.alice.id, '');
    expect(agent.some((l) => l.startsWith('Bob'))).toBe(true);
    expect(agent.some((l) => l.startsWith('Carol'))).toBe(false);
    const admin = await typed('agents', people.admin.id, 'carol');
    expect(admin).toEqual([expect.stringMatching(/^Carol/)]);
  });

  it('offer an agent their own groups only', async () => {
    expect(await typed('groups', people.alice.id, '')).toEqual(['Level 1']);
    expect(await typed('groups', people.admin.id, 'level')).toEqual(['Level 1', 'Level 2']);
  });

  it('tell a person without an account why there is nothing, in the menu', async () => {
    expect(await typed('users', people.nobody.id, 'a')).toEqual([
      expect.stringContaining('Your Slack e-mail has no account'),
    ]);
    expect(await typed('users', people.nomail.id, 'a')).toEqual([expect.stringContaining('no e-mail')]);
  });
});
