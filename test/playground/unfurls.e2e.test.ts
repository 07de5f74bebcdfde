import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/bot.js';
import { usePlaygroundApi } from '../helpers/playground-api.js';

/*
 * Link previews in the playground, through the page's JSON API: a person's message with a link of the
 * simulator's made-up pages (or a conference's join link) shows the bot's unfurl under it, and the
 * unfurl's buttons are clicked as Slack sends them (a message_attachment).
 */

const alice = 'UALICE';
const nico = 'UNOBODY';
const support = 'C0SUPPORT';

const api = usePlaygroundApi();
const { post, state } = api;
const ticketId = (ref: string) =>
  String([...(api.pg.bot.sim?.state.tickets.values() ?? [])].find((t) => t.reference === ref)?.id);

describe('link previews in the playground', () => {
  it('shows a ticket link’s unfurl under the message, and its Refresh works from there', async () => {
    const url = `http://127.0.0.1:8080/desk/tickets/${ticketId('ACME-1001')}`;
    expect(await post('/api/message', { as: alice, channel: support, text: `have a look: ${url}` })).toEqual({
      ok: true,
    });
    const m = await eventually(async () =>
      (await state(alice)).messages.find((x) => x.text?.includes(url) && x.unfurls?.length),
    );
    expect(m.unfurls?.[0]?.url).toBe(url);
    expect(JSON.stringify(m.unfurls?.[0]?.blocks)).toContain('ACME-1001');
    const answer = await post('/api/action', {
      as: alice,
      container: { type: 'unfurl', channel: support, ts: m.ts, url },
      action: { type: 'button', action_id: 'ticket_refresh', block_id: 'b', value: ticketId('ACME-1001') },
    });
    expect(answer.ok).toBe(true);
    const calls = () => api.pg.slack.callsOf('chat.unfurl').filter((c) => c.args.ts === m.ts).length;
    await eventually(() => calls() >= 2);
  });

  it('shows a conference’s join link unfurled, and leaves a link plain for someone without an account', async () => {
    const conf = [...(api.pg.bot.sim?.state.conferences.values() ?? [])].find(
      (c) => c.name === 'Weekly support sync',
    );
    const join = `${api.pg.bot.sim?.url}/join/${conf?.roomName}`;
    await post('/api/message', { as: 'UADMIN', channel: support, text: `join: ${join}` });
    const m = await eventually(async () =>
      (await state('UADMIN')).messages.find((x) => x.text?.includes(join) && x.unfurls?.length),
    );
    expect(JSON.stringify(m.unfurls)).toContain('Weekly support sync');
    const url = `http://localhost/desk/tickets/${ticketId('ACME-1002')}`;
    await post('/api/message', { as: nico, channel: support, text: url });
    await new Promise((r) => setTimeout(r, 500));
    expect((await state(nico)).messages.find((x) => x.text === url)?.unfurls).toBeUndefined();
  });
});
