import { describe, expect, it } from 'vitest';
import { moveStepInputs, ticketStepInputs, vouchedPerson } from '../../src/domain/workflow-steps.js';

/** Who a step acts for: only a person Slack vouches for (a user_context with its secret). */
describe('the person a step acts for', () => {
  it('is the run_as user_context Slack filled, or the interactivity’s interactor when there is one', () => {
    expect(vouchedPerson({ run_as: { id: 'UALICE', secret: 's1' } })).toBe('UALICE');
    expect(
      vouchedPerson({
        run_as: { id: 'UALICE', secret: 's1' },
        interactivity: { interactivity_pointer: 'p', interactor: { id: 'UBOB', secret: 's2' } },
      }),
    ).toBe('UBOB');
  });

  it('is nobody when only the builder named someone: a plain id, a context without Slack’s secret, another input', () => {
    expect(vouchedPerson({ run_as: 'UADMIN' })).toBeUndefined();
    expect(vouchedPerson({ run_as: { id: 'UADMIN' } })).toBeUndefined();
    expect(vouchedPerson({ user_id: 'UADMIN', admin: { id: 'UADMIN', secret: 'typed' } })).toBeUndefined();
    expect(vouchedPerson({ interactivity: { interactor: { id: 'UADMIN' } } })).toBeUndefined();
    expect(vouchedPerson({ run_as: { id: 'not a user', secret: 's' } })).toBeUndefined();
  });
});

describe('the steps’ inputs', () => {
  it('reads a requestor as an e-mail or an international phone, and refuses anything else', () => {
    expect(
      ticketStepInputs.parse({ requestor: ' +33 6 12 34 56 78 ', subject: 'x', channel: 'C1' }).requestor,
    ).toEqual({ emails: [], phones: ['+33612345678'] });
    expect(ticketStepInputs.safeParse({ requestor: 'Jane', subject: 'x', channel: 'C1' }).success).toBe(
      false,
    );
  });

  it('takes only the moves a card offers', () => {
    expect(moveStepInputs.safeParse({ ticket: 'ACME-1', move: 'start' }).success).toBe(true);
    expect(moveStepInputs.safeParse({ ticket: 'ACME-1', move: 'delete' }).success).toBe(false);
  });
});
