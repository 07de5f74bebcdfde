import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';
import { idsOf } from '../helpers/event-stream.js';

const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 200 });

const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;

/** The card of a ticket in a channel, once the bot recorded it, as the Slack double holds it. */
async function cardIn(t: SimTicket, channel: string): Promise<SlackMessage> {
  const link = await eventually(() => f.store.find(String(t.id), channel));
  return eventually(() => f.slack.messages.find((m) => m.channel === channel && m.ts === link.ts));
}

/** Two channels holding the ticket's card: one watches it, the other only asked `/ticket show`. */
async function twoCards(reference: string, watching: string, showing: string) {
  const t = ticket(reference);
  expect((await f.command(`watch ${reference}`, people.admin.id, watching, '/ticket')).status).toBe(200);
  expect((await f.command(`show ${reference}`, people.admin.id, showing, '/ticket')).status).toBe(200);
  const cards = [await cardIn(t, watching), await cardIn(t, showing)];
  // The scans that find the new subscription settle (context events, if any, delivered) first.
  await eventually(async () => (await f.store.outboxOf(String(t.id))).every((i) => i.status === 'delivered'));
  // And no read waits: one that ran after the change but before the scan would tell it as the
  // platform's own state event (the state line then stays out: told once, but not as these tests say).
  await eventually(async () => {
    const b = await f.confdesk.jobs.running()?.backlog();
    return b?.reads === 0 && b.verify === 0;
  }, 10_000);
  await new Promise((r) => setTimeout(r, 2_000));
  return { t, cards };
}

const updatesOf = (card: SlackMessage) =>
  f.slack.callsOf('chat.update').filter((c) => c.args.channel === card.channel && c.args.ts === card.ts)
    .length;
const threadOf = (card: SlackMessage) =>
  f.slack.messages.filter((m) => m.channel === card.channel && m.thread_ts === card.ts);
/**
 * A card thread's lines, one per told item: a message that gathered several lines of the thread
 * (they waited together) holds them in order, a text line and an id each.
 */
const linesOf = (card: SlackMessage) =>
  threadOf(card).flatMap((m) => {
    const ids = idsOf(m);
    const texts = String(m.text).split('\n');
    return ids.length > 1 && texts.length === ids.length
      ? ids.map((id, i) => ({ id, text: texts[i] as string }))
      : [{ id: ids[0], text: String(m.text) }];
  });
/**
 * The thread lines of a card since `from` (a count of `linesOf`), leaving out the platform events
 * that existed before the change: a scan or read that found the ticket before the watch brings them
 * late, as context, possibly gathered with the change's line.
 */
const linesSince = (card: SlackMessage, from: number, older: Set<string>) =>
  linesOf(card)
    .slice(from)
    .filter((l) => !(l.id && older.has(l.id)));
const told = (card: SlackMessage, start: string) => linesOf(card).some((l) => l.text.startsWith(start));

/** Waits until the poller has looked at the ticket's current version, then a few scans more. */
async function scansSettle(t: SimTicket) {
  const modified = new Date(Math.floor(t.modified / 1000) * 1000).toISOString();
  await eventually(async () => (await f.store.lastSeen(String(t.id)))?.modified === modified, 10_000);
  await new Promise((r) => setTimeout(r, 1_000));
}

