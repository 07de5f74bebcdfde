import { describe, expect, it } from 'vitest';
import { IdentityLinkService } from '../../../src/services/identity-links.js';
import { handleLinkCommand } from '../../../src/slack/commands/identity-link.js';
import type { UserLink } from '../../../src/store/user-links.js';
import { fakeSlack, services, usePlatform } from '../../helpers/listener-fakes.js';
import { botNow, people } from '../../helpers/people.js';

/** `/conference admin link|unlink`: an admin ties a Slack person to a platform account, or unties them. */
const platform = usePlatform();

function world() {
  const links: UserLink[] = [];
  const s = services(platform.client, fakeSlack());
  const store = {
    userLink: async (id: string) => links.find((l) => l.slackUserId === id),
    linkUser: async (l: UserLink) => void links.push(l),
    unlinkUser: async (team: string, id: string) => {
      const at = links.findIndex((l) => l.team === team && l.slackUserId === id);
      if (at >= 0) links.splice(at, 1);
      return at >= 0;
    },
  };
  const deps = {
    links: new IdentityLinkService(s.access, s.identity, store, platform.client, s.directory, () => botNow),
  };
  return { deps, links };
}

describe('/conference admin link|unlink', () => {
  it('links a person to the account named, says as whom they act, and unlinks them', async () => {
    const { deps, links } = world();
    const said = await handleLinkCommand(
      deps,
      { kind: 'link', slackUserId: people.nomail.id, account: 'carol@acme.example' },
      { user: people.admin.id, team: 'T1', locale: 'en' },
    );
    expect(said.text).toContain(`<@${people.nomail.id}> now acts on the video platform as`);
    expect(links).toEqual([expect.objectContaining({ team: 'T1', slackUserId: people.nomail.id })]);
    const unlinked = await handleLinkCommand(
      deps,
      { kind: 'unlink', slackUserId: people.nomail.id },
      { user: people.admin.id, team: 'T1', locale: 'en' },
    );
    expect(unlinked.text).toContain('is no longer linked');
    expect(links).toEqual([]);
  });

  it('says an unlinked person was not linked; refuses an agent and an account that does not exist', async () => {
    const { deps, links } = world();
    const none = await handleLinkCommand(
      deps,
      { kind: 'unlink', slackUserId: people.bob.id },
      { user: people.admin.id, team: 'T1', locale: 'en' },
    );
    expect(none.text).toContain('was not linked');
    await expect(
      handleLinkCommand(
        deps,
        { kind: 'link', slackUserId: people.bob.id, account: 'carol@acme.example' },
        { user: people.alice.id, team: 'T1', locale: 'en' },
      ),
    ).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(
      handleLinkCommand(
        deps,
        { kind: 'link', slackUserId: people.bob.id, account: 'ghost@acme.example' },
        { user: people.admin.id, team: 'T1', locale: 'en' },
      ),
    ).rejects.toMatchObject({ code: 'platform_user_not_found' });
    expect(links).toEqual([]);
  });
});
