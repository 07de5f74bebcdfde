import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMetadataType } from '../../src/jobs/delivery.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, eventually, people, startBot } from '../helpers/bot.js';

let f: BotFixture;
beforeAll(async () => {
  f = await startBot({ pollIntervalMs: 200 });
});
afterAll(async () => {
  await f.close();
});

const eventPosts = (channel: string, eventName: string) =>
  f.slack.messages.filter(
    (m) =>
      m.channel === channel &&
      (m.metadata as { event_type?: string } | undefined)?.event_type === eventMetadataType &&
      String(m.text).includes(`*${eventName}*`),
  );

describe('ticket events into a watching channel, end to end', () => {
  it('posts a new platform event once, in the card’s thread', async () => {
    const cmd = await f.command('watch ACME-1004', people.admin.id, 'CE1', '/ticket');
    expect(cmd.status).toBe(200);
    const t = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1004',
    ) as SimTicket;
    const card = await eventually(async () => f.store.find(String(t.id), 'CE1'));
    // The history arrives first, then a new event on the platform.
    await eventually(() => eventPosts('CE1', 'media.pictureTaken').length === 1, 10_000);
    const before = eventPosts('CE1', 'session.established').length;
    f.platform.sim.state.guestJoins(t);
    const joined = await eventually(() => {
      const posts = eventPosts('CE1', 'session.established');
      return posts.length > before && posts.at(-1);
    }, 10_000);
    expect(joined.thread_ts).toBe(card.ts);
    // A few more scans change nothing: each event exactly once.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eventPosts('CE1', 'media.pictureTaken')).toHaveLength(1);
    const ids = f.slack.messages
      .filter((m) => m.channel === 'CE1')
      .map(
        (m) => (m.metadata as { event_payload?: { event_id?: string } } | undefined)?.event_payload?.event_id,
      )
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(t.events.length);
  });
});
