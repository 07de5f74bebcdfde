import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { PlatformHttpError, PlatformNetworkError } from '../../src/platform/errors.js';

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
});
