import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { eventMetadataType } from '../../src/jobs/delivery.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, eventually, formState, people, submission, useBot } from '../helpers/bot.js';

const f = {} as BotFixture;
useBot(f, { pollIntervalMs: 200 });

type Json = Record<string, unknown>;

const threadOf = (card: SlackMessage) =>
  f.slack.messages.filter((m) => m.channel === card.channel && m.thread_ts === card.ts);
/** The platform events a message tells, one a line (lines of one thread may be gathered in one message). */
const eventNamesOf = (m: SlackMessage) =>
  (m.metadata as { event_type?: string } | undefined)?.event_type === eventMetadataType
    ? String(m.text)
        .split('\n')
        .flatMap((line) => /· \*([^*]+)\* ·/.exec(line)?.[1] ?? [])
    : [];

/** Waits until the poller has looked at the ticket's current version, then a few scans more. */
async function scansSettle(t: SimTicket) {
  const modified = new Date(Math.floor(t.modified / 1000) * 1000).toISOString();
  await eventually(async () => (await f.store.lastSeen(String(t.id)))?.modified === modified, 10_000);
  await new Promise((r) => setTimeout(r, 1_000));
}

/** Creates a ticket from the form of `/ticket` in a channel, as the admin; answers it and its card. */
async function createFromSlack(channel: string, subject: string) {
  const updates = f.slack.callsOf('views.update').length;
  await f.command('', people.admin.id, channel, '/ticket');
  await eventually(() => f.slack.callsOf('views.update').length > updates);
  const form = [...f.slack.views.values()].at(-1)?.view as Json;
  expect(form.callback_id).toBe(ids.views.ticketForm);
  const values = formState(form, { emails: 'jane.doe@example.com', subject });
  await f.interact(submission(form, people.admin.id, values));
  const t = await eventually(() =>
    [...f.platform.sim.state.tickets.values()].find((x) => x.subject === subject),
  );
  const link = await eventually(() => f.store.find(String(t.id), channel));
  const card = await eventually(() =>
    f.slack.messages.find((m) => m.channel === channel && m.ts === link.ts),
  );
  return { t, card };
}

describe('a ticket created from Slack', () => {
  it('gets one creation line in its card’s thread, none of the platform’s creation events, and its later events', async () => {
    const { t, card } = await createFromSlack('CCREATE', 'Scanner jammed');
    // The platform wrote its own record of the creation (the invitation goes out by default).
    expect(t.events.map((e) => e.eventName)).toEqual([
      'ticket.new',
      'ticket.assigned',
      'ticket.invitationSent',
    ]);
    await eventually(() =>
      threadOf(card).some((m) => String(m.text).startsWith('<@UADMIN> created the ticket')),
    );
    // Something happens on the platform at once (maybe in the creation's second): a re-scan finds it.
    const res = await fetch(`${f.platform.sim.url}/_sim/tickets/${t.id}/guest-join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.platform.sim.adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(t.state).toBe('inprogress');
    await eventually(
      () => threadOf(card).some((m) => eventNamesOf(m).includes('ticket.sessionStarted')),
      10_000,
    );
    await scansSettle(t);
    const thread = threadOf(card);
    // Before: the line, then ticket.new · system, ticket.assigned · system, ticket.invitationSent · system.
    expect(thread.filter((m) => String(m.text).includes('created the ticket'))).toHaveLength(1);
    expect(thread.flatMap(eventNamesOf)).toEqual([
      'ticket.invitationClicked',
      'consent.accepted',
      'mediaDevice.allowed',
      'session.established',
      'session.agentContacted',
      'ticket.sessionStarted',
    ]);
    // Seven lines in all: the creation's and the six events (gathered into fewer messages when they waited together).
    expect(thread.flatMap((m) => String(m.text).split('\n'))).toHaveLength(7);
    for (const name of ['ticket.new', 'ticket.assigned', 'ticket.invitationSent'])
      expect(f.slack.messages.filter((m) => String(m.text).includes(name))).toEqual([]);
  });
});
