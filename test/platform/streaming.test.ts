import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentStream } from '../../src/sim/content.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

let fx: PlatformFixture;
beforeAll(async () => {
  fx = await startPlatform();
});
afterAll(() => fx.close());

describe('media downloads', () => {
  it('streams a 200 MB recording to the caller with bounded memory', async () => {
    const size = 200 * 1024 * 1024;
    const content = { kind: 'generated' as const, size, seed: 77 };
    const media = fx.sim.state.addMedia({
      enterpriseId: 1,
      userId: 100,
      type: 'recording',
      title: 'Long recording',
      format: 'video/mp4',
      content,
    });

    const expected = createHash('sha256');
    for await (const chunk of contentStream(content)) expected.update(chunk as Buffer);

    global.gc?.();
    const baseline = process.memoryUsage();
    let peak = 0;
    const download = await fx.client.downloadMedia({ mediaId: media.id });
    expect(download.contentLength).toBe(size);
    expect(download.contentType).toBe('video/mp4');
    const hash = createHash('sha256');
    let received = 0;
    for await (const chunk of download.body) {
      hash.update(chunk as Buffer);
      received += (chunk as Buffer).length;
      if (received % (8 * 1024 * 1024) < (chunk as Buffer).length) {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.heapUsed + m.arrayBuffers - (baseline.heapUsed + baseline.arrayBuffers));
      }
    }
    expect(received).toBe(size);
    expect(hash.digest('hex')).toBe(expected.digest('hex'));
    // Buffering the file would need 200 MB; streaming keeps the growth to a few chunks and GC slack.
    expect(peak).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('pagination', () => {
  it('walks every ticket through the {data,total,next_offset} envelope, one request per page', async () => {
    const all = [...fx.sim.state.tickets.values()].filter((t) => t.enterpriseId === 1 && !t.deleted);
    const from = fx.sim.requests.length;
    const seen: unknown[] = [];
    for await (const t of fx.client.paginate('listTickets', { user: 'all' }, { pageSize: 2 }))
      seen.push(t.id);
    expect(seen.sort()).toEqual(all.map((t) => t.id).sort());
    const pages = fx.sim.requests.slice(from);
    expect(pages).toHaveLength(Math.ceil(all.length / 2));
    expect(pages.map((r) => r.query.offset)).toEqual(pages.map((_, i) => String(i * 2)));
  });

  it('walks a bare-array list until a short page', async () => {
    const ticket = [...fx.sim.state.tickets.values()].find((t) => t.reference === 'ACME-1005');
    if (!ticket) throw new Error('seed ticket missing');
    const from = fx.sim.requests.length;
    const names: string[] = [];
    for await (const e of fx.client.paginate('listTicketEvents', { ticketId: ticket.id }, { pageSize: 3 })) {
      names.push(e.eventName);
    }
    expect(names).toEqual(ticket.events.map((e) => e.eventName));
    expect(fx.sim.requests.length - from).toBe(Math.floor(ticket.events.length / 3) + 1);
  });

  it('stops early when the caller stops reading', async () => {
    const from = fx.sim.requests.length;
    for await (const _ of fx.client.paginate('listTickets', { user: 'all' }, { pageSize: 2 })) break;
    expect(fx.sim.requests.length - from).toBe(1);
  });
});
