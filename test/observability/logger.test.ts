import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, prettyDestination } from '../../src/observability/logger.js';
import { PlatformHttpError, PlatformNetworkError } from '../../src/platform/errors.js';
import { requestLog } from '../../src/slack/runtime/after-ack.js';

/** A logger writing into an array of parsed lines. */
function capture(level: string) {
  const lines: { err?: { stack?: string; message?: string } }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}

describe('the logger', () => {
  it('logs a known failure (one with a code) without its stack at info, with it at debug', () => {
    const refused = new PlatformHttpError('getMe', 401, { error: 'Unauthorized' });
    const down = new PlatformNetworkError('getMe', 'connection', 'ECONNREFUSED', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const info = capture('info');
    info.logger.error({ err: refused }, 'x');
    info.logger.error({ err: down }, 'y');
    expect(info.lines[0]?.err?.message).toBe(refused.message);
    expect(info.lines[1]?.err?.message).toContain(down.message);
    expect(JSON.stringify(info.lines)).not.toContain('    at ');
    const debug = capture('debug');
    debug.logger.error({ err: refused }, 'x');
    expect(debug.lines[0]?.err?.stack).toContain('    at ');
  });

  it('keeps the stack of an unclassified error (a bug) at every level', () => {
    const info = capture('info');
    info.logger.error({ err: new TypeError('x is undefined') }, 'unexpected failure');
    expect(info.lines[0]?.err?.stack).toContain('    at ');
  });

  it('tags each line of a Slack request with its team, user, action and one request id', () => {
    const { logger, lines } = capture('info');
    const one = requestLog(logger, { user: 'U1', team: 'T1', action: 'ticket_move' });
    one.info('first');
    one.warn('second');
    requestLog(logger, { user: 'U1', team: 'T1' }).info('another request');
    const [a, b, c] = lines as unknown as Record<string, unknown>[];
    expect(a).toMatchObject({
      user: 'U1',
      team: 'T1',
      action: 'ticket_move',
      request: expect.stringMatching(/^[0-9a-f]{4}[0-9a-z]+$/),
    });
    expect(b?.request).toBe(a?.request);
    expect(c?.request).not.toBe(a?.request);
  });

  it('makes a request’s child logger only when the request logs (an ack pays for none)', () => {
    const { logger, lines } = capture('info');
    let children = 0;
    const child = logger.child.bind(logger);
    logger.child = ((...args: Parameters<typeof child>) => {
      children++;
      return child(...args);
    }) as typeof logger.child;
    const quiet = requestLog(logger, { user: 'U1' });
    const talking = requestLog(logger, { user: 'U2' });
    expect(children).toBe(0);
    talking.info('one');
    talking.info('two');
    expect(children).toBe(1);
    expect(quiet).toBeDefined();
    expect(lines).toHaveLength(2);
    // A request's logger shows nothing of its own before it is made: looking at it makes none.
    expect(Object.keys(quiet)).toEqual([]);
    expect(children).toBe(1);
    expect('info' in quiet).toBe(true);
    expect(children).toBe(2);
  });

  it('writes the same line readably for a terminal with LOG_FORMAT=pretty, secrets still redacted', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    const logger = createLogger('info', prettyDestination(sink));
    logger.info({ token: 'xoxb-secret-123', channel: 'C1' }, 'posted the card');
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toMatch(/INFO.*posted the card/);
    expect(text).toContain('channel: "C1"');
    expect(text).not.toContain('xoxb-secret-123');
    expect(text.trim().startsWith('{')).toBe(false);
  });
});
