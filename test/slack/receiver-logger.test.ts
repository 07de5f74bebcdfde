import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { receiverLogger } from '../../src/slack/runtime/receiver-guard.js';

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('the logger of Bolt’s HTTP receiver', () => {
  it('writes Bolt’s warning for an unsigned request once a minute, with the reason and the count held back; other lines as they come', () => {
    let t = 0;
    const lines: Line[] = [];
    const base = createLogger('debug', { write: (l: string) => void lines.push(JSON.parse(l) as Line) });
    const bolt = receiverLogger(base, { now: () => t });
    const unsigned = (reason: string) =>
      bolt.warn(`Failed to parse and verify the request data: Failed to verify authenticity: ${reason}`);
    for (let i = 0; i < 100; i++) {
      unsigned(i === 0 ? 'signature mismatch' : 'unknown signature version');
      t += 100;
    }
    bolt.warn('Malformed request body: Unexpected token');
    bolt.warn('Malformed request body: Unexpected token');
    bolt.error('something Bolt could not do');
    expect(lines.map((l) => [l.level, l.msg.slice(0, 30)])).toEqual([
      [40, 'refused a request to the Slack'],
      [40, 'Malformed request body: Unexpe'],
      [40, 'Malformed request body: Unexpe'],
      [50, 'something Bolt could not do'],
    ]);
    expect(lines[0]).toMatchObject({
      status: 401,
      reason: 'Failed to verify authenticity: signature mismatch',
    });
    expect(lines[0]?.msg).toContain('SLACK_SIGNING_SECRET');
    // A minute on (a wrong SLACK_SIGNING_SECRET would keep them coming): the next one is written, with the count.
    t = 60_000;
    unsigned('signature mismatch');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toMatchObject({ level: 40, held: 99 });
    expect(lines[4]?.msg).toContain('99 more like it');
  });
});
