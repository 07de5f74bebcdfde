import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrkdwnTexts } from '../../../src/dev/slack-double/checks.js';
import { strayTokens } from '../../../src/dev/slack-double.js';
import { compilePatterns } from '../../../src/domain/unfurl-links.js';
import { UnfurlService } from '../../../src/services/unfurls.js';
import type { SimTicket } from '../../../src/sim/model.js';
import type { UnfurlDeps } from '../../../src/slack/deps.js';
import { handleLinkShared } from '../../../src/slack/events/link-shared.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { fakeSlack, services, silent, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

type Args = Parameters<ReturnType<typeof handleLinkShared>>[0];

/** The unfurl a `chat.unfurl` call gave `url` (undefined when there was no call). */
const unfurlOf = (calls: Record<string, unknown>[], url: string): unknown =>
  (calls[0]?.unfurls as Record<string, unknown> | undefined)?.[url];

const patterns = compilePatterns({
  ticket: '^https://desk\\.acme\\.example/tickets/(\\d+)',
  conference: '^https://desk\\.acme\\.example/conferences/(?<id>\\d+)',
  media: '^https://desk\\.acme\\.example/media/(\\d+)',
});

/**
 * `link_shared` → `chat.unfurl`: the real services over the simulator and a real store; Slack's client
 * records the call. What the poster may see is unfurled, without contact details; the rest stays plain.
 */
