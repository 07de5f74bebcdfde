import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotFixture, eventually, people, startBot } from '../helpers/bot.js';
import { startProxy } from '../helpers/proxy.js';

/*
 * Issue 23 §6 for Socket Mode: behind a company's proxy, the bot's socket to Slack goes through it
 * (Slack's own is wss://slack…, tunnelled with CONNECT; the double's is ws://127.0.0.1, tunnelled the same).
 */

let proxy: Awaited<ReturnType<typeof startProxy>>;
let f: BotFixture;

beforeAll(async () => {
  proxy = await startProxy();
  f = await startBot({ socket: true, proxy: { httpProxy: proxy.url } });
});
afterAll(async () => {
  await f?.close();
  await proxy?.stop();
});

describe('Socket Mode behind a proxy', () => {
  it('opens the socket through the proxy, and serves a command over it', async () => {
    const doubleHost = new URL(f.slack.apiUrl).host;
    await eventually(() => f.slack.socket?.openConnections === 1);
    // apps.connections.open and the WebSocket both went through the tunnel to the double.
    expect(proxy.seen.filter((s) => s === doubleHost).length).toBeGreaterThanOrEqual(2);
    const before = proxy.seen.length;
    const res = await f.command('help', people.alice.id, 'C1', '/ticket');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain('/ticket');
    // The command came over the socket already open: no new tunnel for it.
    expect(proxy.seen.length).toBe(before);
  });
});
