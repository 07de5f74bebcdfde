import { describe, expect, it } from 'vitest';
import { checkBlockKit } from '../../src/blocks/limits.js';
import { buildTicketCard } from '../../src/blocks/ticket-card.js';
import { stateLine } from '../../src/blocks/ticket-line.js';
import type { TicketSummary } from '../../src/domain/ticket.js';
import { dayBound, parseTicketQuery } from '../../src/domain/ticket-query.js';
import { movesFor, spansSteps, stateIcon, ticketMoves } from '../../src/domain/ticket-workflow.js';
import { ticketStates } from '../../src/platform/schemas.js';

describe('the ticket workflow table', () => {
  it('offers the typical lifecycle open → inprogress → done with Start and Done', () => {
    expect(movesFor('open').find((m) => m.id === 'start')?.to).toBe('inprogress');
    expect(movesFor('inprogress').find((m) => m.id === 'done')?.to).toBe('done');
  });

  it('offers per state exactly the moves the table lists, and nothing once closed', () => {
    expect(Object.fromEntries(ticketStates.map((s) => [s, movesFor(s).map((m) => m.id)]))).toEqual({
      new: ['accept', 'assign', 'invite', 'cancel', 'reject'],
      open: ['start', 'assign', 'invite', 'cancel', 'reject'],
      invited: ['start', 'assign', 'cancel'],
      inprogress: ['done', 'assign', 'cancel'],
      done: ['reopen', 'close'],
      closed: [],
      rejected: ['reopen', 'close'],
      declined: ['reopen', 'close'],
      expired: ['reopen', 'close'],
      cancelled: ['reopen', 'close'],
    });
  });

  it('offers only taking the ticket in a state it does not know (opened, updated, none)', () => {
    for (const s of ['opened', 'updated', undefined])
      expect(movesFor(s).map((m) => m.id)).toEqual(['assign']);
    expect(stateIcon('opened')).toBe('❔');
  });

  it('asks before every destructive move, and only moves to the spec’s states', () => {
    for (const m of ticketMoves) {
      if (m.style === 'danger' || m.to === 'closed') expect(m.confirm).toBeDefined();
      if (m.to) expect(ticketStates).toContain(m.to);
    }
  });
});

describe('the ticket card', () => {
  const base: TicketSummary = {
    id: '7',
    reference: 'ACME-7',
    subject: 'S'.repeat(300),
    requestor: { name: 'Jane', emails: ['jane@example.com'], phones: ['+33612345678'] },
    agent: { id: '101', label: 'Alice Martin' },
    group: { id: '10', name: 'Level 1' },
    start: new Date('2027-01-01T10:00:00Z'),
    duration: 30,
    modified: new Date(),
    agentUrl: 'https://video.example.com/a',
    guestUrl: 'https://video.example.com/g',
  };
  it('renders every state, and unknown ones, within Slack’s limits with the state’s moves', () => {
    for (const state of [...ticketStates, 'opened', 'updated', undefined]) {
      const card = buildTicketCard('en', { ...base, state });
      expect(checkBlockKit(card, 'message')).toEqual([]);
      const ids = card.blocks
        .filter((b) => b.type === 'actions')
        .flatMap((b) => b.elements as { action_id: string }[])
        .map((e) => e.action_id);
      expect(ids.filter((id) => id.startsWith('ticket_move:'))).toEqual(
        movesFor(state).map((m) => `ticket_move:${m.id}`),
      );
      expect(ids).toEqual(expect.arrayContaining(['ticket_join', 'ticket_refresh']));
    }
  });
});

describe('/ticket list text', () => {
  it('reads scopes, group names, references, searches and the spec’s filters', () => {
    expect(parseTicketQuery('')).toEqual({ ok: true, query: { scope: 'mine' } });
    expect(parseTicketQuery('all printer')).toEqual({ ok: true, query: { scope: 'all', search: 'printer' } });
    expect(parseTicketQuery('group Level 2 type:repair')).toEqual({
      ok: true,
      query: { scope: 'group', group: 'Level 2', type: 'repair' },
    });
    expect(parseTicketQuery('ref ACME-1001')).toEqual({
      ok: true,
      query: { scope: 'all', reference: 'ACME-1001' },
    });
    expect(parseTicketQuery('boiler since:2026-11-01 ended:2026-11-30 requestor:42')).toEqual({
      ok: true,
      query: {
        scope: 'mine',
        search: 'boiler',
        createdAfter: '2026-11-01',
        endedBefore: '2026-11-30',
        requestorId: 42,
      },
    });
  });
  it('says what to fix', () => {
    expect(parseTicketQuery('group')).toMatchObject({ ok: false });
    expect(parseTicketQuery('until:tomorrow')).toMatchObject({
      ok: false,
      error: expect.stringContaining('YYYY-MM-DD'),
    });
    expect(parseTicketQuery('requestor:bob')).toMatchObject({ ok: false });
  });
  it('places days in the person’s zone', () => {
    expect(dayBound('2026-11-01', 'Europe/Paris', false).toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(dayBound('2026-11-01', 'Europe/Paris', true).toISOString()).toBe('2026-11-01T22:59:59.999Z');
  });
});

describe('a state line that spans steps', () => {
  it('knows the moves the workflow makes only through states in between', () => {
    expect(spansSteps('new', 'inprogress')).toBe(true); // Accept, then Start
    expect(spansSteps('open', 'done')).toBe(true);
    expect(spansSteps('done', 'inprogress')).toBe(true); // Reopen, then Start
    expect(spansSteps('new', 'open')).toBe(false); // one move
    expect(spansSteps('inprogress', 'done')).toBe(false);
    expect(spansSteps('new', 'expired')).toBe(false); // the platform's own: no move leads there
    expect(spansSteps('open', 'open')).toBe(false);
    expect(spansSteps('new', 'weird')).toBe(false);
    expect(spansSteps(null, 'open')).toBe(false);
  });

  it('says so in the line, and only then', () => {
    expect(String(stateLine('en', { from: 'new', to: 'inprogress' }))).toContain('through steps in between');
    expect(String(stateLine('en', { from: 'open', to: 'inprogress' }))).toBe(
      'The ticket moved from 📂 *open* to 🎥 *inprogress*.',
    );
  });
});
