import type { z } from 'zod';
import { phrase } from '../../blocks/text.js';
import { inputProblem } from '../../domain/workflow-steps.js';
import { ConfdeskError } from '../../services/errors.js';

/** A step's inputs read with their schema; a bad one is the step's failure, in a builder's words. */
export function readStepInputs<S extends z.ZodType>(schema: S, inputs: Record<string, unknown>): z.output<S> {
  const read = schema.safeParse(inputs);
  if (!read.success)
    throw new ConfdeskError('step_input', phrase('step.inputProblem', inputProblem(read.error)));
  return read.data;
}
