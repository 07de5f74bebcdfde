import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildJobNotice } from '../../src/blocks/job-notices.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { DeliveryWorker } from '../../src/jobs/delivery.js';
import { createLogger } from '../../src/observability/logger.js';
import { deliveryClient } from '../../src/outbound/clients.js';
import { findTagged, postTagged } from '../../src/outbound/ledger.js';
import { gatheredMessage, outboxMessage } from '../../src/outbound/publisher.js';
import { SlackAccess } from '../../src/outbound/slack-access.js';
import { inspectStore, openStore, type Store } from '../../src/store/store.js';

let slack: SlackDouble;
let store: Store;
let dir: string;
beforeEach(async () => {
  slack = await new SlackDouble().start();
  dir = mkdtempSync(join(tmpdir(), 'confdesk-outbound-'));
});
afterEach(async () => {
  await store?.close();
  await slack.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the ledger: finding an earlier post by its metadata', () => {
  const tag = { type: 'confdesk_ticket_event', payload: { ticket_id: '7', event_id: 'e1' } };

  it('finds a post that 250 later messages pushed past the first page, from the first attempt on', async () => {
    const client = deliveryClient({ token: 'xoxb-ledger', apiUrl: slack.apiUrl });
    const before = new Date(Date.now() - 1_000);
    const ts = await postTagged(client, { channel: 'CBUSY' }, { text: 'the event' }, tag);
    for (let i = 0; i < 250; i++) await client.chat.postMessage({ channel: 'CBUSY', text: `chatter ${i}` });

    expect(await findTagged(client, { channel: 'CBUSY', oldest: before }, tag)).toBe(ts);
    // Both pages (Slack gives 200 at most) were read, none before `oldest`.
    const pages = slack.callsOf('conversations.history');
    expect(pages.length).toBe(2);
    expect(pages.every((c) => Number(c.args.oldest) <= before.getTime() / 1000)).toBe(true);
    // Another event's tag is not this one's.
    expect(
      await findTagged(
        client,
        { channel: 'CBUSY', oldest: before },
        { ...tag, payload: { ...tag.payload, event_id: 'e2' } },
      ),
    ).toBeUndefined();
  });

  it('looks in the channel when the thread it was meant for is gone', async () => {
    const client = deliveryClient({ token: 'xoxb-ledger', apiUrl: slack.apiUrl });
    const ts = await postTagged(client, { channel: 'CTHREAD' }, { text: 'posted in the channel' }, tag);
    slack.failNext('conversations.replies', { kind: 'error', error: 'thread_not_found' });
    expect(
      await findTagged(client, { channel: 'CTHREAD', threadTs: '1.000001', oldest: new Date(0) }, tag),
    ).toBe(ts);
  });
});

describe('a token Slack refuses', () => {
  it('pauses delivery with one log line, keeps every item, says why, and resumes once Slack takes it again', async () => {
    let clock = Date.parse('2027-01-01T10:00:00Z');
    store = await openStore({ dataDir: dir, now: () => new Date(clock) });
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _e, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const client = deliveryClient({ token: 'xoxb-revoked', apiUrl: slack.apiUrl });
    const access = new SlackAccess({ slack: client, store, logger, now: () => new Date(clock) });
    const worker = new DeliveryWorker({
      store,
      slack: client,
      slackAccess: access,
      logger,
      owner: 'w1',
      paceMs: 0,
      now: () => new Date(clock),
      sleep: async () => undefined,
      publisher: {
        render: (item) => outboxMessage(item, () => Promise.reject(new Error('no cards')), 'en'),
        notice: async (n) => buildJobNotice('en', n),
        gather: (items) => gatheredMessage(items, 'en'),
      },
    });
    await store.advance(
      ['e1', 'e2', 'e3'].map((eventId) => ({
        ticketId: '7',
        eventId,
        channel: 'CDESK',
        payload: { eventName: 'ticket.stateChanged', timestamp: '2027-01-01T09:59:00Z' },
      })),
    );
    slack.refuse = () => 'token_revoked';

    expect(await worker.runOnce()).toBe(0);
    // Tried again and again within the minute: nothing more is asked of Slack.
    const asked = slack.calls.length;
    for (let i = 0; i < 5; i++) {
      clock += 2_000;
      expect(await worker.runOnce()).toBe(0);
    }
    expect(slack.calls.length).toBe(asked);
    expect(lines.filter((l) => l.includes('Slack refuses the bot token (token_revoked)'))).toHaveLength(1);
    expect(access.problem()).toMatch(/^slack: Slack refuses the bot token \(token_revoked\)/);
    expect((await inspectStore({ dataDir: dir })).slackRefusal).toMatchObject({ code: 'token_revoked' });
    expect((await store.outboxOf('7')).map((i) => i.status)).toEqual(['pending', 'pending', 'pending']);

    // A minute later auth.test is asked once; still refused, still paused.
    clock += 60_000;
    expect(await worker.runOnce()).toBe(0);
    expect(slack.callsOf('auth.test')).toHaveLength(1);

    // An admin reinstalls: the next check passes and everything goes out once, in order (the three
    // lines of the thread waited together: one message).
    slack.refuse = undefined;
    clock += 60_000;
    expect(await worker.runOnce()).toBe(3);
    expect(access.problem()).toBeUndefined();
    expect((await inspectStore({ dataDir: dir })).slackRefusal).toBeUndefined();
    const posted = slack.messages.filter((m) => m.channel === 'CDESK');
    expect(posted.map((m) => (m.metadata as { event_payload: unknown }).event_payload)).toEqual([
      { ticket_id: '7', event_id: 'e1', event_ids: 'e1 e2 e3' },
    ]);
    expect(lines.filter((l) => l.includes('Slack accepts the bot token again'))).toHaveLength(1);
  });
});
