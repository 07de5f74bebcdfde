import { describe, expect, it } from 'vitest';
import { t } from '../../../src/blocks/text.js';
import { type BotFixture, people, useBot } from '../../helpers/bot.js';

/*
 * A person changes their Slack language: Slack sends `user_change`, and the bot answers them in the
 * new language at once, not when their cached profile (10 minutes) runs out. Through the real
 * receiver, the Slack double and the simulator.
 */
const f = {} as BotFixture;
useBot(f);

const helpOf = async () => {
  const { body } = await f.command('help', people.alice.id, 'C1', '/ticket');
  return (body as { text: string }).text;
};

describe('user_change', () => {
  it('a person who switches Slack to French gets French at their next command, with one users.info', async () => {
    expect(await helpOf()).toContain(t('en', 'ticket.help.title').text);
    const before = f.slack.callsOf('users.info').length;
    // Cached: a second command reads nothing from Slack.
    expect(await helpOf()).toContain(t('en', 'ticket.help.title').text);
    expect(f.slack.callsOf('users.info')).toHaveLength(before);

    const { status } = await f.event(f.slack.changeLocale(people.alice.id, 'fr-FR'));
    expect(status).toBe(200);
    expect(await helpOf()).toContain(t('fr', 'ticket.help.title').text);
    expect(f.slack.callsOf('users.info')).toHaveLength(before + 1);

    await f.event(f.slack.changeLocale(people.alice.id, 'en-GB'));
    expect(await helpOf()).toContain(t('en', 'ticket.help.title').text);
  });

  it('an event without a user id, or for a person never seen, changes nothing and answers 200', async () => {
    expect((await f.event({ type: 'user_change', user: {} })).status).toBe(200);
    expect((await f.event({ type: 'user_change', user: { id: 'UNEVERSEEN' } })).status).toBe(200);
    expect((await f.event({ type: 'user_change' })).status).toBe(200);
  });
});
