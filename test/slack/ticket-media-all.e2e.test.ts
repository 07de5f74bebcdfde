import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import { zipStream } from '../../src/sim/content.js';
import type { SimTicket, SimUser } from '../../src/sim/model.js';
import { noFaults } from '../../src/sim/server.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

/*
 * issue 38 §5: a ticket's media list offers all of them in one zip (the platform's
 * `downloadTicketMedias`), streamed into the card's thread the way one media is. Through the real
 * receiver, the Slack double and the simulator: who may, past Slack's size limit, the platform
 * and Slack answering 429 or failing, a reference from outside. The body's faults (cut, reset,
 * stalled, without length, Slack's upload URL failing) are the fourth door of
 * `test/outbound/stream-faults.e2e.test.ts`.
 */

const f = {} as BotFixture;
useBot(f);

type Json = Record<string, unknown>;
const ticket = (reference: string) =>
  [...f.platform.sim.state.tickets.values()].find((t) => t.reference === reference) as SimTicket;
const simUser = (username: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === username) as SimUser;
const mediasOf = (t: SimTicket) =>
  [...f.platform.sim.state.medias.values()].filter((m) => m.ticketId === t.id);

let serial = 0;
/** A media of the ticket (a few bytes, distinct each time), its owner the ticket's agent. */
const addTo = (t: SimTicket, title = `Evidence ${++serial}`) =>
  f.platform.sim.state.addMedia({
    enterpriseId: 1,
    userId: t.agentId ?? simUser('admin').id,
    type: 'document',
    title,
    format: 'application/pdf',
    content: { kind: 'bytes', data: Buffer.from(`pdf bytes ${serial} `.repeat(50)) },
    ticketId: t.id,
  });

/** The zip the simulator builds of the ticket's media, as bytes. */
const zipOf = async (t: SimTicket) =>
  Buffer.concat(
    await zipStream(mediasOf(t).map((m) => ({ name: m.filename, content: m.content }))).toArray(),
  );

let channelSerial = 0;
/** `/ticket show` as the admin in a fresh channel: the card once posted. */
async function showCard(reference: string): Promise<SlackMessage> {
  const where = `CZIP${++channelSerial}`;
  await f.command(`show ${reference}`, people.admin.id, where, '/ticket');
  return eventually(() =>
    f.slack.messages.find((m) => m.channel === where && !m.thread_ts && String(m.text).startsWith(reference)),
  );
}

/** The card's menu → Media, as `who`: the private list once answered. */
async function mediaList(card: SlackMessage, t: SimTicket, who: string = people.admin.id) {
  const from = f.slack.responses.length;
  const payload = buttonClick(f.slack, {
    user: who,
    actionId: ids.actions.ticketMenu,
    value: '',
    channel: card.channel,
    ts: card.ts,
  }) as Json;
  payload.actions = [
    {
      type: 'overflow',
      action_id: ids.actions.ticketMenu,
      block_id: 'b',
      selected_option: { value: `media:${t.id}` },
      action_ts: '1',
    },
  ];
  await f.interact(payload);
  return eventually(() =>
    f.slack.responses.slice(from).find((r) => String(r.body.text).startsWith(`Media of ${t.reference}`)),
  );
}

/** The "Post all in the thread (zip)" button of a list (undefined when it has none). */
const allButton = (list: { body: Json }) =>
  (list.body.blocks as Json[])
    .flatMap((b) => (b.elements as Json[] | undefined) ?? [])
    .find((e) => e.action_id === ids.actions.ticketMediaPostAll);

const filesIn = (card: SlackMessage) =>
  f.slack.messages.filter(
    (m) => m.channel === card.channel && m.thread_ts === card.ts && (m.metadata as Json | undefined)?.files,
  );
const downloads = (t: SimTicket, from: number) =>
  f.platform.sim.requests.slice(from).filter((r) => r.path === `/api/v3/tickets/${t.id}/medias/download`);

/** Clicks the button as `who`; resolves with what was said privately, or 'posted' once a file is in the thread. */
async function postAll(card: SlackMessage, value: string, who: string = people.admin.id): Promise<string> {
  const before = filesIn(card).length;
  const click = buttonClick(f.slack, {
    user: who,
    actionId: ids.actions.ticketMediaPostAll,
    value,
    channel: card.channel,
    ephemeral: true,
  });
  await f.interact(click);
  const path = new URL(click.response_url as string).pathname;
  return eventually(() => {
    if (filesIn(card).length > before) return 'posted';
    const answer = f.slack.responses.find((r) => r.path === path && r.body.text);
    return answer && String(answer.body.text);
  }, 15_000);
}

