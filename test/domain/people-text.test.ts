import { describe, expect, it } from 'vitest';
import { parseConferenceCommand as parse } from '../../src/domain/conference-text.js';
import { conferenceWords } from '../../src/slack/commands/conference.js';

const parseConferenceCommand = (text: string) => parse(text, conferenceWords);

describe('/conference password and admin words', () => {
  it('reads `password` alone as one’s own reset, with one login as someone’s, and more words as a mistake', () => {
    expect(parseConferenceCommand('password')).toEqual({ kind: 'password' });
    expect(parseConferenceCommand('PASSWORD bob@acme.example')).toEqual({
      kind: 'password',
      login: 'bob@acme.example',
    });
    expect(parseConferenceCommand('password bob alice')).toMatchObject({ kind: 'usage' });
  });

  it('hands `admin people …` and `admin groups` to the admin tools', () => {
    expect(parseConferenceCommand('admin people durand')).toEqual({ kind: 'admin', args: 'people durand' });
    expect(parseConferenceCommand('admin groups')).toEqual({ kind: 'admin', args: 'groups' });
  });
});
