import { describe, expect, it } from 'vitest';
import { md } from '../../../src/blocks/mrkdwn.js';
import { t } from '../../../src/blocks/text.js';
import type { MessageKey } from '../../../src/i18n/catalog.js';
import { en } from '../../../src/i18n/en.js';
import { handleTicketCommand, ticketWords } from '../../../src/slack/commands/ticket.js';
import { fakeSlack, slash, ticketDeps, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** `/ticket`'s help and its problems, in the person's Slack language. */
const platform = usePlatform();

async function ticketAck(locale: string | undefined, text: string) {
  const slack = fakeSlack({
    'users.info': (a) => ({
      user: {
        id: a.user,
        tz: 'Europe/Paris',
        profile: { email: people.alice.email },
        ...(locale ? { locale } : {}),
      },
    }),
  });
  const { deps } = ticketDeps(platform.client, slack);
  const command = slash(slack, { user: people.alice.id, text, command: '/ticket' });
  await handleTicketCommand(deps)(command.args);
  expect(command.acks.given).toHaveLength(1);
  const ack = command.acks.given[0] as { text: string };
  return { text: ack.text, infos: slack.callsOf('users.info') };
}

/** The English catalog's texts of `/ticket`'s help and problems, as the English help renders them. */
const ticketKeys = (Object.keys(en) as MessageKey[]).filter(
  (k) => /^ticket\.(help\.|list\.|notUnderstood$)/.test(k) && !en[k].includes('{'),
);

describe('/ticket’s help in the person’s language', () => {
  it('is French for a fr-FR person: every line, the French verbs, no English text left', async () => {
    const { text, infos } = await ticketAck('fr-FR', 'aide');
    expect(infos[0]).toMatchObject({ include_locale: true });
    expect(text.startsWith(t('fr', 'ticket.help.title').text)).toBe(true);
    for (const word of [
      'nouveau',
      'liste',
      'voir',
      'suivre',
      'ne-plus-suivre',
      'surveiller',
      'abonnements',
      'aide',
    ])
      expect(text, word).toContain(`/ticket ${word}`);
    for (const key of ticketKeys) expect(text, key).not.toContain(t('en', key).text);
    expect(text).not.toMatch(/\b(the|this|shows|opens|lists|posts)\b/);
  });

  it('says what went wrong in French too, before the French help', async () => {
    const notUnderstood = await ticketAck('fr-CA', 'nimporte');
    expect(notUnderstood.text.startsWith('Je n’ai pas compris.\n\n*`/ticket`* — tickets')).toBe(true);
    const badDate = await ticketAck('fr-FR', 'liste since:hier');
    expect(badDate.text).toContain('`since:` attend une date écrite AAAA-MM-JJ, pas «\u202fhier\u202f».');
    for (const key of ticketKeys) expect(badDate.text, key).not.toContain(t('en', key).text);
  });

  it('stays English, as before, for anyone else', async () => {
    for (const locale of ['en-US', 'de-DE', undefined]) {
      const { text } = await ticketAck(locale, 'list since:yesterday');
      expect(text.startsWith(md`since: takes a date written YYYY-MM-DD, not “yesterday”.`.text)).toBe(true);
      expect(text).toContain('\n\n*`/ticket`* — remote-assistance tickets\n• `/ticket` opens the form;');
      expect(text).toContain('• `/ticket show &lt;id or reference&gt;` posts the ticket’s live card here');
      expect(text.endsWith('• `/ticket help` shows this message')).toBe(true);
    }
  });

  it('every verb word of the table is in its language’s help', async () => {
    const { text: fr } = await ticketAck('fr-FR', 'aide');
    const { text: english } = await ticketAck('en-US', 'help');
    for (const [word, kind] of ticketWords) {
      if (word === kind) expect(english, word).toContain(`/ticket ${word}`);
      else expect(fr, word).toContain(`/ticket ${word}`);
    }
  });
});
