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
});
