import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hides, wantsTimeline } from '../../src/domain/change-cover.js';
import { describeBacklog, pollingRegime } from '../../src/domain/ticket-feed.js';
import { readSignal, webhookDelivery } from '../../src/platform/webhook-signal.js';

describe('how far polling alone goes (the capacity table of docs/events.md)', () => {
  const at = (openTickets: number) =>
    pollingRegime({ openTickets, perMinute: 10, reserve: 2, pageSize: 100, pollIntervalMin: 0.5 });
  it.each([
    [100, 1, 0.5, 6, 'poll'],
    [400, 4, 1, 4, 'poll'],
    [1_000, 10, 2.5, 4, 'webhooks'],
    [4_000, 40, 10, 4, 'webhooks'],
  ] as const)(
    '%i tickets: %i pages, a scan every %f min, %f reads a minute left, %s',
    (n, pages, every, reads, verdict) => {
      expect(at(n)).toMatchObject({ pages, scanEveryMin: every, readsPerMin: reads, verdict });
      // docs/events.md's table says the same, row for row.
      const readme = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
      expect(readme).toMatch(
        new RegExp(`^\\| ${n.toLocaleString('en')} \\| ${pages} \\| [^|]+ \\| ${reads} \\|`, 'm'),
      );
    },
  );

  it('says webhooks are needed when the changes outrun the reads left', () => {
    const r = pollingRegime({
      openTickets: 100,
      perMinute: 10,
      reserve: 2,
      pageSize: 100,
      pollIntervalMin: 0.5,
      changesPerMin: 10,
    });
    expect(r.verdict).toBe('webhooks');
    expect(r.summary).toMatch(/set up webhooks/);
  });
});

