import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, eventually, people, useBot } from '../helpers/bot.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

/*
 * `/conference admin link|unlink` (issue 22): admins link a Slack person to a platform account by
 * hand when their e-mails differ; identity uses the link before the e-mail match.
 */

const f = {} as BotFixture;
useBot(f);

const simId = (username: string) =>
  String([...f.platform.sim.state.users.values()].find((u) => u.username === username)?.id);

/** Sends the command as `who`; answers the text of the reply that follows the working message. */
async function admin(text: string, who: string = people.admin.id): Promise<string> {
  const { body, responseUrl } = await f.command(`admin ${text}`, who);
  const acked = JSON.stringify(body ?? '');
  if (!/Looking up|Working/.test(acked)) return acked;
  const reply = await eventually(() =>
    f.slack.responses.find(
      (r) => r.path.endsWith(responseUrl.split('/').at(-1) as string) && r.body.replace_original,
    ),
  );
  return String(reply.body.text);
}

describe('linking a Slack person to a platform account by hand', () => {
  it('makes alice act as bob once an admin links them, and e-mail matching apply again once unlinked', async () => {
    expect((await f.confdesk.deps.identity.platformUser(people.alice.id)).id).toBe(simId('alice'));
    const told = await admin(`link <@${people.alice.id}|alice> <mailto:bob@acme.example|bob@acme.example>`);
    expect(told).toContain(`<@${people.alice.id}> now acts on the video platform as Bob Durand (bob)`);
    expect(await f.store.userLink(people.alice.id)).toMatchObject({
      team: f.slack.teamId,
      platformUserId: simId('bob'),
      linkedBy: people.admin.id,
    });
    // The policy sees bob's account: alice's own groups and role are bob's now.
    const asker = await f.confdesk.deps.access.asker(people.alice.id);
    expect(asker.account).toMatchObject({ id: simId('bob'), username: 'bob' });

    const untold = await admin(`unlink <@${people.alice.id}|alice>`);
    expect(untold).toContain('is no longer linked');
    expect(await f.store.userLink(people.alice.id)).toBeUndefined();
    expect((await f.confdesk.deps.identity.platformUser(people.alice.id)).id).toBe(simId('alice'));
  });

  it('gives a person whose Slack e-mail matches no account the account they are linked to, by login', async () => {
    await expect(f.confdesk.deps.identity.platformUser(people.nobody.id)).rejects.toMatchObject({
      code: 'no_platform_account',
    });
    expect(await admin(`link <@${people.nobody.id}> carol`)).toContain('Carol Petit (carol)');
    expect((await f.confdesk.deps.identity.platformUser(people.nobody.id)).id).toBe(simId('carol'));
    // And what needs an account works for them now: the type-ahead answers.
    const res = await f.interact(suggestion(people.nobody.id, ids.options.users, 'ali'));
    expect(optionsOf(res.body).map((o) => o.text.text)).toEqual(['Alice Martin (alice)']);
    // By user id too.
    expect(await admin(`link <@${people.nobody.id}> ${simId('bob')}`)).toContain('Bob Durand (bob)');
    expect((await f.confdesk.deps.identity.platformUser(people.nobody.id)).id).toBe(simId('bob'));
    await admin(`unlink <@${people.nobody.id}>`);
  });

  it('refuses alice (no admin) and nobody (no account), storing nothing and writing nothing', async () => {
    const from = f.platform.sim.requests.length;
    expect(await admin(`link <@${people.bob.id}> alice`, people.alice.id)).toContain(
      'You cannot link Slack people to platform accounts',
    );
    expect(await admin(`link <@${people.bob.id}> alice`, people.nobody.id)).toContain(
      'has no account on the video platform',
    );
    expect(await admin(`unlink <@${people.bob.id}>`, people.alice.id)).toContain(
      'You cannot link Slack people',
    );
    expect(await f.store.userLink(people.bob.id)).toBeUndefined();
    expect(f.platform.sim.requests.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('says what is wrong with the text, and when the account does not exist', async () => {
    expect(await admin('link alice bob')).toContain('@-mention');
    expect(await admin(`link <@${people.alice.id}> nosuchlogin`)).toContain('has no user nosuchlogin');
    expect(
      await admin(`link <@${people.alice.id}> <mailto:ghost@acme.example|ghost@acme.example>`),
    ).toContain('has no user ghost@acme.example');
    expect(await f.store.userLink(people.alice.id)).toBeUndefined();
  });
});
