import { Writable } from 'node:stream';
import { WebSocket } from 'undici';
import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SocketModeDouble } from '../../src/dev/socket-mode-double.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SimTicket } from '../../src/sim/model.js';
import {
  appToken,
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
  viewClick,
} from '../helpers/bot.js';

type Json = Record<string, unknown>;

// Every line the bot logs, at debug (Bolt's and the Socket Mode client's included): the app-level
// token must be in none of them.
const logged: string[] = [];
const logger = createLogger(
  'debug',
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  }),
);

const f = {} as BotFixture;
useBot(f, { socket: true, logger, reminderScanMs: 60_000 });
const socket = () => f.slack.socket as SocketModeDouble;

const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
const cardIn = (channel: string, reference: string) =>
  f.slack.messages.filter(
    (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith(reference),
  );
const lastView = () => [...f.slack.views.values()].at(-1)?.view as Json;

/** `/ticket show <ref>` in a channel, through the socket; resolves with the card once posted. */
async function showCard(reference: string, channel: string): Promise<SlackMessage> {
  const res = await f.command(`show ${reference}`, people.alice.id, channel, '/ticket');
  expect(res.status).toBe(200);
  return eventually(() => cardIn(channel, reference)[0]);
}

describe('Socket Mode, end to end through the double’s WebSocket', () => {
  it('connects with the app-level token: apps.connections.open, then hello; readiness says connected', async () => {
    expect(socket().opened).toBe(1);
    expect(socket().openConnections).toBe(1);
    const opens = f.slack.callsOf('apps.connections.open');
    expect(opens).toHaveLength(1);
    expect(opens[0]?.token).toBe(appToken);
    expect(f.bot.connection()).toEqual({ ok: true });
    // The bot's own Web API calls still carry the bot token.
    expect(f.slack.callsOf('auth.test').every((c) => c.token === 'xoxb-e2e')).toBe(true);
  });

  it('posts the ticket card for /ticket show, acked over the socket, and a click on it moves the ticket', async () => {
    const card = await showCard('ACME-1001', 'CS1');
    const t = ticket('ACME-1001');
    const json = JSON.stringify(card.blocks);
    expect(json).toContain('Router does not boot');
    expect(json).toContain('"action_id":"ticket_join"');
    const [delivery] = socket().deliveries.filter((d) => d.kind === 'slash_commands');
    expect(delivery).toMatchObject({ retry_attempt: 0, cut: false });

    t.state = 'open';
    const click = await f.interact(
      buttonClick(f.slack, {
        user: people.alice.id,
        actionId: `${ids.actions.ticketMove}:start`,
        value: String(t.id),
        channel: card.channel,
        ts: card.ts,
      }),
    );
    expect(click.status).toBe(200);
    await eventually(() => t.state === 'inprogress');
    const said = await eventually(() => f.slack.messages.find((m) => m.thread_ts === card.ts));
    expect(said.text).toContain('<@UALICE>');
  });

  it('answers a bad ticket form with response_action errors in the ack’s payload, and creates from a good one', async () => {
    const updates = f.slack.callsOf('views.update').length;
    await f.command('', people.admin.id, 'CNEW', '/ticket');
    // A "Loading…" modal opens at once; the form replaces it once the groups and agents are read.
    await eventually(() => f.slack.callsOf('views.update').length > updates);
    const form = lastView();
    expect(form.callback_id).toBe(ids.views.ticketForm);
    const posts = () =>
      f.platform.sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/v3/tickets');
    const before = posts().length;
    const bad = await f.interact(
      submission(form, people.admin.id, formState(form, { emails: 'support@acme.example', phones: '0612' })),
    );
    const body = bad.body as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(Object.keys(body.errors).sort()).toEqual(['emails', 'phones']);
    expect(body.errors.emails).toMatch(/shared mailboxes/);
    expect(posts()).toHaveLength(before);

    const good = await f.interact(
      submission(
        form,
        people.admin.id,
        formState(form, { emails: 'jane.doe@example.com', subject: 'Socket printer on fire', country: 'fr' }),
      ),
    );
    expect((good.body as Json).response_action).toBe('update');
    const post = await eventually(() => posts().find((r) => r.query.subject === 'Socket printer on fire'));
    expect(post.query).toMatchObject({ email: 'jane.doe@example.com', country: 'FR' });
    await eventually(() =>
      f.slack.messages.find((m) => m.channel === 'CNEW' && String(m.text).includes('Socket printer on fire')),
    );
  });

  it('publishes App Home for an app_home_opened event (an events_api envelope, acked without a payload)', async () => {
    const res = await f.event({ type: 'app_home_opened', user: people.bob.id, channel: 'D2', tab: 'home' });
    expect(res).toEqual({ status: 200, body: null });
    const home = await eventually(() =>
      f.slack.callsOf('views.publish').find((c) => c.args.user_id === 'UBOB'),
    );
    expect(JSON.stringify(home.args.view)).toContain(ids.actions.conferenceNew);
    expect(f.slack.homes.get(people.bob.id)?.type).toBe('home');
    const events = socket().deliveries.filter((d) => d.kind === 'events_api');
    expect(events).toHaveLength(1);
  });

  it('keeps the reminder choice clicked on App Home over the socket: a lead time, then off, each shown back', async () => {
    const alice = people.alice.id;
    await f.event({ type: 'app_home_opened', user: alice, channel: 'D1', tab: 'home' });
    /** The value of the reminder button Home highlights now (the person's choice as Home shows it). */
    const chosen = () => {
      const blocks = (f.slack.homes.get(alice)?.blocks ?? []) as {
        block_id?: string;
        elements?: { value?: string; style?: string }[];
      }[];
      const row = blocks.find((b) => b.block_id === 'home_reminders');
      return row?.elements?.find((e) => e.style === 'primary')?.value;
    };
    expect(await eventually(chosen)).toBe('default');
    expect(await f.store.reminderPrefs(alice)).toBeUndefined();
    const interactive = () => socket().deliveries.filter((d) => d.kind === 'interactive').length;
    const click = async (value: string) => {
      const before = interactive();
      const home = f.slack.homes.get(alice) as { id: string };
      const ack = await f.interact(
        viewClick(f.slack, {
          user: alice,
          actionId: `${ids.actions.reminderLead}:${value}`,
          value,
          view: { id: home.id, type: 'home' },
        }),
      );
      // Acked over the socket (an interactive envelope), with no payload: the answer is Home itself.
      expect(ack).toEqual({ status: 200, body: null });
      expect(interactive()).toBe(before + 1);
    };

    await click('15');
    await eventually(() => chosen() === '15');
    expect(await f.store.reminderPrefs(alice)).toEqual({ enabled: true, leadMinutes: 15 });
    expect(JSON.stringify(f.slack.homes.get(alice))).toContain('15 minutes before each conference');

    await click('off');
    await eventually(() => chosen() === 'off');
    expect(await f.store.reminderPrefs(alice)).toEqual({ enabled: false });
    expect(JSON.stringify(f.slack.homes.get(alice))).toContain('Off: no direct message');
    // Only the clicker's choice changed.
    expect(await f.store.reminderPrefs(people.bob.id)).toBeUndefined();
  });

  for (const reason of ['refresh_requested', 'warning'] as const)
    it(`reconnects after a ${reason} disconnect with a new apps.connections.open, and serves the next envelope`, async () => {
      const opened = socket().opened;
      const opens = f.slack.callsOf('apps.connections.open').length;
      await socket().disconnect(reason);
      // The bot closed the connection: not ready until the new one says hello.
      const down = await eventually(() => !f.bot.connection().ok && f.bot.connection(), 1_000);
      expect(down).toMatchObject({ problem: expect.stringContaining('Socket Mode connection is closed') });
      // Sent while no connection is open: it waits for the next one.
      const queued = f.command('show ACME-1002', people.alice.id, `CR-${reason}`, '/ticket');
      await socket().connected(opened + 1);
      expect(f.slack.callsOf('apps.connections.open')).toHaveLength(opens + 1);
      // Ready again once the bot has read the double's hello.
      expect(await eventually(() => f.bot.connection().ok, 1_000)).toBe(true);
      expect((await queued).status).toBe(200);
      await eventually(() => cardIn(`CR-${reason}`, 'ACME-1002')[0]);
    }, 30_000);

  it('survives a connection dropped mid-envelope: the acked command runs once, the cut one is redelivered and runs once', async () => {
    const opened = socket().opened;
    const since = socket().deliveries.length;
    // A: acked; its platform work and card are still in flight when the connection dies.
    const a = await f.command('show ACME-1003', people.alice.id, 'CD-A', '/ticket');
    expect(a.status).toBe(200);
    // B: only half of its frame goes out before the TCP connection dies (no close frame).
    const bFields = {
      command: '/ticket',
      text: 'show ACME-1004',
      user_id: people.admin.id,
      channel_id: 'CD-B',
      team_id: f.slack.teamId,
      response_url: f.slack.responseUrl(),
      trigger_id: 'trigger-cut',
    };
    const b = socket().send('slash_commands', bFields, { cut: true });
    await eventually(() => socket().openConnections === 0);
    expect(await eventually(() => !f.bot.connection().ok, 1_000)).toBe(true);
    const bAck = await b;
    expect(socket().opened).toBe(opened + 1);
    expect(f.bot.connection()).toEqual({ ok: true });
    const deliveries = socket().deliveries.slice(since);
    const bDeliveries = deliveries.filter((d) => d.envelope_id === bAck.envelope_id);
    expect(bDeliveries.map((d) => [d.retry_attempt, d.retry_reason, d.cut])).toEqual([
      [0, '', true],
      [1, 'timeout', false],
    ]);
    await eventually(() => cardIn('CD-B', 'ACME-1004')[0]);
    await eventually(() => cardIn('CD-A', 'ACME-1003')[0]);
    // Settle, then count: each command ran exactly once, and nothing but B (A was acked) went out again.
    await new Promise((r) => setTimeout(r, 500));
    expect(cardIn('CD-A', 'ACME-1003')).toHaveLength(1);
    expect(cardIn('CD-B', 'ACME-1004')).toHaveLength(1);
    expect(
      socket()
        .deliveries.slice(since)
        .map((d) => [d.envelope_id === bAck.envelope_id ? 'B' : 'A', d.retry_attempt, d.connection - opened]),
    ).toEqual([
      ['A', 0, 0],
      ['B', 0, 0],
      ['B', 1, 1],
    ]);
  }, 30_000);

  it('never writes the app-level token in a log line, at debug', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('')).toContain('apps.connections.open');
    expect(logged.join('')).not.toContain(appToken);
  });
});

