import { describe, expect, it } from 'vitest';
import { archiveName } from '../../src/services/tickets.js';

describe('the name of a ticket’s media archive', () => {
  it('is the reference and “-media”, in letters, digits, dashes and underscores only', () => {
    expect(archiveName({ id: '7', reference: 'ACME-1004' })).toBe('ACME-1004-media');
    expect(archiveName({ id: '7', reference: 'ACME 1003 <!channel> *x*/../.zip' })).toBe(
      'ACME-1003-channel-x-zip-media',
    );
    expect(archiveName({ id: '7', reference: 'dossier_2026.11' })).toBe('dossier_2026-11-media');
  });

  it('is the ticket’s id when the reference is absent or has nothing usable', () => {
    expect(archiveName({ id: '7' })).toBe('ticket-7-media');
    expect(archiveName({ id: '7', reference: '../..' })).toBe('ticket-7-media');
    expect(archiveName({ id: '7', reference: 'Réf. école' })).toBe('R-f-cole-media');
  });

  it('stays short whatever the reference', () => {
    expect(archiveName({ id: '7', reference: 'A'.repeat(500) })).toBe(`${'A'.repeat(80)}-media`);
  });
});
