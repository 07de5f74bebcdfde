import { describe, expect, it } from 'vitest';
import { coverable, coveredBy, coverOf, fromTheStart, toldByLines } from '../../src/domain/change-cover.js';

const at = (s: string) => new Date(`2027-03-26T10:00:${s}Z`);

describe('the platform events a change made from Slack covers', () => {
  it('are those after the version acted on, up to the version after', () => {
    const cover = { since: at('01.000').toISOString(), at: at('03.000').toISOString() };
    expect(coveredBy(cover, at('01.000'))).toBe(false);
    expect(coveredBy(cover, at('02.000'))).toBe(true);
    expect(coveredBy(cover, at('03.000'))).toBe(true);
    expect(coveredBy(cover, at('04.000'))).toBe(false);
  });

  it('are those of that second when both versions are in the same second (the platform writes seconds)', () => {
    const cover = { since: at('05.000').toISOString(), at: at('05.000').toISOString() };
    expect(coveredBy(cover, at('05.000'))).toBe(true);
    expect(coveredBy(cover, at('04.000'))).toBe(false);
    expect(coveredBy({ since: null, at: at('05.000').toISOString() }, at('05.000'))).toBe(true);
  });

  it('of a creation are every event up to the version created (nothing of the ticket is older)', () => {
    const cover = { since: fromTheStart, at: at('05.000').toISOString() };
    expect(coveredBy(cover, new Date('2020-01-01T00:00:00Z'))).toBe(true);
    expect(coveredBy(cover, at('04.000'))).toBe(true);
    expect(coveredBy(cover, at('05.000'))).toBe(true);
    expect(coveredBy(cover, at('06.000'))).toBe(false);
  });

  it('are only of the kinds a change from Slack writes: the ticket’s own record, not the guest nor the session', () => {
    for (const eventName of [
      'ticket.new',
      'ticket.assigned',
      'ticket.approved',
      'ticket.invitationSent',
      'ticket.invitationResent',
      'ticket.sessionStarted',
      'ticket.completed',
      'ticket.closed',
      'ticket.cancelled',
      'ticket.rejected',
    ])
      expect(coverable({ eventName, source: 'agent' }), eventName).toBe(true);
    expect(coverable({ eventName: 'ticket.assigned', source: 'system' })).toBe(true);
    expect(coverable({ eventName: 'ticket.assigned' })).toBe(true);
    // A guest joining in the second of an agent's Start: all of it is told.
    for (const [eventName, source] of [
      ['ticket.invitationClicked', 'guest'],
      ['consent.accepted', 'guest'],
      ['mediaDevice.allowed', 'guest'],
      ['session.established', 'system'],
      ['session.agentContacted', 'system'],
      ['ticket.sessionStarted', 'guest'],
      ['media.pictureTaken', 'agent'],
      ['ticket.invitationDeclined', 'system'],
      ['ticket.invitationExpired', 'system'],
    ] as const)
      expect(coverable({ eventName, source }), `${eventName} · ${source}`).toBe(false);
  });

  it('are read only from a person’s line, never from a platform event', () => {
    expect(coverOf({ eventName: 'ticket.approved', timestamp: at('01.000').toISOString() })).toBeUndefined();
    expect(coverOf({ line: 'moved', cover: { at: '2027-03-26T10:00:05.000Z' } })).toEqual({
      at: '2027-03-26T10:00:05.000Z',
      since: null,
    });
    expect(
      coverOf({ line: 'created', cover: { since: fromTheStart, at: '2027-03-26T10:00:05.000Z' } }),
    ).toEqual({
      at: '2027-03-26T10:00:05.000Z',
      since: fromTheStart,
    });
  });
});

describe('the waiting platform events a line in the thread already tells', () => {
  const event = (id: string, channel: string, eventName: string, s: string, status = 'pending') => ({
    id,
    channel,
    status,
    payload: { eventName, timestamp: at(s).toISOString(), source: 'agent' },
  });
  const line = {
    id: 'line',
    channel: 'C1',
    status: 'pending',
    payload: { line: 'moved', cover: { since: at('01.000').toISOString(), at: at('03.000').toISOString() } },
  };
  const stateLine = (status: string) => ({
    id: 'state',
    channel: 'C1',
    status,
    payload: {
      stateLine: true,
      to: 'inprogress',
      cover: { since: at('01.000').toISOString(), at: at('02.000').toISOString(), only: 'state' },
    },
  });
  const ids = (items: { id: string }[]) => items.map((i) => i.id);

  it('are the pending events a person’s line covers, in its channel only', () => {
    const items = [
      line,
      event('mine', 'C1', 'ticket.assigned', '02.000'),
      event('other channel', 'C2', 'ticket.assigned', '02.000'),
      event('later', 'C1', 'ticket.assigned', '04.000'),
      event('posted', 'C1', 'ticket.assigned', '02.000', 'delivered'),
      event('the guest', 'C1', 'ticket.invitationClicked', '02.000'),
    ];
    expect(ids(toldByLines(items))).toEqual(['mine']);
  });

  it('leave out a state line whose state event went out already, and the state event while both wait', () => {
    const posted = {
      ...event('started', 'C1', 'ticket.sessionStarted', '02.000', 'delivered'),
      slackTs: '1.5',
    };
    expect(ids(toldByLines([stateLine('pending'), posted]))).toEqual(['state']);
    const waiting = event('started', 'C1', 'ticket.sessionStarted', '02.000');
    expect(ids(toldByLines([stateLine('pending'), waiting]))).toEqual(['started']);
    // A person's line tells the state line too; a state line never tells itself.
    expect(ids(toldByLines([stateLine('pending')]))).toEqual([]);
    expect(ids(toldByLines([line, stateLine('pending')]))).toEqual(['state']);
  });

  it('leave out a state line for its event on its way; that event, let go unposted, is still told', () => {
    const onItsWay = event('started', 'C1', 'ticket.sessionStarted', '02.000', 'unknown');
    expect(ids(toldByLines([stateLine('pending'), onItsWay]))).toEqual(['state']);
    // The line was settled without a post: it tells nothing, so the event waiting again goes out.
    const waiting = event('started', 'C1', 'ticket.sessionStarted', '02.000');
    expect(ids(toldByLines([stateLine('delivered'), waiting]))).toEqual([]);
    // Posted, it still tells the event.
    expect(ids(toldByLines([{ ...stateLine('delivered'), slackTs: '1.5' }, waiting]))).toEqual(['started']);
  });
});