describe('the double’s apps.connections.open and its tickets', () => {
  const open = async (token: string) =>
    (await (
      await fetch(`${f.slack.apiUrl}apps.connections.open`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { ok: boolean; url?: string; error?: string };
  const connect = (url: string) =>
    new Promise<string>((resolve) => {
      const ws = new WebSocket(url);
      ws.addEventListener('message', (e) => {
        resolve(String(e.data));
        ws.close();
      });
      ws.addEventListener('error', () => resolve('refused'));
    });

  it('refuses a wrong app token (invalid_auth) and the bot token (not_allowed_token_type)', async () => {
    expect(await open('xapp-1-wrong')).toEqual({ ok: false, error: 'invalid_auth' });
    expect(await open('xoxb-e2e')).toEqual({ ok: false, error: 'not_allowed_token_type' });
  });

  it('gives a ws:// URL whose ticket opens one connection, once', async () => {
    const answer = await open(appToken);
    expect(answer.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f]+&app_id=A0DOUBLE01$/);
    const hello = JSON.parse(await connect(answer.url as string)) as Json;
    expect(hello).toMatchObject({ type: 'hello', connection_info: { app_id: 'A0DOUBLE01' } });
    expect(hello.num_connections).toBe(2);
    expect(await connect(answer.url as string)).toBe('refused');
  });
});