/** The one file posted in the card's thread is the ticket's whole zip. */
async function expectZipPosted(card: SlackMessage, t: SimTicket): Promise<SlackMessage> {
  const files = filesIn(card);
  expect(files).toHaveLength(1);
  const fileId = String((files[0]?.metadata as { files?: string[] } | undefined)?.files?.[0]);
  const uploaded = f.slack.uploads.get(fileId);
  expect(uploaded?.bytes?.equals(await zipOf(t))).toBe(true);
  return files[0] as SlackMessage;
}

describe('a ticket’s media, all in one zip', () => {
  it('is offered on the media list and posted in the card’s thread, whole, once', async () => {
    const t = ticket('ACME-1004');
    addTo(t);
    addTo(t);
    expect(mediasOf(t).length).toBeGreaterThanOrEqual(3);
    const card = await showCard('ACME-1004');
    const list = await mediaList(card, t);
    const button = allButton(list) as Json;
    expect(button.text).toMatchObject({ text: 'Post all in the thread (zip)' });
    const from = f.platform.sim.requests.length;
    expect(await postAll(card, button.value as string)).toBe('posted');
    const posted = await expectZipPosted(card, t);
    expect(posted.text).toContain('<@UADMIN> shared all the ticket’s media, in one zip file.');
    // The platform's archive, named after the reference; its upload named the same.
    expect(downloads(t, from).map((r) => r.query.filename)).toEqual(['ACME-1004-media']);
    const slot = f.slack.callsOf('files.getUploadURLExternal').at(-1);
    expect(slot?.args.filename).toBe('ACME-1004-media.zip');
    expect(Number(slot?.args.length)).toBe((await zipOf(t)).length);
  });

  it('is not offered where there is nothing to post, nor where the card has no thread', async () => {
    const t = ticket('ACME-1002');
    for (const m of mediasOf(t)) f.platform.sim.state.medias.delete(m.id);
    const card = await showCard('ACME-1002');
    const list = await mediaList(card, t);
    expect(JSON.stringify(list.body.blocks)).toContain('No snapshot, document or recording yet.');
    expect(allButton(list)).toBeUndefined();
  });

  it('refuses an outsider and someone without an account, with a sentence; nothing is downloaded or posted', async () => {
    // ACME-1004 is carol's, in Level 2: alice (Level 1) is not of its team.
    const t = ticket('ACME-1004');
    const card = await showCard('ACME-1004');
    const button = allButton(await mediaList(card, t)) as Json;
    const slots = f.slack.callsOf('files.getUploadURLExternal').length;
    const from = f.platform.sim.requests.length;
    expect(await postAll(card, button.value as string, people.alice.id)).toContain(
      'You cannot see this ticket’s media: only its agent, the members of its group and video platform admins can see them',
    );
    expect(await postAll(card, button.value as string, people.nobody.id)).toContain(
      'has no account on the video platform',
    );
    expect(downloads(t, from)).toEqual([]);
    expect(f.slack.callsOf('files.getUploadURLExternal').length).toBe(slots);
    expect(filesIn(card)).toEqual([]);
  });

  it('refuses a value not made for this card (another ticket, another thread)', async () => {
    const t = ticket('ACME-1004');
    const card = await showCard('ACME-1004');
    const from = f.platform.sim.requests.length;
    const forged = JSON.stringify({
      ticketId: String(ticket('ACME-1001').id),
      channel: card.channel,
      ts: card.ts,
    });
    // The thread is ACME-1004's card, as the store knows it: not ACME-1001's.
    expect(await postAll(card, forged)).toContain('out of date or was not made by confdesk');
    expect(await postAll(card, '{"ticketId":"x"}')).toContain('out of date or was not made by confdesk');
    expect(downloads(t, from)).toEqual([]);
    expect(filesIn(card)).toEqual([]);
  });

  it('past Slack’s file size limit: a sentence with both sizes, nothing uploaded; served once the limit allows', async () => {
    const t = ticket('ACME-1004');
    const card = await showCard('ACME-1004');
    const button = allButton(await mediaList(card, t)) as Json;
    const media = f.confdesk.deps.media;
    const limit = media.maxUploadBytes;
    media.maxUploadBytes = 1_000;
    const slots = f.slack.callsOf('files.getUploadURLExternal').length;
    try {
      const said = await postAll(card, button.value as string);
      expect(said).toMatch(
        /^The media of ACME-1004 together are [\d.]+ kB: past Slack’s file size limit \(1(\.0)? kB\), so nothing was uploaded\. Post them one by one/,
      );
      expect(f.slack.callsOf('files.getUploadURLExternal').length).toBe(slots);
      expect(filesIn(card)).toEqual([]);
    } finally {
      media.maxUploadBytes = limit;
    }
    expect(await postAll(card, button.value as string)).toBe('posted');
    await expectZipPosted(card, t);
  });

  it('says so when the ticket’s media are gone by the time the button is pressed', async () => {
    const t = ticket('ACME-1006');
    addTo(t);
    const card = await showCard('ACME-1006');
    const button = allButton(await mediaList(card, t)) as Json;
    for (const m of mediasOf(t)) f.platform.sim.state.medias.delete(m.id);
    expect(await postAll(card, button.value as string)).toContain(
      'This ticket has no snapshot, document or recording on the video platform (any more)',
    );
    expect(filesIn(card)).toEqual([]);
  });

  it('the platform answering 429 once: waited out, posted once', async () => {
    const t = ticket('ACME-1004');
    const card = await showCard('ACME-1004');
    const button = allButton(await mediaList(card, t)) as Json;
    const from = f.platform.sim.requests.length;
    f.platform.sim.setFaults({ failNext: 1, failNextStatus: 429, failNextMethod: 'GET' });
    try {
      expect(await postAll(card, button.value as string)).toBe('posted');
    } finally {
      f.platform.sim.setFaults(noFaults);
    }
    await expectZipPosted(card, t);
    // Nothing else arrives later (a second upload of the same click).
    await new Promise((r) => setTimeout(r, 300));
    expect(filesIn(card)).toHaveLength(1);
    expect(f.platform.sim.requests.slice(from).filter((r) => r.status === 429).length).toBe(1);
  });

  it('the platform down: told in a sentence, nothing posted; the same click then works', async () => {
    const t = ticket('ACME-1004');
    const card = await showCard('ACME-1004');
    const button = allButton(await mediaList(card, t)) as Json;
    f.platform.sim.setFaults({ failNext: 20, failNextStatus: 503, failNextMethod: 'GET' });
    let said: string;
    try {
      said = await postAll(card, button.value as string);
    } finally {
      f.platform.sim.setFaults(noFaults);
    }
    expect(said).toBe('The video platform had an internal error. Please try again in a moment.');
    expect(filesIn(card)).toEqual([]);
    expect(await postAll(card, button.value as string)).toBe('posted');
    await expectZipPosted(card, t);
  });

  it.each(['files.getUploadURLExternal', 'files.completeUploadExternal'])(
    'Slack answering 429 to %s: waited out, posted once',
    async (method) => {
      const t = ticket('ACME-1004');
      const card = await showCard('ACME-1004');
      const button = allButton(await mediaList(card, t)) as Json;
      f.slack.failNext(method, { kind: 'rate_limited', retryAfter: 1 });
      expect(await postAll(card, button.value as string)).toBe('posted');
      await new Promise((r) => setTimeout(r, 300));
      await expectZipPosted(card, t);
    },
  );

  it('a reference from outside: the archive’s name is letters, digits and dashes; the sentences escape it', async () => {
    const t = ticket('ACME-1003');
    const original = t.reference;
    addTo(t);
    const card = await showCard('ACME-1003');
    const button = allButton(await mediaList(card, t)) as Json;
    // The platform's reference changes after the list was shown: the button reads the ticket again.
    t.reference = 'ACME-1003 <!channel> *x*/../.zip';
    try {
      const from = f.platform.sim.requests.length;
      const media = f.confdesk.deps.media;
      const limit = media.maxUploadBytes;
      media.maxUploadBytes = 100;
      let said: string;
      try {
        said = await postAll(card, button.value as string);
      } finally {
        media.maxUploadBytes = limit;
      }
      expect(said).toContain('The media of ACME-1003 &lt;!channel&gt;');
      expect(said).not.toContain('<!channel>');
      expect(await postAll(card, button.value as string)).toBe('posted');
      expect(downloads(t, from).map((r) => r.query.filename)).toEqual([
        'ACME-1003-channel-x-zip-media',
        'ACME-1003-channel-x-zip-media',
      ]);
      await expectZipPosted(card, t);
    } finally {
      t.reference = original;
    }
  });
});