describe('link_shared', () => {
  const platform = usePlatform();
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'confdesk-unfurl-'));
    store = await openStore({ dataDir: dir });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const setup = () => {
    const slack = fakeSlack();
    const s = services(platform.client, slack);
    const deps: UnfurlDeps = {
      unfurls: new UnfurlService({ platform: platform.client, access: s.access, store, patterns }),
      logger: silent,
      locales: { channel: 'en' },
    };
    return { slack, deps };
  };
  const ticket = (ref: string) =>
    [...platform.sim.state.tickets.values()].find((t) => t.reference === ref) as SimTicket;
  const event = (user: string, urls: string[], extra: Record<string, unknown> = {}) =>
    ({
      event: {
        type: 'link_shared',
        channel: 'C1',
        user,
        message_ts: '1700000000.000100',
        links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
        ...extra,
      },
      client: undefined,
    }) as unknown as Args;
  const run = async (user: string, urls: string[], extra: Record<string, unknown> = {}) => {
    const { slack, deps } = setup();
    await handleLinkShared(deps)({ ...event(user, urls, extra), client: slack.client } as Args);
    return slack.callsOf('chat.unfurl');
  };

  it('unfurls a ticket its poster may see: reference, subject, state, time token and the card’s buttons, no contact detail', async () => {
    const t = ticket('ACME-1001');
    const url = `https://desk.acme.example/tickets/${t.id}`;
    const calls = await run(people.alice.id, [url]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ channel: 'C1', ts: '1700000000.000100' });
    const card = JSON.stringify(unfurlOf(calls, url));
    expect(card).toContain('ACME-1001');
    expect(card).toContain('Router does not boot');
    expect(card).toContain(`*${t.state}*`);
    expect(card).toMatch(/<!date\^\d+\^[^|]+\|\d{4}-\d\d-\d\d \d\d:\d\d UTC>/);
    expect(card).toContain('"action_id":"ticket_refresh"');
    expect(card).toContain('"action_id":"ticket_menu"');
    // The requestor's e-mail and the agent's contact never reach the channel.
    expect(card).not.toContain('jane.doe@example.com');
    expect(card).not.toContain('Jane Doe');
    expect(card).not.toContain('alice@acme.example');
  });

  it('leaves the link plain when its poster may not see the ticket', async () => {
    // ACME-1004 is Level 2's (Carol's): Alice is in Level 1, not an admin.
    const t = ticket('ACME-1004');
    expect(await run(people.alice.id, [`https://desk.acme.example/tickets/${t.id}`])).toEqual([]);
  });

  it('leaves the link plain for a poster without a platform account, and says nothing', async () => {
    const t = ticket('ACME-1001');
    expect(await run(people.nobody.id, [`https://desk.acme.example/tickets/${t.id}`])).toEqual([]);
    expect(await run(people.nomail.id, [`https://desk.acme.example/tickets/${t.id}`])).toEqual([]);
  });

  it('shows a hostile subject as text: no live mention, no link', async () => {
    const t = ticket('ACME-1002');
    t.subject = '<!channel> *urgent* <https://evil.example|click> & <@U999>';
    t.modified = platform.sim.state.now();
    const url = `https://desk.acme.example/tickets/${t.id}`;
    const calls = await run(people.admin.id, [url]);
    const unfurl = unfurlOf(calls, url);
    const texts = mrkdwnTexts(unfurl);
    expect(texts.join('\n')).toContain('&lt;!channel&gt;');
    expect(texts.flatMap(strayTokens)).toEqual([]);
  });

  it('unfurls a conference by its join link to a participant, without the participants', async () => {
    const conf = [...platform.sim.state.conferences.values()].find((c) => c.name === 'Onboarding Carol');
    const url = `${platform.sim.url}/join/${conf?.roomName}`;
    const calls = await run(people.alice.id, [url]);
    const card = JSON.stringify(unfurlOf(calls, url));
    expect(card).toContain('Onboarding Carol');
    expect(card).toContain('"action_id":"conference_join"');
    expect(card).not.toContain('bob@acme.example');
    expect(card).not.toContain('+33612345678');
  });

  it('leaves another link of the platform’s domain plain, and Slack’s own message links alone', async () => {
    const from = platform.sim.requests.length;
    const calls = await run(people.admin.id, [
      `${platform.sim.url}/join/not-a-room`,
      'https://acme.slack.com/archives/C1/p1700000000000100',
    ]);
    expect(calls).toEqual([]);
    // The unknown room was looked up once; Slack's link not at all.
    expect(platform.sim.requests.slice(from).filter((r) => r.path.includes('/conferences/'))).toHaveLength(1);
  });

  it('unfurls a media to its owner through a configured pattern', async () => {
    const m = [...platform.sim.state.medias.values()].find((x) => x.title === 'Router manual');
    const url = `https://desk.acme.example/media/${m?.id}`;
    const calls = await run(people.alice.id, [url]);
    const card = JSON.stringify(unfurlOf(calls, url));
    expect(card).toContain('Router manual');
    expect(card).toContain('"action_id":"media_share_open"');
  });

  it('50 link_shared of one link at once cost one platform read of the ticket, all unfurled', async () => {
    const t = ticket('ACME-1006');
    const url = `https://desk.acme.example/tickets/${t.id}`;
    const { slack, deps } = setup();
    const handle = handleLinkShared(deps);
    const from = platform.sim.requests.length;
    const posters = [people.admin.id, people.alice.id, people.bob.id];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        handle({
          ...event(posters[i % posters.length] as string, [url], { message_ts: `1700000000.${1000 + i}` }),
          client: slack.client,
        } as Args),
      ),
    );
    expect(slack.callsOf('chat.unfurl')).toHaveLength(50);
    const reads = platform.sim.requests.slice(from).filter((r) => r.path === `/api/v3/tickets/${t.id}`);
    expect(reads).toHaveLength(1);
  });

  it('addresses a link in the composer by its unfurl id', async () => {
    const t = ticket('ACME-1001');
    const calls = await run(people.alice.id, [`https://desk.acme.example/tickets/${t.id}`], {
      source: 'composer',
      unfurl_id: 'C1.123.abc',
      channel: 'COMPOSER',
    });
    expect(calls[0]).toMatchObject({ unfurl_id: 'C1.123.abc', source: 'composer' });
    expect(calls[0]?.channel).toBeUndefined();
  });
});
