import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { type Playground, runPlayground } from '../../src/playground/start.js';

/*
 * The playground as `npm start` runs it without Slack credentials: its page and the bot's own port
 * (which takes the page's signed requests) answer on loopback only, whatever HOST says; and its
 * platform is the built-in simulator, the one place it runs without being named.
 */

/** Whether a TCP connection to host:port is taken. 127.0.0.2 is this host, but not 127.0.0.1. */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let pg: Playground;
beforeAll(async () => {
  // An operator's HOST (every interface) must not open the playground's bot to the network.
  pg = await runPlayground({ env: { HOST: '0.0.0.0' }, port: 0, logger: createLogger('silent') });
}, 30_000);
afterAll(async () => {
  await pg.stop();
});

describe('the playground', () => {
  it('listens on 127.0.0.1 only: its page and its bot', async () => {
    const page = Number(new URL(pg.url).port);
    for (const port of [page, pg.bot.port]) {
      expect(await accepts('127.0.0.1', port)).toBe(true);
      expect(await accepts('127.0.0.2', port)).toBe(false);
    }
  });

  it('runs the built-in simulator without PLATFORM_URL', () => {
    expect(pg.bot.sim).toBeDefined();
  });
});
