import { describe, expect, it } from 'vitest';
import { notKeptNotice } from '../../src/services/fields-not-kept.js';

/** The warning after a create whose fields the platform did not keep, in the reader's language. */
describe('notKeptNotice', () => {
  it('names the fields in English, one or several, and says nothing when all were kept', () => {
    expect(notKeptNotice('en', [])).toBeUndefined();
    expect(notKeptNotice('en', ['group'])?.text).toBe(
      ":warning: The platform did not keep: group. Check it on the platform; confdesk's log tells an administrator which parameter was ignored.",
    );
    expect(notKeptNotice('en', ['start time', 'requestor first name', 'start time'])?.text).toContain(
      'did not keep: start time, requestor first name. Check them',
    );
  });

  it('names the fields in French, with French typography; an unknown label stays as sent, escaped', () => {
    expect(notKeptNotice('fr', ['start time', 'requestor first name'])?.text).toBe(
      ':warning: La plateforme n’a pas gardé\u202f: heure de début, prénom du demandeur. Vérifiez-les sur la plateforme\u202f; le journal de confdesk indique à un administrateur quel paramètre a été ignoré.',
    );
    expect(notKeptNotice('fr', ['group'])?.text).toContain('gardé\u202f: groupe. Vérifiez-le');
    expect(notKeptNotice('fr', ['<!here>'])?.text).toContain('&lt;!here&gt;');
  });
});
