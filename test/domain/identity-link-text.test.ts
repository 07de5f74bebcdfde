import { describe, expect, it } from 'vitest';
import { parseLinkCommand } from '../../src/domain/identity-link-text.js';

describe('the link command’s text', () => {
  it('reads a mention and an e-mail (as Slack escapes them), a login or an id', () => {
    expect(parseLinkCommand('link <@UALICE|alice> <mailto:bob@acme.example|bob@acme.example>')).toEqual({
      kind: 'link',
      slackUserId: 'UALICE',
      account: 'bob@acme.example',
    });
    expect(parseLinkCommand('LINK <@UALICE> bob')).toEqual({
      kind: 'link',
      slackUserId: 'UALICE',
      account: 'bob',
    });
    expect(parseLinkCommand(' link  <@W123|x>   42 ')).toEqual({
      kind: 'link',
      slackUserId: 'W123',
      account: '42',
    });
    expect(parseLinkCommand('unlink <@UALICE|alice>')).toEqual({ kind: 'unlink', slackUserId: 'UALICE' });
  });

  it('is not a link command for other admin words', () => {
    expect(parseLinkCommand('doctor')).toBeUndefined();
    expect(parseLinkCommand('')).toBeUndefined();
    expect(parseLinkCommand('linked <@U1> x')).toBeUndefined();
  });

  it('says what is missing or extra', () => {
    expect(parseLinkCommand('link alice bob')).toMatchObject({
      kind: 'bad',
      problem: 'people.link.mentionLink',
    });
    expect(parseLinkCommand('link <@UALICE>')).toMatchObject({
      kind: 'bad',
      problem: 'people.link.usageLink',
    });
    expect(parseLinkCommand('link <@UALICE> bob extra')).toMatchObject({ kind: 'bad' });
    expect(parseLinkCommand('unlink <@UALICE> bob')).toMatchObject({
      kind: 'bad',
      problem: 'people.link.usageUnlink',
    });
  });
});
