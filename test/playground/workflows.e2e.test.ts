import { describe, expect, it } from 'vitest';
import { stepIds } from '../../src/domain/workflow-steps.js';
import { type Json, usePlaygroundApi } from '../helpers/playground-api.js';

/*
 * The playground's *Workflows*: a step run as Workflow Builder would run it (the signed
 * function_executed through the bot's receiver, Run as the acting person), with the bot, the Slack
 * double and the simulator all real, driven through the page's JSON API.
 */

const api = usePlaygroundApi();
const { post, state } = api;

describe('the playground’s Workflows', () => {
  it('lists the steps with the inputs a builder sets (Run as is Slack’s, not an input)', async () => {
    const s = await state('UADMIN');
    expect(s.steps?.map((x) => x.callback_id)).toEqual(Object.values(stepIds));
    const open = s.steps?.find((x) => x.callback_id === stepIds.openTicket);
    expect(open?.inputs.map((i) => i.name)).toEqual(['requestor', 'subject', 'group', 'agent', 'channel']);
    expect(open?.outputs.map((o) => o.name)).toEqual(['ticket_id', 'reference', 'card_link']);
  });

  it('runs Open an assistance ticket as the acting person and shows its outputs; the card is in the channel', async () => {
    const answer = await post('/api/step', {
      as: 'UALICE',
      callback_id: stepIds.openTicket,
      inputs: {
        requestor: 'api.pg.requestor@example.com',
        subject: 'Playground workflow ticket',
        channel: 'C0SUPPORT',
      },
    });
    expect(answer).toMatchObject({ ok: true, outputs: { ticket_id: expect.stringMatching(/^\d+$/) } });
    const id = Number((answer.outputs as Json).ticket_id);
    expect(api.pg.bot.sim?.state.tickets.get(id)?.subject).toBe('Playground workflow ticket');
    expect(
      api.pg.slack.messages.some(
        (m) => m.channel === 'C0SUPPORT' && String(m.text).includes('Playground workflow ticket'),
      ),
    ).toBe(true);
  });

  it('shows the error a workflow builder would see when the acting person may not', async () => {
    const answer = await post('/api/step', {
      as: 'UNOBODY',
      callback_id: stepIds.moveTicket,
      inputs: { ticket: 'ACME-1001', move: 'accept' },
    });
    expect(answer).toMatchObject({
      ok: true,
      failed: expect.stringContaining('has no account on the video platform'),
    });
    expect(answer.outputs).toBeUndefined();
  });
});