describe('one route per ticket change', () => {
  it('a click updates every card of the ticket once and puts one line, naming the person, in each card’s thread', async () => {
    const { t, cards } = await twoCards('ACME-1002', 'CRW', 'CRS');
    expect(t.state).toBe('open');
    const updates = cards.map(updatesOf);
    const threads = cards.map((c) => linesOf(c).length);
    const older = new Set(t.events.map((e) => e.id));
    await f.interact(
      buttonClick(f.slack, {
        user: people.admin.id,
        actionId: `${ids.actions.ticketMove}:start`,
        value: String(t.id),
        channel: 'CRW',
        ts: (cards[0] as SlackMessage).ts,
      }),
    );
    await eventually(() => t.state === 'inprogress');
    // The line goes through the outbox (paced, tagged), in the watching channel and in the other.
    for (const card of cards) await eventually(() => told(card, '<@UADMIN> moved the ticket'));
    await scansSettle(t);
    for (const [i, card] of cards.entries()) {
      expect(JSON.stringify(card.blocks)).toContain('inprogress');
      // Before: the clicked card was updated by the click and again by the scan; the other, never.
      expect(updatesOf(card) - (updates[i] as number)).toBe(1);
      const lines = linesSince(card, threads[i] as number, older);
      // Before: "moved the ticket" (the click) and the platform's ticket.sessionStarted (the scan).
      expect(lines.map((m) => m.text)).toEqual([
        expect.stringMatching(/^<@UADMIN> moved the ticket from .*open.* to .*inprogress.*\.$/),
      ]);
      expect(lines[0]?.id).toMatch(new RegExp(`^move:${t.id}:`));
    }
    // The platform's own event of that change is left out: the person's line says it.
    expect(f.slack.messages.filter((m) => String(m.text).includes('ticket.sessionStarted'))).toEqual([]);
  });

  it('a change on the platform updates every card once, and puts its event once in the watching channel’s thread', async () => {
    const { t, cards } = await twoCards('ACME-1001', 'CPW', 'CPS');
    expect(t.state).toBe('new');
    const updates = cards.map(updatesOf);
    const threads = cards.map((c) => linesOf(c).length);
    const older = new Set(t.events.map((e) => e.id));
    f.platform.sim.state.setTicketState(t, 'open', 'agent');
    const [watching, showing] = cards as [SlackMessage, SlackMessage];
    // Told from the scan's list page at once (a state line), no timeline read needed for it.
    await eventually(() => told(watching, 'The ticket moved from'), 10_000).catch(async (e) => {
      console.log('DEBUG thread', JSON.stringify(threadOf(watching).map((m) => m.text)));
      console.log('DEBUG outbox', JSON.stringify(await f.store.outboxOf(String(t.id)), null, 0));
      console.log(
        'DEBUG lastSeen',
        JSON.stringify(await f.store.lastSeen(String(t.id))),
        t.modified,
        t.state,
      );
      throw e;
    });
    await scansSettle(t);
    for (const [i, card] of cards.entries()) {
      expect(JSON.stringify(card.blocks)).toContain('ticket_move:start');
      // Before: the card posted by /ticket show without a watch was never refreshed.
      expect(updatesOf(card) - (updates[i] as number)).toBe(1);
    }
    // One line: the state line; the platform's ticket.approved, read later, is the same change.
    expect(linesSince(watching, threads[0] as number, older).map((m) => m.text)).toEqual([
      expect.stringMatching(/^The ticket moved from .*new.* to .*open.*\.$/),
    ]);
    expect(threadOf(watching).filter((m) => String(m.text).includes('ticket.approved'))).toEqual([]);
    // Platform events go to the channels that subscribe; a card shown without a watch stays quiet.
    expect(linesSince(showing, threads[1] as number, older)).toEqual([]);
  });

  it('two moves between two scans: the state line at once, then each step from the timeline, once', async () => {
    // A ticket of its own, made now: no earlier state event shares the second of the version seen.
    const sim = f.platform.sim.state;
    const t = sim.createTicket([...sim.users.values()][0] as NonNullable<ReturnType<typeof sim.users.get>>, {
      reference: 'ACME-STEPS',
      subject: 'Steps',
      emails: ['steps@example.com'],
      phones: [],
      invite: false,
    });
    expect((await f.command('watch ACME-STEPS', people.admin.id, 'CST', '/ticket')).status).toBe(200);
    const card = await cardIn(t, 'CST');
    await eventually(async () =>
      (await f.store.outboxOf(String(t.id))).every((i) => i.status === 'delivered'),
    );
    await scansSettle(t);
    // Nothing left to read (the watch's minute of context, its checks): the scan sees the moves first.
    await eventually(async () => {
      const b = await f.confdesk.jobs.running()?.backlog();
      return b?.reads === 0 && b.verify === 0;
    }, 10_000);
    // And the moves fall in a later platform second than anything read so far (times are to the second).
    await new Promise((r) => setTimeout(r, 1_500));
    const from = linesOf(card).length;
    const older = new Set(t.events.map((e) => e.id));
    // Within one scan's interval: the list shows only the ends.
    sim.setTicketState(t, 'open', 'agent');
    sim.setTicketState(t, 'inprogress', 'agent');
    await eventually(() => threadOf(card).some((m) => String(m.text).includes('Step by step')), 10_000);
    await scansSettle(t);
    // The list's line at once, then every step as the timeline shows them (once each).
    expect(linesSince(card, from, older).flatMap((l) => l.text.split('\n'))).toEqual([
      "The ticket moved from 🆕 *new* to 🎥 *inprogress*, through steps in between: they follow here once the ticket's history shows them.",
      'Step by step: 🆕 *new* → 📂 *open* → 🎥 *inprogress*.',
    ]);
    // The platform's own state events of these moves are not told a second time.
    expect(threadOf(card).filter((m) => /ticket\.(approved|sessionStarted)/.test(String(m.text)))).toEqual(
      [],
    );
  });
});
