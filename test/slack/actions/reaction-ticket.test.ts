import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { handleReactionTicket } from '../../../src/slack/actions/reaction-ticket.js';
import { click, fakeSlack, slackRefusal, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * The *Create ticket* offered to whoever reacted with 🎫: the form opens ("Loading…" at once), then
 * shows the message's text and permalink; a text Slack will not give is left out, and said.
 */
const platform = usePlatform();

const ts = '1700000000.000200';
const value = (c = 'C1') => JSON.stringify({ c, ts });
const permalink = `https://acme.slack.test/archives/C1/p1700000000000200`;

/** The form as the last `views.update` showed it. */
const lastView = (slack: ReturnType<typeof fakeSlack>) =>
  JSON.stringify(slack.callsOf('views.update').at(-1)?.view ?? {});

describe('Create ticket (a 🎫 reaction’s offer)', () => {
  it('opens the ticket form with the message’s text and its permalink, in the message’s channel', async () => {
    const slack = fakeSlack({
      'chat.getPermalink': () => ({ permalink }),
      'conversations.replies': (a) => ({
        messages: [
          { ts: '1699999999.000100', text: 'the thread’s parent' },
          { ts: a.ts, text: 'The printer on floor 2 is on fire <!channel>' },
        ],
      }),
    });
    const { deps } = ticketDeps(platform.client, slack);
    const { c, replies } = click(slack, {
      user: people.alice.id,
      actionId: ids.actions.reactionTicket,
      value: value(),
    });
    await handleReactionTicket(deps)(c);
    expect(slack.callsOf('views.open')).toHaveLength(1);
    expect(slack.callsOf('conversations.replies')[0]).toMatchObject({ channel: 'C1', ts, inclusive: true });
    const form = lastView(slack);
    expect(form).toContain(ids.views.ticketForm);
    // The text goes into a plain-text input: a form field, never mrkdwn.
    expect(form).toContain(
      'The printer on floor 2 is on fire <!channel>\\n\\nFrom Slack: https://acme.slack.test',
    );
    expect(form).not.toContain('the thread’s parent');
    expect(form).not.toContain('could not be read');
    expect(form).toContain('"initial_conversation":"C1"');
    // The offer is taken away once used.
    expect(replies.given).toEqual([{ delete_original: true }]);
  });

  it('leaves the text out and says why when Slack will not give it (history rate limit); the link stays', async () => {
    const slack = fakeSlack({
      'chat.getPermalink': () => ({ permalink }),
      'conversations.replies': () => {
        throw Object.assign(new Error('rate limited'), {
          code: 'slack_webapi_rate_limited_error',
          retryAfter: 60,
        });
      },
    });
    const { deps } = ticketDeps(platform.client, slack);
    const { c } = click(slack, {
      user: people.alice.id,
      actionId: ids.actions.reactionTicket,
      value: value(),
    });
    await handleReactionTicket(deps)(c);
    const form = lastView(slack);
    expect(form).toContain('could not be read');
    expect(form).toContain('only a few reads of a channel’s messages a minute');
    expect(form).toContain(`"initial_value":"From Slack: ${permalink}"`);
  });

  it('says a refused read (the bot not in the channel) on the form', async () => {
    const slack = fakeSlack({
      'conversations.replies': () => {
        throw slackRefusal('not_in_channel');
      },
    });
    const { deps } = ticketDeps(platform.client, slack);
    const { c } = click(slack, {
      user: people.alice.id,
      actionId: ids.actions.reactionTicket,
      value: value(),
    });
    await handleReactionTicket(deps)(c);
    expect(lastView(slack)).toContain('Slack refused the read: not_in_channel');
  });

  it('refuses someone without a platform account in the modal, with no form', async () => {
    const slack = fakeSlack({ 'chat.getPermalink': () => ({ permalink }) });
    const { deps } = ticketDeps(platform.client, slack);
    const { c } = click(slack, {
      user: people.nobody.id,
      actionId: ids.actions.reactionTicket,
      value: value(),
    });
    await handleReactionTicket(deps)(c);
    const shown = lastView(slack);
    expect(shown).toContain('no account on the video platform');
    expect(shown).not.toContain(ids.views.ticketForm);
  });

  it('refuses a value naming another channel than the one clicked in (not one the bot wrote), opening nothing', async () => {
    const slack = fakeSlack();
    const { deps } = ticketDeps(platform.client, slack);
    const { c } = click(slack, {
      user: people.alice.id,
      actionId: ids.actions.reactionTicket,
      value: value('CELSEWHERE'),
    });
    await expect(handleReactionTicket(deps)(c)).rejects.toMatchObject({ code: 'stale_button' });
    expect(slack.calls).toEqual([]);
  });
});
