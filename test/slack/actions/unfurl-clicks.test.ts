import { describe, expect, it } from 'vitest';
import type { SimTicket } from '../../../src/sim/model.js';
import { handleConferenceDelete, handleConferenceEdit } from '../../../src/slack/actions/conference-card.js';
import { handleTicketMove, handleTicketRefresh } from '../../../src/slack/actions/ticket-card.js';
import {
  click,
  conferenceDeps,
  fakeSlack,
  metadataOf,
  ticketDeps,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * A click on a button of a link's unfurl goes through the card's route with the clicker's rights, and
 * shows its outcome by unfurling the link again (`chat.unfurl`), never by editing or replacing the
 * poster's message.
 */
const platform = usePlatform();
const ticket = (ref: string) =>
  [...platform.sim.state.tickets.values()].find((t) => t.reference === ref) as SimTicket;
const onUnfurl = (url: string) => ({
  channel: 'C1',
  ts: undefined,
  isEphemeral: false,
  unfurl: { url, channel: 'C1', ts: '1700000000.000100' },
});

describe('clicks on an unfurl', () => {
  it('Refresh unfurls the link again, as the clicker may see the ticket, and edits no message', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const t = ticket('ACME-1001');
    const url = `https://desk.acme.example/tickets/${t.id}`;
    const { c, replies } = click(slack, {
      user: people.alice.id,
      value: String(t.id),
      container: onUnfurl(url),
    });
    await handleTicketRefresh(deps)(c);
    const [call] = slack.callsOf('chat.unfurl');
    expect(call).toMatchObject({ channel: 'C1', ts: '1700000000.000100' });
    expect(JSON.stringify((call?.unfurls as Record<string, unknown> | undefined)?.[url])).toContain(
      'ACME-1001',
    );
    expect(published.map((p) => p.what)).toEqual([]);
    expect(replies.given).toEqual([]);
  });

  it('refuses a clicker who may not see the ticket: nothing is unfurled', async () => {
    const slack = fakeSlack();
    const { deps } = ticketDeps(platform.client, slack);
    const t = ticket('ACME-1004');
    const { c } = click(slack, {
      user: people.alice.id,
      value: String(t.id),
      container: onUnfurl(`https://desk.acme.example/tickets/${t.id}`),
    });
    await expect(handleTicketRefresh(deps)(c)).rejects.toMatchObject({ code: 'not_allowed' });
    expect(slack.callsOf('chat.unfurl')).toEqual([]);
  });

  it('a move changes the ticket, its cards through the publisher, and the unfurl to the new state', async () => {
    const slack = fakeSlack();
    const { deps, published } = ticketDeps(platform.client, slack);
    const t = ticket('ACME-1003');
    t.state = 'open';
    const url = `https://desk.acme.example/tickets/${t.id}`;
    const { c } = click(slack, {
      user: people.alice.id,
      actionId: 'ticket_move:start',
      value: String(t.id),
      container: onUnfurl(url),
    });
    await handleTicketMove(deps)(c);
    expect(platform.sim.state.tickets.get(t.id)?.state).toBe('inprogress');
    expect(published.map((p) => p.what)).toEqual(['ticketChanged']);
    const [call] = slack.callsOf('chat.unfurl');
    expect(JSON.stringify((call?.unfurls as Record<string, unknown> | undefined)?.[url])).toContain(
      '*inprogress*',
    );
  });

  it('Delete of a conference shows it deleted in the unfurl, not by replacing the poster’s message', async () => {
    const slack = fakeSlack();
    const { deps } = conferenceDeps(platform.client, slack);
    const conf = [...platform.sim.state.conferences.values()].find((x) => x.name === 'Incident review');
    const url = `${platform.sim.url}/join/${conf?.roomName}`;
    const { c, replies } = click(slack, {
      user: people.admin.id,
      value: String(conf?.id),
      container: onUnfurl(url),
    });
    await handleConferenceDelete(deps)(c);
    expect(replies.given).toEqual([]);
    const [call] = slack.callsOf('chat.unfurl');
    expect(JSON.stringify((call?.unfurls as Record<string, unknown> | undefined)?.[url])).toContain(
      'Deleted',
    );
  });

  it('Edit from an unfurl opens the form without the poster’s message as the card to update', async () => {
    const slack = fakeSlack();
    const { deps } = conferenceDeps(platform.client, slack);
    const conf = [...platform.sim.state.conferences.values()].find((x) => x.name === 'Weekly support sync');
    const { c } = click(slack, {
      user: people.admin.id,
      value: String(conf?.id),
      container: onUnfurl(`${platform.sim.url}/join/${conf?.roomName}`),
    });
    await handleConferenceEdit(deps)(c);
    expect(metadataOf(slack.callsOf('views.open')[0])).toEqual({
      mode: 'edit',
      conferenceId: String(conf?.id),
    });
  });
});
