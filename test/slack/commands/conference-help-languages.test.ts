import { describe, expect, it } from 'vitest';
import { md } from '../../../src/blocks/mrkdwn.js';
import { t } from '../../../src/blocks/text.js';
import type { MessageKey } from '../../../src/i18n/catalog.js';
import { en } from '../../../src/i18n/en.js';
import { conferenceWords, handleConferenceCommand } from '../../../src/slack/commands/conference.js';
import { conferenceDeps, fakeSlack, notUsed, slash, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** `/conference`'s help and its problems, in the person's Slack language. */
const platform = usePlatform();

async function conferenceAck(locale: string | undefined, text: string) {
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
  const { deps } = conferenceDeps(platform.client, slack);
  const command = slash(slack, { user: people.alice.id, text });
  await handleConferenceCommand({ ...deps, links: notUsed('links') })(command.args);
  expect(command.acks.given).toHaveLength(1);
  return (command.acks.given[0] as { text: string }).text;
}

/** The English catalog's `/conference` texts without variables, as they render. */
const englishTexts = (Object.keys(en) as MessageKey[])
  .filter((k) => k.startsWith('conference.') && !en[k].includes('{'))
  .map((k) => t('en', k).text);

describe('/conference’s help in the person’s language', () => {
  it('is wholly French for a fr-FR person, with the French verbs and the admin and digest rows', async () => {
    const text = await conferenceAck('fr-FR', 'aide');
    expect(text.startsWith('*`/conference`* — planifier une visioconférence\n')).toBe(true);
    for (const [word, kind] of conferenceWords)
      if (word !== kind)
        expect(text.includes(`/conference ${word}`) || text.includes(`(ou \`${word}\`)`), word).toBe(true);
    expect(text).toContain('heures\u202f: `now`, `in 2h`');
    expect(text).toContain('`/conference admin settings` — administrateurs');
    for (const english of englishTexts) expect(text).not.toContain(english);
    expect(text).not.toMatch(/\b(the|your|shows|opens|creates)\b/);
  });

  it('says why the words could not be read in French, then the French help', async () => {
    const text = await conferenceAck('fr-FR', 'voir');
    expect(text.startsWith('`/conference voir` attend un seul id de conférence ou nom de salle.\n\n')).toBe(
      true,
    );
    const admin = await conferenceAck('fr-BE', 'admin nimporte');
    expect(admin.startsWith('`/conference admin` connaît\u202f: `doctor`')).toBe(true);
    for (const english of englishTexts) expect(admin).not.toContain(english);
  });

  it('stays English, as before, for anyone else', async () => {
    const text = await conferenceAck('en-GB', 'show');
    expect(
      text.startsWith(
        '`/conference show` needs one conference id or room name.\n\n*`/conference`* — plan a video conference\n• `/conference` opens the form\n',
      ),
    ).toBe(true);
    expect(text).toContain(
      md`   times: ${'`now`, `in 2h`, `3pm`, `tomorrow 3pm`, `mon 09:30`, `2026-12-01 14:00`'} (in your Slack time zone); durations: ${'`45m`, `1h`, `1h30`, `90min`'}`
        .text,
    );
    expect(text.endsWith('• `/conference help` shows this message')).toBe(true);
  });
});
