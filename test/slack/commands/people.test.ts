import { describe, expect, it } from 'vitest';
import { handleAdminPeople, handlePasswordCommand } from '../../../src/slack/commands/people.js';
import {
  eventually,
  fakeSlack,
  recorder,
  services,
  silent,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** `/conference admin people|groups` and `/conference password [login]`, after the ack. */
const platform = usePlatform();

const at = (slack: ReturnType<typeof fakeSlack>, user: string) => ({
  user,
  triggerId: 'trigger',
  client: slack.client,
  log: silent,
  channel: 'C1',
  locale: 'en' as const,
});

describe('/conference admin people|groups', () => {
  it('opens the People browser on the words searched, or the Groups browser', async () => {
    const slack = fakeSlack();
    await handleAdminPeople(services(platform.client, slack), 'people carol', at(slack, people.admin.id));
    await eventually(() => expect(slack.callsOf('views.update')).toHaveLength(1));
    const found = JSON.stringify(slack.callsOf('views.update'));
    expect(found).toContain('Carol');
    expect(found).not.toContain('Alice');
    const groups = fakeSlack();
    await handleAdminPeople(services(platform.client, groups), 'groups', at(groups, people.admin.id));
    await eventually(() => expect(groups.callsOf('views.update')).toHaveLength(1));
    expect(JSON.stringify(groups.callsOf('views.update'))).toContain('Level 2');
  });

  it('says it is not wired without the people tools, and shows an agent the refusal', async () => {
    const slack = fakeSlack();
    await expect(handleAdminPeople({}, 'people', at(slack, people.admin.id))).rejects.toMatchObject({
      code: 'not_wired',
    });
    expect(slack.calls).toEqual([]);
    await handleAdminPeople(services(platform.client, slack), 'people', at(slack, people.alice.id));
    await eventually(() => expect(slack.callsOf('views.update')).toHaveLength(1));
    expect(JSON.stringify(slack.callsOf('views.update'))).toContain('list the platform’s users');
  });
});

describe('/conference password', () => {
  it('sends an admin’s reset for another login and says where it went, replacing the "Working…"', async () => {
    const before = platform.sim.state.passwordResets.length;
    const replies = recorder();
    await handlePasswordCommand(services(platform.client, fakeSlack()), 'bob', {
      user: people.admin.id,
      respond: replies.fn,
      locale: 'en',
    });
    expect(platform.sim.state.passwordResets.slice(before)).toEqual([
      expect.objectContaining({ login: 'bob' }),
    ]);
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: true }),
    ]);
  });

  it('refuses an agent another person’s reset, sending nothing', async () => {
    const before = platform.sim.state.passwordResets.length;
    const replies = recorder();
    await expect(
      handlePasswordCommand(services(platform.client, fakeSlack()), 'bob', {
        user: people.alice.id,
        respond: replies.fn,
        locale: 'en',
      }),
    ).rejects.toMatchObject({ code: 'not_allowed' });
    expect(platform.sim.state.passwordResets.length).toBe(before);
    expect(replies.given).toEqual([]);
  });
});
