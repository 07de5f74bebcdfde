import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';

let slack: SlackDouble;
let client: WebClient;
beforeAll(async () => {
  slack = await new SlackDouble().start();
  client = new WebClient('xoxb-double', {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
});
afterAll(() => slack.stop());

describe('the Slack double', () => {
  it('records posts, decodes blocks and metadata, and updates messages in place', async () => {
    const posted = await client.chat.postMessage({
      channel: 'C1',
      text: 'hello',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }],
      metadata: { event_type: 'ticket_event', event_payload: { id: 'ev-1' } },
    });
    expect(posted.ok).toBe(true);
    expect(slack.messages[0]).toMatchObject({
      channel: 'C1',
      text: 'hello',
      metadata: { event_payload: { id: 'ev-1' } },
    });
    expect(slack.messages[0]?.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }]);
    await client.chat.update({ channel: 'C1', ts: posted.ts as string, text: 'edited' });
    expect(slack.messages[0]?.text).toBe('edited');
    expect(slack.callsOf('chat.update')).toHaveLength(1);
  });

  it('answers 429 with Retry-After, and {ok:false,error} such as not_in_channel, when told to', async () => {
    slack.failNext('chat.postMessage', { kind: 'rate_limited', retryAfter: 7 });
    const limited = await client.chat.postMessage({ channel: 'C2', text: 'x' }).catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 });
    slack.notInChannel.add('C3');
    const refused = await client.chat.postMessage({ channel: 'C3', text: 'x' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ data: { error: 'not_in_channel' } });
    expect(slack.messages.filter((m) => m.channel !== 'C1')).toEqual([]);
  });

  it('serves users by id and by e-mail, with their time zone', async () => {
    slack.addUser({ id: 'U42', email: 'ada@example.com', tz: 'America/New_York' });
    expect((await client.users.info({ user: 'U42' })).user?.tz).toBe('America/New_York');
    expect((await client.users.lookupByEmail({ email: 'ada@example.com' })).user?.id).toBe('U42');
  });

  it('answers a person’s locale only with include_locale, as Slack does', async () => {
    slack.addUser({ id: 'U43', email: 'amelie@example.com', locale: 'fr-FR' });
    expect((await client.users.info({ user: 'U43' })).user?.locale).toBeUndefined();
    expect((await client.users.info({ user: 'U43', include_locale: true })).user?.locale).toBe('fr-FR');
  });

  it('implements the files upload v2 flow', async () => {
    await client.files.uploadV2({
      channel_id: 'C9',
      file: Buffer.from('bytes!'),
      filename: 'a.txt',
      thread_ts: '1.000001',
    });
    const upload = [...slack.uploads.values()].find((u) => u.filename === 'a.txt');
    expect(upload?.bytes?.toString()).toBe('bytes!');
    expect(slack.messages.find((m) => m.channel === 'C9')?.thread_ts).toBe('1.000001');
  });

  it('counts an upload past keepUploadBytes as it streams in, without keeping it', async () => {
    const slot = await client.files.getUploadURLExternal({ filename: 'big.bin', length: 300_000 });
    slack.keepUploadBytes = 100_000;
    try {
      const chunk = Buffer.alloc(60_000, 1);
      const body = (async function* () {
        for (let i = 0; i < 5; i++) yield chunk;
      })();
      const res = await fetch(
        slot.upload_url as string,
        {
          method: 'POST',
          body: ReadableStream.from(body),
          duplex: 'half',
        } as RequestInit,
      );
      expect(res.status).toBe(200);
    } finally {
      slack.keepUploadBytes = 16 * 1024 * 1024;
    }
    const upload = slack.uploads.get(slot.file_id as string);
    expect(upload?.size).toBe(300_000);
    expect(upload?.bytes).toBeUndefined();
    await client.files.completeUploadExternal({
      files: [{ id: slot.file_id as string }],
      channel_id: 'CBIG',
    });
    expect(slack.messages.find((m) => m.channel === 'CBIG')?.files).toEqual([
      expect.objectContaining({ name: 'big.bin', size: 300_000 }),
    ]);
  });

  it('shows files of an upload under their message (name, size, type), and marks updated messages edited', async () => {
    await client.files.uploadV2({ channel_id: 'CF1', file: Buffer.from('png!'), filename: 'shot.png' });
    const m = slack.messages.find((x) => x.channel === 'CF1');
    expect(m?.files).toEqual([expect.objectContaining({ name: 'shot.png', size: 4, mimetype: 'image/png' })]);
    const posted = await client.chat.postMessage({ channel: 'CF1', text: 'before' });
    expect(slack.messages.find((x) => x.ts === posted.ts)?.edited).toBeUndefined();
    await client.chat.update({ channel: 'CF1', ts: posted.ts as string, text: 'after' });
    expect(slack.messages.find((x) => x.ts === posted.ts)?.edited).toBe(true);
  });

  it('keeps ephemerals for their person: chat.postEphemeral, and answers to a person’s response_url', async () => {
    await client.chat.postEphemeral({ channel: 'CE1', user: 'UEPH', text: 'only you' });
    expect(slack.ephemerals.filter((e) => e.user === 'UEPH').map((e) => e.text)).toEqual(['only you']);

    // A command's ack is its first private answer; delete_original later removes it, as in Slack.
    const url = slack.responseUrlForUser({ user: 'UCMD', channel: 'CE1', command: true });
    slack.answerCommand(url, { response_type: 'ephemeral', text: 'Working…' });
    expect(slack.ephemerals.filter((e) => e.user === 'UCMD').map((e) => e.text)).toEqual(['Working…']);
    await fetch(url, { method: 'POST', body: JSON.stringify({ delete_original: true }) });
    expect(slack.ephemerals.filter((e) => e.user === 'UCMD')).toEqual([]);
    await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ response_type: 'in_channel', text: 'for all' }),
    });
    expect(slack.messages.find((m) => m.channel === 'CE1')?.text).toBe('for all');

    // A click on an ephemeral: replace_original acts on that ephemeral.
    const eph = slack.ephemerals.find((e) => e.user === 'UEPH');
    const click = slack.responseUrlForUser({ user: 'UEPH', channel: 'CE1', ephemeral: eph?.id });
    await fetch(click, { method: 'POST', body: JSON.stringify({ replace_original: true, text: 'page 2' }) });
    expect(slack.ephemerals.find((e) => e.id === eph?.id)?.text).toBe('page 2');
  });

  it('keeps each person’s modal stack (by trigger_id) and App Home, and tells listeners of each change', async () => {
    const versions: number[] = [];
    const unsubscribe = slack.onChange((v) => versions.push(v));
    slack.registerTrigger('t-1', 'UMOD');
    const modal = (title: string) => ({
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: title },
      blocks: [],
    });
    const opened = await client.views.open({
      trigger_id: 't-1',
      view: { ...modal('One'), external_id: 'x-1' },
    });
    slack.registerTrigger('t-2', 'UMOD');
    await client.views.push({ trigger_id: 't-2', view: modal('Two') });
    expect(slack.modals('UMOD').map((m) => (m.view.title as { text: string }).text)).toEqual(['One', 'Two']);
    expect(slack.modals('USOMEONE')).toEqual([]);
    await client.views.update({ external_id: 'x-1', view: modal('One, updated') });
    expect(slack.modals('UMOD')[0]?.view.title).toMatchObject({ text: 'One, updated' });
    slack.setModalErrors(opened.view?.id as string, { name: 'Say a name' });
    expect(slack.modals('UMOD')[0]?.errors).toEqual({ name: 'Say a name' });
    slack.closeModal('UMOD', opened.view?.id as string);
    expect(slack.modals('UMOD')).toEqual([]);

    await client.views.publish({ user_id: 'UMOD', view: { type: 'home', blocks: [] } });
    expect(slack.homes.get('UMOD')).toMatchObject({ type: 'home', id: 'VHOMEUMOD' });
    unsubscribe();
    expect(versions.length).toBeGreaterThanOrEqual(6);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
  });

  // issue 37: reactions
  it('keeps a person’s reaction under the message and answers the reaction_added event Slack sends', async () => {
    const m = slack.postAsUser('UREACT', 'CREACT', 'printer on fire');
    const event = slack.react('UOTHER', 'CREACT', m.ts, 'ticket');
    slack.react('UOTHER', 'CREACT', m.ts, 'ticket');
    expect(event).toMatchObject({
      type: 'reaction_added',
      user: 'UOTHER',
      reaction: 'ticket',
      item_user: 'UREACT',
      item: { type: 'message', channel: 'CREACT', ts: m.ts },
    });
    expect(m.reactions).toEqual([{ name: 'ticket', users: ['UOTHER'] }]);
    // The reacted message's text, as the bot reads it on a Create ticket click.
    const read = await client.conversations.replies({
      channel: 'CREACT',
      ts: m.ts,
      oldest: m.ts,
      latest: m.ts,
      inclusive: true,
      limit: 2,
    });
    expect(read.messages?.map((x) => x.text)).toEqual(['printer on fire']);
  });
});