describe('the backlog in a sentence', () => {
  it('says how many, since when, and until when', () => {
    expect(describeBacklog({ reads: 0, verify: 0, oldestMs: undefined, drainMs: 0 })).toBe(
      'no change waiting',
    );
    expect(describeBacklog({ reads: 12, verify: 3, oldestMs: 180_000, drainMs: 120_000 })).toBe(
      "12 tickets' events still to read, the oldest for 3 min; read in about 2 min at the current pace (cards and state lines are already current)",
    );
    expect(describeBacklog({ reads: 2, verify: 0, oldestMs: 4_000, drainMs: undefined })).toMatch(
      /drain time not known yet/,
    );
  });

  it('says what still waits for Slack, and never that the cards are current while they are not', () => {
    const none = { reads: 0, verify: 0, oldestMs: undefined, drainMs: 0 };
    expect(describeBacklog({ ...none, posts: 21, postsOldestMs: 25_000 })).toBe(
      '21 messages (cards, thread lines) waiting to be posted in Slack, the oldest for 25 s',
    );
    expect(describeBacklog({ ...none, posts: 0, cardUpdates: 1 })).toBe(
      '1 ticket card waiting for an update',
    );
    const both = describeBacklog({
      reads: 53,
      verify: 0,
      oldestMs: 120_000,
      drainMs: 600_000,
      posts: 49,
      postsOldestMs: 300_000,
      cardUpdates: 0,
    });
    expect(both).toMatch(/^49 messages .* the oldest for 5 min; 53 tickets' events still to read/);
    expect(both).not.toContain('already current');
    expect(describeBacklog({ ...none, posts: 0, cardUpdates: 0 })).toBe('no change waiting');
    // New tickets the webhooks told, before the scan that gives their cards: not "no change waiting".
    const fresh = describeBacklog({ ...none, verify: 40, awaitingScan: 40 });
    expect(fresh).toBe('40 new tickets told by webhooks waiting for the next scan (their cards follow it)');
    const withReads = describeBacklog({ ...none, reads: 3, oldestMs: 5_000, awaitingScan: 1 });
    expect(withReads).toContain(
      '1 new ticket told by webhooks waiting for the next scan (its card follows it)',
    );
    expect(withReads).not.toContain('already current');
  });
});

describe('a state line’s cover', () => {
  const cover = { since: '2027-01-01T10:00:00.000Z', at: '2027-01-01T10:00:05.000Z', only: 'state' as const };
  const event = (eventName: string, at = '2027-01-01T10:00:03.000Z', source = 'agent') => ({
    eventName,
    timestamp: new Date(at),
    source,
  });
  it('hides the state events of its versions, and nothing else', () => {
    expect(hides(cover, event('ticket.completed'))).toBe(true);
    expect(hides(cover, event('ticket.assigned'))).toBe(false);
    expect(hides(cover, event('media.pictureTaken'))).toBe(false);
    expect(hides(cover, event('ticket.completed', '2027-01-01T10:00:06.000Z'))).toBe(false);
    // Whoever moved it: the guest's join or decline is the move the line told.
    expect(hides(cover, event('ticket.sessionStarted', undefined, 'guest'))).toBe(true);
    expect(hides(cover, event('ticket.invitationDeclined', undefined, 'guest'))).toBe(true);
    expect(hides(cover, event('consent.accepted', undefined, 'guest'))).toBe(false);
    // A person's line (no `only`) hides every ticket.* event of its versions, as before.
    expect(hides({ since: cover.since, at: cover.at }, event('ticket.assigned'))).toBe(true);
  });
  it('needs a timeline read only for kinds the list cannot show', () => {
    expect(wantsTimeline(undefined)).toBe(true);
    expect(wantsTimeline(['ticket.completed', 'ticket.closed'])).toBe(false);
    expect(wantsTimeline(['ticket.completed', 'media.pictureTaken'])).toBe(true);
  });
});

describe('what a webhook delivery tells (inferred shapes, tolerated)', () => {
  const read = (body: unknown) => readSignal(webhookDelivery.parse(body));
  it('reads a timeline event whole, under camelCase or snake_case names', () => {
    for (const props of [
      {
        ticketId: 82000,
        eventName: 'media.pictureTaken',
        timestamp: '2027-01-01T10:00:00+00:00',
        source: 'agent',
      },
      { ticket_id: '82000', event_name: 'media.pictureTaken', created: 1798797600, source: 'agent' },
    ])
      expect(
        read({ event: 'create', time: 1798797600, object: 'conversationevent', objectId: 'ev-9', props }),
      ).toEqual({
        kind: 'event',
        ticketId: '82000',
        eventId: 'ev-9',
        eventName: 'media.pictureTaken',
        timestamp: new Date('2027-01-01T10:00:00Z'),
        source: 'agent',
        data: undefined,
      });
  });
  it('names the ticket of one that says too little, and what it missed', () => {
    expect(
      read({ event: 'create', time: 1, object: 'conversationevent', objectId: 5, props: { ticketId: 7 } }),
    ).toEqual({
      kind: 'partial',
      ticketId: '7',
      missing: ['eventName', 'timestamp'],
    });
    expect(read({ event: 'create', time: 1, object: 'conversationevent', objectId: 5, props: [] })).toEqual({
      kind: 'none',
    });
  });
  it('reads a ticket’s state and time, and ignores what is not about tickets', () => {
    expect(
      read({
        event: 'update',
        time: 1798797600,
        object: 'ticket',
        objectId: 82000,
        props: { state: 'done' },
      }),
    ).toEqual({
      kind: 'ticket',
      ticketId: '82000',
      event: 'update',
      state: 'done',
      at: new Date('2027-01-01T10:00:00Z'),
    });
    expect(read({ event: 'update', time: 'soon', object: 'ticket', objectId: 1, props: [] })).toMatchObject({
      state: undefined,
      at: undefined,
    });
    expect(read({ event: 'create', time: 1, object: 'media', objectId: 1, props: {} })).toEqual({
      kind: 'none',
    });
  });
});
