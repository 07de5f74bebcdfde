import { EventEmitter } from 'node:events';
import type { AllMiddlewareArgs, AnyMiddlewareArgs } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { installLastResort } from '../../../src/observability/last-resort.js';
import { createLogger } from '../../../src/observability/logger.js';
import { commandTextLimit } from '../../../src/slack/runtime/clip-command-text.js';
import { requestScope } from '../../../src/slack/runtime/request-scope.js';

type Args = AnyMiddlewareArgs & AllMiddlewareArgs;

function setUp() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s)) });
  return { lines, logger, scope: requestScope(logger) };
}

/** A command's arguments as Bolt gives a global middleware; `next` is the rest of the chain. */
function command(text: string, next: (args: Args) => Promise<void>, said: unknown[] = []) {
  const args = {
    body: { command: '/conference', text, user_id: 'U1' },
    context: {} as Record<string, unknown>,
    ack: async () => undefined,
    respond: async (message: unknown) => void said.push(message),
  } as unknown as Args;
  args.next = () => next(args);
  return args;
}

const gate = () => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
};

describe('the one global middleware (request scope)', () => {
  it('counts a request until its listener is done: a shutdown waits for it, and not when none runs', async () => {
    const { scope } = setUp();
    await scope.settled();
    const g = gate();
    const running = scope.middleware(command('now', () => g.opened));
    let settled = false;
    const waited = scope.settled().then(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    g.open();
    await running;
    await waited;
    expect(settled).toBe(true);
  });

  it('clips a long command text before the listener reads it, and tells the person only after the listener', async () => {
    const { scope, lines } = setUp();
    const said: unknown[] = [];
    const order: string[] = [];
    const long = `${'word '.repeat(commandTextLimit / 5)}tail`;
    await scope.middleware(
      command(
        long,
        async (args) => {
          const text = (args.body as { text: string }).text;
          order.push(`listener read ${text.length}`);
          expect(text.length).toBeLessThanOrEqual(commandTextLimit);
          expect(said).toEqual([]);
        },
        said,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([`listener read ${commandTextLimit - 1}`]);
    expect(JSON.stringify(said)).toContain(
      `I read only its first ${commandTextLimit.toLocaleString('en-US')}`,
    );
    expect(lines.find((l) => l.msg === 'clipped a command text')).toMatchObject({ length: long.length });
  });

  it('leaves a short text alone and says nothing', async () => {
    const { scope } = setUp();
    const said: unknown[] = [];
    let read = '';
    await scope.middleware(
      command(
        'guest@example.com now',
        async (args) => {
          read = (args.body as { text: string }).text;
        },
        said,
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(read).toBe('guest@example.com now');
    expect(said).toEqual([]);
  });

  it('keeps the ack for the error handler and names the listener for the last resort', async () => {
    const { scope, logger, lines } = setUp();
    const events = new EventEmitter();
    const uninstall = installLastResort({ logger, stop: () => undefined, events });
    try {
      const args = command('now', async () => {
        // What the last resort hears while this listener runs is logged with its name.
        events.emit('unhandledRejection', new Error('lost'));
      });
      await scope.middleware(args);
      expect(args.context.confdeskAck).toBe(args.ack);
      expect(lines.find((l) => String(l.msg).startsWith('a rejected promise'))).toMatchObject({
        in: 'command /conference',
      });
    } finally {
      uninstall();
    }
  });

  it('has each request’s Slack client watched when metrics ask (measureAcks counts its 429s)', async () => {
    const { logger } = setUp();
    const seen: unknown[] = [];
    const scope = requestScope(logger, (client) => void seen.push(client));
    const args = command('now', async () => undefined);
    const client = { name: 'the request’s client' };
    (args as unknown as { client: unknown }).client = client;
    await scope.middleware(args);
    expect(seen).toEqual([client]);
  });
});
