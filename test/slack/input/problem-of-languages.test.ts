import { describe, expect, it } from 'vitest';
import { conferenceFields } from '../../../src/platform/endpoints.js';
import { participants, serviceKey } from '../../../src/platform/schemas.js';
import { problemOf } from '../../../src/slack/input/view-state.js';

/** The schemas' problems shown inline in forms, in the person's language (English as the schema says it). */
describe('problemOf', () => {
  it('says a known problem in English as before, and in French', () => {
    expect(problemOf(conferenceFields.reminder, 90, 'en')).toBe('Must be 1 to 60 minutes');
    expect(problemOf(conferenceFields.reminder, 90, 'fr')).toBe('Doit être de 1 à 60 minutes');
    expect(problemOf(conferenceFields.password, 'abc', 'fr')).toBe(
      'Ne peut contenir que des chiffres, * et #',
    );
    expect(problemOf(serviceKey, 'ABC', 'en')).toBe('Expected a 32-character lowercase service key');
    expect(problemOf(conferenceFields.name, 'ok name', 'fr')).toBeUndefined();
  });

  it('keeps the value a participant’s problem names', () => {
    expect(problemOf(participants, ['bob@'], 'en')).toBe('"bob@" is not a valid e-mail');
    expect(problemOf(participants, ['bob@'], 'fr')).toBe('«\u202fbob@\u202f» n’est pas un e-mail valide');
    expect(problemOf(participants, ['12'], 'fr')).toBe(
      '«\u202f12\u202f» n’est ni un e-mail ni un numéro de téléphone international (+33612345678)',
    );
  });

  it('an unknown problem: English as the schema says it, French’s “not valid”', () => {
    expect(problemOf(conferenceFields.templateId, -1, 'fr')).toBe('Cette valeur n’est pas valide.');
    expect(problemOf(conferenceFields.templateId, -1, 'en')).toMatch(/^[A-Z]/);
  });
});
