import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { PlaygroundState } from '../../src/playground/state.js';
import { eventually, formState } from '../helpers/bot.js';
import { type Json, usePlaygroundApi } from '../helpers/playground-api.js';

/*
 * The playground as the page drives it: its JSON API only (what the browser sends), with the bot, the
 * Slack double and the simulator all real, started as `npm start` starts them without credentials.
 */

const ada = 'UADMIN';
const alice = 'UALICE';
const nico = 'UNOBODY';
const support = 'C0SUPPORT';

const api = usePlaygroundApi();
const { post, state } = api;
const say = (as: string, text: string, channel = support) => post('/api/message', { as, channel, text });
const blocksText = (m: { blocks?: unknown[] }) => JSON.stringify(m.blocks ?? []);

/** A button of a message, by its text. */
const button = (m: { blocks?: unknown[] }, text: string) =>
  (m.blocks as { elements?: Json[]; accessory?: Json }[] | undefined)
    ?.flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .find((e) => e.type === 'button' && (e.text as { text?: string } | undefined)?.text === text);

describe('the playground, driven through its JSON API', () => {
  it('shows the demo people, the channels, the bot and the manifest’s shortcuts', async () => {
    const s = await state(ada);
    expect(s.people.map((p) => [p.id, p.email, p.tz])).toEqual([
      [ada, 'admin@acme.example', 'Europe/Paris'],
      [alice, 'alice@acme.example', 'America/New_York'],
      ['UCAROL', 'carol@acme.example', 'Asia/Tokyo'],
      [nico, 'nico@example.com', 'UTC'],
    ]);
    expect(s.channels).toEqual([
      { id: 'C0SUPPORT', name: 'support' },
      { id: 'C0MEETINGS', name: 'meetings' },
    ]);
    expect(s.bot.name).toBe('confdesk');
    expect(s.shortcuts.map((x) => [x.type, x.name])).toEqual([
      ['global', 'New conference'],
      ['message', 'Create assistance ticket'],
    ]);
    expect(s.platform?.tickets.map((t) => t.reference)).toContain('ACME-1001');
    expect(s.platform?.states).toContain('inprogress');
    expect(s.platform?.webhooks).toBe(true);
  });

  it('/conference with quick text posts a conference card with a Join button in the channel', async () => {
    expect(await say(ada, '/conference jane.doe@example.com tomorrow 3pm "Quick planning"')).toEqual({
      ok: true,
    });
    const card = await eventually(async () =>
      (await state(alice)).messages.find(
        (m) => m.channel === support && blocksText(m).includes('Quick planning'),
      ),
    );
    expect(card.user).toBe(api.pg.slack.botUserId);
    expect(button(card, 'Join')).toBeDefined();
  });

  it('/conference with no text opens the form for that person only; a time past is an inline error', async () => {
    await say(ada, '/conference');
    const modal = await eventually(async () => (await state(ada)).modals.at(-1));
    expect(modal.view.callback_id).toBe(ids.views.conferenceForm);
    expect((await state(alice)).modals).toEqual([]);

    const values = formState(modal.view, {
      participants: 'jane.doe@example.com',
      name: 'Too late',
      startTime: { selected_date_time: Math.floor(Date.now() / 1000) - 86_400 },
    });
    const submitted = await post('/api/submit', { as: ada, viewId: modal.id, values });
    expect(submitted.ok).toBe(true);
    expect(submitted.errors).toMatchObject({ startTime: expect.stringContaining('This time has passed') });
    const kept = (await state(ada)).modals.find((m) => m.id === modal.id);
    expect(kept?.errors?.startTime).toContain('This time has passed');

    expect(await post('/api/close', { as: ada, viewId: modal.id })).toEqual({ ok: true });
    expect((await state(ada)).modals).toEqual([]);
  });

  describe('a ticket', () => {
    let card: PlaygroundState['messages'][number];
    let ticketId: number;

    it('/ticket new … as Ada opens the prefilled form; submitting it posts the ticket card', async () => {
      await say(ada, '/ticket new jane.doe@example.com Printer jam');
      const form = await eventually(async () =>
        (await state(ada)).modals.find((m) => m.view.callback_id === ids.views.ticketForm),
      );
      // The group menu is a type-ahead: what Ada types goes to the bot as a block_suggestion.
      const typed = await post('/api/suggest', {
        as: ada,
        container: { type: 'view', viewId: form.id },
        block_id: 'groupId',
        action_id: ids.options.groups,
        value: 'lev',
      });
      const options = (typed.options ?? []) as { text: { text: string }; value: string }[];
      expect(options.map((o) => o.text.text)).toEqual(['Level 1', 'Level 2']);
      const level1 = options.find((o) => o.text.text === 'Level 1');
      const values = formState(form.view, { groupId: { selected_option: level1 } });
      expect(await post('/api/submit', { as: ada, viewId: form.id, values })).toEqual({ ok: true });
      card = await eventually(async () =>
        (await state(ada)).messages.find(
          (m) => m.channel === support && !m.thread_ts && String(m.text).includes('Printer jam'),
        ),
      );
      expect(button(card, 'Start')).toBeDefined();
      ticketId = Number(button(card, 'Start')?.value);
      expect((await state(ada)).platform?.tickets.find((t) => t.id === ticketId)?.state).toBe('invited');
    });

    const start = (as: string) =>
      post('/api/action', {
        as,
        container: { type: 'message', channel: support, ts: card.ts },
        action: { ...button(card, 'Start'), block_id: `ticket_moves_${ticketId}` },
      });

    it('Start as Nico (no platform account) is refused in an ephemeral only Nico sees', async () => {
      expect(await start(nico)).toEqual({ ok: true });
      const refusal = await eventually(async () =>
        (await state(nico)).ephemerals.find((e) =>
          String(e.text).includes('no account on the video platform'),
        ),
      );
      expect(refusal.channel).toBe(support);
      expect((await state(ada)).ephemerals.some((e) => e.id === refusal.id)).toBe(false);
      expect((await state(ada)).platform?.tickets.find((t) => t.id === ticketId)?.state).toBe('invited');
    });

    it('Start as Alice (agent in Level 1) moves the ticket, and the card is updated in place', async () => {
      expect(await start(alice)).toEqual({ ok: true });
      await eventually(
        async () =>
          (await state(alice)).platform?.tickets.find((t) => t.id === ticketId)?.state === 'inprogress',
      );
      // 15 s: on a loaded 2-core CI machine (the malformed-request storm beside it) 5 s was once short.
      const updated = await eventually(
        async () =>
          (await state(alice)).messages.find(
            (m) => m.ts === card.ts && m.edited && button(m, 'Start') === undefined,
          ),
        15_000,
      );
      expect(updated.channel).toBe(support);
    });

    it('a platform-side event reaches the ticket’s thread at once (webhooks on)', async () => {
      // The platform dates events to the second, and the bot does not repeat what happened in the
      // second of a person's own change (Alice's Start said it): a person is never this fast anyway.
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await post('/api/platform', { op: 'event', ticketId, name: 'note.fromPlayground' })).toEqual({
        ok: true,
      });
      // Well before the poller's next scan (30 s): the webhook brought it.
      const line = await eventually(
        async () =>
          (await state(ada)).messages.find(
            (m) => m.thread_ts === card.ts && JSON.stringify(m).includes('note.fromPlayground'),
          ),
        8_000,
      );
      expect(line.user).toBe(api.pg.slack.botUserId);
      expect(await post('/api/platform', { op: 'state', ticketId, state: 'done' })).toEqual({ ok: true });
      expect((await state(ada)).platform?.tickets.find((t) => t.id === ticketId)?.state).toBe('done');
      expect(await post('/api/platform', { op: 'state', ticketId, state: 'nonsense' })).toMatchObject({
        ok: false,
        error: expect.stringContaining('400'),
      });
    });

    it('webhooks can be turned off and on again', async () => {
      expect(await post('/api/platform', { op: 'webhooks', on: false })).toEqual({ ok: true });
      expect((await state(ada)).platform?.webhooks).toBe(false);
      expect(await post('/api/platform', { op: 'webhooks', on: true })).toEqual({ ok: true });
      expect((await state(ada)).platform?.webhooks).toBe(true);
    });
  });

  it('/api/suggest answers a type-ahead as the bot does: people for Ada, only why for Nico (no account)', async () => {
    await say(ada, '/ticket');
    const form = await eventually(async () =>
      (await state(ada)).modals.find((m) => m.view.callback_id === ids.views.ticketForm),
    );
    const typed = (as: string, value: string) =>
      post('/api/suggest', {
        as,
        container: { type: 'view', viewId: form.id },
        block_id: 'agent',
        action_id: ids.options.agents,
        value,
      });
    const forAda = await typed(ada, 'ali');
    expect(forAda.ok).toBe(true);
    expect((forAda.options as { text: { text: string } }[]).map((o) => o.text.text)).toEqual([
      'Alice Martin (alice)',
    ]);
    const forNico = await typed(nico, 'ali');
    expect((forNico.options as { text: { text: string } }[]).map((o) => o.text.text)).toEqual([
      'Your Slack e-mail has no account on the video platform',
    ]);
    await post('/api/close', { as: ada, viewId: form.id });
  });

  it('/api/home publishes the Home tab for that person only', async () => {
    expect(await post('/api/home', { as: ada })).toEqual({ ok: true });
    const home = await eventually(async () => (await state(ada)).home ?? undefined);
    expect(home.type).toBe('home');
    expect((await state(alice)).home).toBeNull();
  });

  it('a plain message is kept as the person’s; an unknown command is refused with the ones there are', async () => {
    expect(await say(alice, 'Anyone seen the router ticket?')).toEqual({ ok: true });
    const mine = (await state(ada)).messages.find((m) => m.text === 'Anyone seen the router ticket?');
    expect(mine?.user).toBe(alice);
    expect(await say(alice, '/giphy cats')).toEqual({
      ok: false,
      error: '/giphy is not a command here: try /conference or /ticket',
    });
  });

  it('the message shortcut on a person’s message opens the ticket form with it', async () => {
    const mine = (await state(ada)).messages.find((m) => m.text === 'Anyone seen the router ticket?');
    expect(mine).toBeDefined();
    const res = await post('/api/shortcut', {
      as: ada,
      callback_id: ids.shortcuts.ticketFromMessage,
      channel: support,
      ts: mine?.ts,
    });
    expect(res).toEqual({ ok: true });
    const form = await eventually(async () =>
      (await state(ada)).modals.find((m) => m.view.callback_id === ids.views.ticketForm),
    );
    expect(JSON.stringify(form.view)).toContain('Anyone seen the router ticket?');
    await post('/api/close', { as: ada, viewId: form.id });
  });

  // issue 37: reactions
  it('/api/react: a reaction shows under the message, and 🎫 where reactions are on offers Create ticket, whose click opens the form', async () => {
    expect(await say(ada, '/ticket follow reactions')).toEqual({ ok: true });
    await eventually(async () =>
      (await api.pg.bot.confdesk.deps.subscriptions.reactsIn(support)) ? true : undefined,
    );
    expect(await say(nico, 'The lift is stuck again')).toEqual({ ok: true });
    const m = (await state(alice)).messages.find((x) => x.text === 'The lift is stuck again');
    expect(await post('/api/react', { as: alice, channel: support, ts: m?.ts, name: 'ticket' })).toEqual({
      ok: true,
    });
    expect((await state(ada)).messages.find((x) => x.ts === m?.ts)?.reactions).toEqual([
      { name: 'ticket', users: [alice] },
    ]);
    const offer = await eventually(async () =>
      (await state(alice)).ephemerals.find((e) => button(e, 'Create ticket') !== undefined),
    );
    expect((await state(ada)).ephemerals.find((e) => e.id === offer.id)).toBeUndefined();
    expect(
      await post('/api/action', {
        as: alice,
        container: { type: 'ephemeral', id: offer.id },
        action: button(offer, 'Create ticket'),
      }),
    ).toEqual({ ok: true });
    const form = await eventually(async () =>
      (await state(alice)).modals.find(
        (x) =>
          x.view.callback_id === ids.views.ticketForm && JSON.stringify(x.view).includes('lift is stuck'),
      ),
    );
    expect(JSON.stringify(form.view)).toContain('From Slack: https://double.slack.test/archives/C0SUPPORT/p');
    await post('/api/close', { as: alice, viewId: form.id });
    expect(
      await post('/api/react', { as: alice, channel: support, ts: '1.000000', name: 'eyes' }),
    ).toMatchObject({
      ok: false,
    });
  });

  it('/api/stream sends a change event with the new version when anything changes', async () => {
    const abort = new AbortController();
    const res = await fetch(`${api.pg.url}/api/stream`, { signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const versions = () =>
      [...text.matchAll(/event: change\ndata: \{"version":(\d+)\}/g)].map((m) => Number(m[1]));
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value);
      }
    };
    await readUntil(() => versions().length >= 1);
    const first = versions()[0] as number;
    await say(ada, 'a change');
    await readUntil(() => versions().length >= 2);
    expect(versions()[1]).toBeGreaterThan(first);
    abort.abort();
  });

  it('refuses a request naming another host, or a body that is not JSON', async () => {
    const { port } = new URL(api.pg.url);
    // fetch sets Host itself: a raw request can say another name, as a rebound DNS name would.
    const rebound = await new Promise<number | undefined>((resolve, reject) =>
      request(`${api.pg.url}/api/state?as=${ada}`, { headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end(),
    );
    expect(rebound).toBe(403);
    const form = await fetch(`${api.pg.url}/api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'as=UADMIN&channel=C0SUPPORT&text=hi',
    });
    expect(form.status).toBe(415);
  });
});
