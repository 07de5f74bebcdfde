import { describe, expect, it } from 'vitest';
import { md } from '../../../src/blocks/mrkdwn.js';
import { parseConferenceCommand } from '../../../src/domain/conference-text.js';
import { conferenceWords } from '../../../src/slack/commands/conference.js';
import { readTicketCommand, ticketWords } from '../../../src/slack/commands/ticket.js';
import { verbWords } from '../../../src/slack/runtime/command-routes.js';

describe('the verb tables are the one list of a command’s words', () => {
  it('/ticket reads its French verbs as their English ones', () => {
    expect(readTicketCommand('nouveau jane@example.com Panne')).toMatchObject({
      kind: 'new',
      args: 'jane@example.com Panne',
    });
    expect(readTicketCommand('Liste mine').kind).toBe('list');
    expect(readTicketCommand('voir #42')).toMatchObject({ kind: 'show', ref: '42' });
    expect(readTicketCommand('suivre 42').kind).toBe('watch');
    expect(readTicketCommand('ne-plus-suivre 42').kind).toBe('unwatch');
    expect(readTicketCommand('surveiller group:"Level 1"').kind).toBe('follow');
    expect(readTicketCommand('abonnements').kind).toBe('subscriptions');
    expect(readTicketCommand('aide').kind).toBe('help');
    expect(readTicketCommand('list').kind).toBe('list');
    expect(readTicketCommand('constructor').kind).toBe('unknown');
    expect(readTicketCommand('n’importe').kind).toBe('unknown');
    expect(ticketWords.has('unknown')).toBe(false);
  });

  it('/conference liste lists (it used to create a conference named by its words), and other words still create', () => {
    const read = (text: string) => parseConferenceCommand(text, conferenceWords);
    expect(read('liste')).toEqual({ kind: 'list', filter: 'upcoming' });
    expect(read('liste past')).toEqual({ kind: 'list', filter: 'past' });
    expect(read('voir 42')).toEqual({ kind: 'show', ref: '42' });
    expect(read('supprimer #42')).toEqual({ kind: 'delete', ref: '42' });
    expect(read('supprimer')).toMatchObject({ kind: 'usage' });
    expect(read('mot-de-passe')).toEqual({ kind: 'password' });
    expect(read('médias type:recording')).toEqual({ kind: 'media', args: 'type:recording' });
    expect(read('Aide')).toEqual({ kind: 'help' });
    expect(read('list')).toEqual({ kind: 'list', filter: 'upcoming' });
    expect(read('alice@example.com demain')).toMatchObject({ kind: 'create' });
    expect(conferenceWords.has('create')).toBe(false);
    expect(conferenceWords.has('usage')).toBe(false);
  });

  it('refuses a word listed twice in a table', () => {
    const twice = {
      list: { aliases: ['liste'], usage: [md`x`] },
      show: { aliases: ['LISTE'], usage: [] },
    };
    expect(() => verbWords(twice)).toThrow(/liste is listed twice/);
  });
});
