import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { SubscriptionService } from '../../../src/services/subscriptions.js';
import type { SimUser } from '../../../src/sim/model.js';
import { handleReactionAdded, type ReactionDeps } from '../../../src/slack/events/reaction-added.js';
import { openStore, type Store } from '../../../src/store/store.js';
import type { TicketCardLink } from '../../../src/store/ticket-cards.js';
import { fakeSlack, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

type Args = Parameters<ReturnType<typeof handleReactionAdded>>[0];

/**
 * `reaction_added`, called as a function: the real services over the simulator, the real store
 * (which channels turned reactions on, the events taken), Slack's client recording what it is asked.
 */
const platform = usePlatform();
let store: Store;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confdesk-reactions-'));
  store = await openStore({ dataDir: dir });
  const subs = new SubscriptionService(store);
  await subs.reactionsOn('CON', people.admin.id);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const simUser = (username: string) =>
  [...platform.sim.state.users.values()].find((u) => u.username === username) as SimUser;
const groupId = (name: string) =>
  [...platform.sim.state.groups.values()].find((g) => g.name === name)?.id as number;

let serial = 0;
/** Each delivery's event_id: every test's events are new to the store (a retry says so itself). */
let events = 0;
/**
 * A fresh ticket of bob's (Level 1, alice's group too) or carol's (Level 2), in `state`, with its
 * card at `CON/<n>.000100` in the store.
 */
function freshTicket(cards: TicketCardLink[], state = 'open', agent: 'bob' | 'carol' = 'bob') {
  const owner = simUser(agent);
  const t = platform.sim.state.createTicket(owner, {
    reference: `REACT-${++serial}`,
    subject: 'Reaction check',
    agentId: owner.id,
    groupId: groupId(agent === 'bob' ? 'Level 1' : 'Level 2'),
    emails: ['jane.doe@example.com'],
    phones: [],
    invite: false,
  });
  t.state = state;
  const card = { ticketId: String(t.id), channel: 'CON', ts: `${serial}.000100` };
  cards.push(card);
  return { t, card };
}

function setUp(waitMs = 0) {
  const slack = fakeSlack();
  const cards: TicketCardLink[] = [];
  const made = ticketDeps(platform.client, slack, cards);
  const deps: ReactionDeps = {
    ...made.deps,
    subscriptions: new SubscriptionService(store),
    receipts: store,
    waitMs: () => waitMs,
  };
  const react = (user: string, reaction: string, channel: string, ts: string, eventId = `Ev${++events}`) =>
    handleReactionAdded(deps)({
      event: {
        type: 'reaction_added',
        user,
        reaction,
        item_user: 'UOTHER',
        item: { type: 'message', channel, ts },
        event_ts: '1.000001',
      },
      body: { event_id: eventId, team_id: 'T1' },
      context: { botUserId: 'UBOT' },
      client: slack.client,
    } as unknown as Args);
  const told = (user: string) =>
    slack
      .callsOf('chat.postEphemeral')
      .filter((a) => a.user === user)
      .map((a) => JSON.stringify(a));
  return { slack, cards, published: made.published, react, told };
}

describe('reaction_added', () => {
  it('🎫 on any message of a channel with reactions offers its reactor, privately, a Create ticket button', async () => {
    const { react, told, slack } = setUp();
    await react(people.alice.id, 'ticket', 'CON', '1700000000.000200');
    const [offer] = slack.callsOf('chat.postEphemeral');
    expect(offer).toMatchObject({ channel: 'CON', user: people.alice.id });
    expect(JSON.stringify(offer?.blocks)).toContain(ids.actions.reactionTicket);
    expect(
      JSON.parse(
        String(
          (offer?.blocks as { elements?: { value?: string }[] }[] | undefined)?.[1]?.elements?.[0]?.value,
        ),
      ),
    ).toEqual({
      c: 'CON',
      ts: '1700000000.000200',
    });
    expect(told(people.alice.id)).toHaveLength(1);
  });

  it('🎫 by someone without a platform account is refused privately, with no button', async () => {
    const { react, told } = setUp();
    await react(people.nobody.id, 'ticket', 'CON', '1700000000.000200');
    const said = told(people.nobody.id);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('no account on the video platform');
    expect(said[0]).not.toContain(ids.actions.reactionTicket);
  });

  it('does nothing in a channel that did not turn reactions on, for the bot’s own reaction, or another emoji', async () => {
    const { react, slack, cards, published } = setUp();
    const { t, card } = freshTicket(cards, 'inprogress');
    await react(people.alice.id, 'ticket', 'COFF', '1700000000.000200');
    await react(people.alice.id, 'white_check_mark', 'COFF', card.ts);
    await react('UBOT', 'ticket', 'CON', '1700000000.000200');
    await react('UBOT', 'white_check_mark', 'CON', card.ts);
    await react(people.alice.id, 'tada', 'CON', card.ts);
    expect(slack.calls).toEqual([]);
    expect(published).toEqual([]);
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('inprogress');
  });

  it('👀 on a card makes the reactor its agent (the card and its thread told by the publisher)', async () => {
    const { react, cards, published, told } = setUp();
    const { t, card } = freshTicket(cards, 'open');
    await react(people.alice.id, 'eyes', 'CON', card.ts);
    expect(platform.sim.state.tickets.get(t.id)?.agentId).toBe(simUser('alice').id);
    expect(published.map((p) => p.what)).toEqual(['ticketChanged']);
    expect(published[0]?.args[0]).toMatchObject({ kind: 'moved', move: { id: 'assign' } });
    expect(published[0]?.args[1]).toBe(people.alice.id);
    expect(told(people.alice.id)).toEqual([]);
  });

  it('👀 by someone outside the ticket’s group, or without an account, is refused privately; the ticket keeps its agent', async () => {
    const { react, cards, published, told } = setUp();
    const { t, card } = freshTicket(cards, 'open', 'carol');
    await react(people.alice.id, 'eyes', 'CON', card.ts);
    expect(told(people.alice.id)[0]).toContain('You cannot act on this ticket');
    await react(people.nobody.id, 'eyes', 'CON', card.ts);
    expect(told(people.nobody.id)[0]).toContain('no account on the video platform');
    expect(platform.sim.state.tickets.get(t.id)?.agentId).toBe(simUser('carol').id);
    expect(published).toEqual([]);
  });

  it('👀 by the ticket’s own agent changes nothing and says so', async () => {
    const { react, cards, published, told } = setUp();
    const { card } = freshTicket(cards, 'open');
    await react(people.bob.id, 'eyes', 'CON', card.ts);
    expect(told(people.bob.id)[0]).toContain('You are already the agent of REACT-');
    expect(published).toEqual([]);
  });

  it('✅ by someone outside the ticket’s group is refused privately; the ticket stays in progress', async () => {
    const { react, cards, published, told } = setUp();
    const { t, card } = freshTicket(cards, 'inprogress', 'carol');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts);
    expect(told(people.alice.id)[0]).toContain('You cannot act on this ticket');
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('inprogress');
    expect(published).toEqual([]);
  });

  it('✅ on a card in progress moves the ticket to done', async () => {
    const { react, cards, published } = setUp();
    const { t, card } = freshTicket(cards, 'inprogress');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts);
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('done');
    expect(published[0]?.args[0]).toMatchObject({ kind: 'moved', move: { id: 'done' } });
  });

  it('✅ on a card not in progress changes nothing and tells the reactor which moves the card offers', async () => {
    const { react, cards, published, told } = setUp();
    const { t, card } = freshTicket(cards, 'open');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts);
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('open');
    expect(published).toEqual([]);
    const [said] = told(people.alice.id);
    expect(said).toContain('only from *inprogress*');
    expect(said).toContain('is *open*');
    expect(said).toContain('“Start”');
    expect(said).toContain('“Assign to me”');
  });

  it('✅ and 👀 on a message that is not a card do nothing', async () => {
    const { react, slack, published } = setUp();
    await react(people.alice.id, 'white_check_mark', 'CON', '1700000000.000999');
    await react(people.alice.id, 'eyes', 'CON', '1700000000.000999');
    expect(slack.calls).toEqual([]);
    expect(published).toEqual([]);
  });

  it('a retry of an event taken already (the same event_id) does not act twice', async () => {
    const { react, cards, published, told } = setUp();
    const { t, card } = freshTicket(cards, 'inprogress');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts, 'EvRETRY1');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts, 'EvRETRY1');
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('done');
    expect(published).toHaveLength(1);
    // The second delivery would have been told "not offered": it was not acted on at all.
    expect(told(people.alice.id)).toEqual([]);
  });

  it('says "working", privately and first, when the platform’s budget will make the reactor wait', async () => {
    const { react, cards, told } = setUp(20_000);
    const { t, card } = freshTicket(cards, 'inprogress');
    await react(people.alice.id, 'white_check_mark', 'CON', card.ts);
    expect(told(people.alice.id)).toEqual([
      expect.stringContaining(
        'Moving the ticket to done… The video platform allows only a few requests a minute and is busy: this will take about 20 s',
      ),
    ]);
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('done');
  });
});
