import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textMessage } from '../../src/blocks/kit.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { postRepliesWithUndici, postToResponseUrl } from '../../src/outbound/respond.js';

/** A response_url on loopback: keeps each body it was sent, answers 404 on /gone. */
let server: Server;
let base: string;
const received: { path: string; type: string | undefined; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', type: req.headers['content-type'], body: JSON.parse(body) });
      res.statusCode = req.url === '/gone' ? 404 : 200;
      res.end(req.url === '/gone' ? 'expired_url' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('replies to a response_url', () => {
  it('posts a builder’s reply as JSON, and throws on a refusal', async () => {
    await postToResponseUrl(`${base}/ok`, textMessage(md`Done`));
    expect(received.at(-1)).toMatchObject({ path: '/ok', type: 'application/json', body: { text: 'Done' } });
    await expect(postToResponseUrl(`${base}/gone`, textMessage(md`Late`))).rejects.toThrow('answered 404');
  });

  it('gives Bolt’s respond the same poster, with the answer Bolt reads (ok, status)', async () => {
    const app = new App({ token: 'xoxb-test', signingSecret: 'secret' });
    expect(postRepliesWithUndici(app)).toBe(true);
    const fetchFn = (app as unknown as { fetchFn: (u: string, i: { body: string }) => Promise<unknown> })
      .fetchFn;
    expect(await fetchFn(`${base}/bolt`, { body: JSON.stringify({ text: 'Working' }) })).toEqual({
      ok: true,
      status: 200,
      statusText: '',
    });
    expect(received.at(-1)).toMatchObject({ path: '/bolt', body: { text: 'Working' } });
    expect(await fetchFn(`${base}/gone`, { body: '{}' })).toMatchObject({ ok: false, status: 404 });
    // An object that is not Bolt's (no fetchFn) is left alone, and says so.
    expect(postRepliesWithUndici({} as App)).toBe(false);
  });
});
