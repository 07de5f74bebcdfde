import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfdeskError } from '../../../src/services/errors.js';
import { readStepInputs } from '../../../src/slack/input/step-inputs.js';

/** A step's bad input: the failure Workflow Builder shows, in the channel's language. */
describe('readStepInputs', () => {
  const schema = z.object({ subject: z.string({ error: 'subject is missing' }) });
  const failure = () => {
    try {
      readStepInputs(schema, {});
    } catch (error) {
      return error as ConfdeskError;
    }
    throw new Error('no failure');
  };

  it('names the input and the schema’s problem, in English and in French', () => {
    const error = failure();
    expect(error).toBeInstanceOf(ConfdeskError);
    expect(error.messageIn('en').text).toBe(
      'The step’s input “subject” is not valid: subject is missing. Check it in Workflow Builder.',
    );
    expect(error.messageIn('fr').text).toBe(
      'L’entrée «\u202fsubject\u202f» de l’étape n’est pas valide\u202f: subject is missing. Vérifiez-la dans Workflow Builder.',
    );
  });

  it('answers the data when the inputs are good', () => {
    expect(readStepInputs(schema, { subject: 'Router' })).toEqual({ subject: 'Router' });
  });
});
