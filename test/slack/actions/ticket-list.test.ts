import { describe, expect, it } from 'vitest';
import { handleTicketPage, handleTicketShow } from '../../../src/slack/actions/ticket-list.js';
import { click, fakeSlack, slackRefusal, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** A ticket list's buttons: Show posts (or points to) the ticket's card; Previous/Next replace the list. */
const platform = usePlatform();

const ticketId = (reference: string) =>
  String([...platform.sim.state.tickets.values()].find((t) => t.reference === reference)?.id);

describe('a list’s Show', () => {
  it('posts the ticket’s card in the channel for a person who may see it', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const { c, replies } = click(slack, { user: people.alice.id, value: 'ACME-1001' });
    await handleTicketShow(deps)(c);
    expect(published).toEqual([
      { what: 'postCard', args: ['C1', expect.objectContaining({ reference: 'ACME-1001' })] },
    ]);
    expect(replies.given).toEqual([]);
  });

  it('points to a card of the last hour in the channel instead, brought up to date', async () => {
    const slack = fakeSlack();
    const ts = `${Math.floor(Date.now() / 1000) - 60}.000001`;
    const { deps, published } = ticketDeps(platform.client, slack, [
      { ticketId: ticketId('ACME-1001'), channel: 'C1', ts },
    ]);
    const { c, replies } = click(slack, { user: people.alice.id, value: ticketId('ACME-1001') });
    await handleTicketShow(deps)(c);
    expect(published.map((p) => p.what)).toEqual(['showCard', 'permalink']);
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: false }),
    ]);
    expect(replies.text()).toContain(`https://acme.slack.test/${ts}`);
  });

  it('tells the person how to invite the bot when it is not in the channel', async () => {
    const slack = fakeSlack();
    const { deps } = ticketDeps(platform.client, slack);
    deps.publisher.postCard = async () => {
      throw slackRefusal('not_in_channel');
    };
    const { c, replies } = click(slack, { user: people.alice.id, value: 'ACME-1001' });
    await handleTicketShow(deps)(c);
    expect(replies.text()).toContain('/invite');
  });

  it('refuses a ticket of another group, posting nothing', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const { c } = click(slack, { user: people.alice.id, value: 'ACME-1004' });
    await expect(handleTicketShow(deps)(c)).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('see this ticket'),
    });
    expect(published).toEqual([]);
  });
});

describe('a list’s Previous/Next', () => {
  it('replaces the list with the page asked for', async () => {
    const slack = fakeSlack();
    const { deps } = ticketDeps(platform.client, slack);
    const { c, replies } = click(slack, {
      user: people.admin.id,
      value: JSON.stringify({ q: 'all', offset: 0 }),
    });
    await handleTicketPage(deps)(c);
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: true }),
    ]);
    expect(replies.text()).toContain('ACME-1004');
  });

  it('a page the bot did not write is out of date', async () => {
    const slack = fakeSlack();
    const { deps } = ticketDeps(platform.client, slack);
    for (const value of ['{"q":"all","offset":-5}', '{"q":"requestor:jane","offset":0}', 'next']) {
      const { c, replies } = click(slack, { user: people.admin.id, value });
      await expect(handleTicketPage(deps)(c)).rejects.toMatchObject({ code: 'stale_button' });
      expect(replies.given).toEqual([]);
    }
  });
});
