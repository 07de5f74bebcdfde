import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { escapes, installLastResort, runAs } from '../../src/observability/last-resort.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';

/** A logger whose lines the test reads, and a stand-in for the process's events. */
function installed() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (s: string) => void lines.push(JSON.parse(s)) });
  const events = new EventEmitter();
  const stops: string[] = [];
  const uninstall = installLastResort({ logger, stop: (kind) => stops.push(kind), events });
  return { lines, events, stops, uninstall };
}

const counted = async (kind: string) => {
  const text = await new Metrics().text();
  return Number(new RegExp(`confdesk_escaped_errors_total\\{kind="${kind}"\\} (\\d+)`).exec(text)?.[1]);
};

describe('the last resort', () => {
  it('logs a rejection nobody awaited with the listener it came from, counts it, and stays up', async () => {
    const { lines, events, stops, uninstall } = installed();
    const before = await counted('unhandledRejection');
    runAs('view ticket_export', () => events.emit('unhandledRejection', new Error('lost work')));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      kind: 'unhandledRejection',
      in: 'view ticket_export',
      err: { message: 'lost work' },
      msg: expect.stringContaining('confdesk stays up'),
    });
    expect(stops).toEqual([]);
    expect(await counted('unhandledRejection')).toBe(before + 1);
    uninstall();
  });

  it('logs an uncaught exception as fatal, counts it, and stops for the supervisor', async () => {
    const { lines, events, stops, uninstall } = installed();
    const before = escapes.uncaughtException;
    runAs('job poll', () => events.emit('uncaughtException', new Error('broken state')));
    expect(lines[0]).toMatchObject({ level: 60, kind: 'uncaughtException', in: 'job poll' });
    expect(String(lines[0]?.msg)).toContain('stops for its supervisor');
    expect(stops).toEqual(['uncaughtException']);
    expect(await counted('uncaughtException')).toBe(before + 1);
    uninstall();
  });

  it('names nothing when nothing named was running, and once removed hears nothing', () => {
    const { lines, events, uninstall } = installed();
    events.emit('unhandledRejection', new Error('from nowhere'));
    expect(lines[0]?.in).toBe('unknown');
    uninstall();
    expect(events.listenerCount('unhandledRejection') + events.listenerCount('uncaughtException')).toBe(0);
  });
});
