import { describe, expect, it } from 'vitest';
import { DigestService } from '../../../src/services/digest.js';
import { DigestScheduleService } from '../../../src/services/digest-schedules.js';
import { handleConferenceCommand } from '../../../src/slack/commands/conference.js';
import {
  type DigestAsker,
  handleDigestAt,
  handleDigestList,
  handleDigestNow,
  handleDigestOff,
  readDigestCommand,
} from '../../../src/slack/commands/digest.js';
import type { DigestDeps } from '../../../src/slack/deps.js';
import type { StoredDigestSchedule } from '../../../src/store/digests.js';
import {
  conferenceDeps,
  eventually,
  fakeSlack,
  notUsed,
  recorder,
  services,
  slash,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { botNow, people } from '../../helpers/people.js';

/** `/conference digest …`: its verb table, and each verb's handler after the ack. */
const platform = usePlatform();

function world() {
  const saved: StoredDigestSchedule[] = [];
  const store = {
    addDigestSchedule: async (s: StoredDigestSchedule) => void saved.push(s),
    replaceDigestSchedule: async (s: StoredDigestSchedule) => void saved.push(s),
    removeDigestSchedule: async (id: string) => {
      const at = saved.findIndex((s) => s.id === id);
      if (at >= 0) saved.splice(at, 1);
      return at >= 0;
    },
    digestSchedules: async (channel?: string) => saved.filter((s) => !channel || s.channel === channel),
  };
  const slack = fakeSlack();
  const deps: DigestDeps = {
    ...services(platform.client, slack),
    schedules: new DigestScheduleService(store, () => botNow),
    // No day's figures kept: each is read from the platform.
    digests: new DigestService(platform.client, {
      keptStatistics: async () => undefined,
      keepStatistics: async () => undefined,
    }),
  };
  return { deps, saved, slack };
}

/** Who asks in channel C1, and what they were answered. */
function asker(user: string) {
  const replies = recorder();
  const who: DigestAsker = { user, channel: 'C1', respond: replies.fn };
  return { who, replies };
}

/** `/conference digest <words>` through `/conference`'s listener: its ack and its replies after. */
async function command(words: string, user: string = people.admin.id) {
  const { deps, saved, slack } = world();
  const conference = conferenceDeps(platform.client, slack).deps;
  const c = slash(slack, { user, text: `digest ${words}` });
  await handleConferenceCommand({ ...conference, ...deps, links: notUsed('links') })(c.args);
  return { ...c, saved, slack };
}

describe('/conference digest’s verb table', () => {
  it('reads each verb, and any other word as one it does not know', () => {
    expect(readDigestCommand('')).toEqual({ kind: 'form', id: '' });
    expect(readDigestCommand('edit 1a2b')).toEqual({ kind: 'form', id: '1a2b' });
    expect(readDigestCommand('AT 9:00 weekdays')).toEqual({ kind: 'at', words: '9:00 weekdays' });
    expect(readDigestCommand('list')).toEqual({ kind: 'list' });
    expect(readDigestCommand('off')).toEqual({ kind: 'off' });
    expect(readDigestCommand('off 1a2b')).toEqual({ kind: 'off', id: '1a2b' });
    expect(readDigestCommand('now')).toEqual({ kind: 'now' });
    expect(readDigestCommand('help')).toEqual({ kind: 'help' });
    expect(readDigestCommand(' sometimes ')).toEqual({ kind: 'unknown', words: 'sometimes' });
  });

  it('answers help in the ack, built from its rows in their order', async () => {
    const { acks, replies } = await command('help');
    expect(acks.given).toEqual([
      {
        response_type: 'ephemeral',
        text: [
          '*`/conference digest`* — the enterprise’s daily statistics in this channel',
          '• `/conference digest at 9:00 [daily|weekdays|mon-fri|mon,wed,fri] [in Europe/Paris]` — schedule it (your time zone unless given)',
          '• `/conference digest` opens the form · `digest edit &lt;id&gt;` changes one',
          '• `/conference digest list` · `/conference digest off [id]` · `/conference digest now` (a private preview)',
        ].join('\n'),
      },
    ]);
    expect(replies.given).toEqual([]);
  });

  it('answers a word it does not know in the ack, with its help', async () => {
    const { acks } = await command('sometimes');
    const said = JSON.stringify(acks.given);
    expect(said).toContain('I did not understand “sometimes”');
    expect(said).toContain('`/conference digest list`');
  });

  it('acks at, list, off and now with nothing, then answers in place', async () => {
    for (const [words, said] of [
      ['at 9:30 mon-fri', 'will get the daily digest at 09:30'],
      ['list', 'has no daily digest'],
      ['off', 'has no daily digest'],
      ['now', 'preview'],
    ]) {
      const { acks, replies } = await command(words as string);
      expect(acks.given).toEqual([undefined]);
      await eventually(() => expect(replies.given).toHaveLength(1));
      expect(replies.given[0]).toMatchObject({ response_type: 'ephemeral', replace_original: true });
      expect(replies.text()).toContain(said);
    }
  });

  it('opens the form alone, and tells an agent the refusal instead', async () => {
    const opened = await command('');
    expect(opened.acks.given).toEqual([undefined]);
    await eventually(() => expect(opened.slack.callsOf('views.open')).toHaveLength(1));
    const refused = await command('', people.alice.id);
    await eventually(() => expect(refused.replies.given).toHaveLength(1));
    expect(refused.replies.text()).toContain('statistics digest');
    expect(refused.slack.callsOf('views.open')).toEqual([]);
  });
});

describe('/conference digest at, list, off', () => {
  it('sets a schedule up in the person’s zone, lists it and removes it', async () => {
    const { deps, saved } = world();
    const set = asker(people.admin.id);
    await handleDigestAt(deps, '9:30 mon-fri', set.who);
    expect(saved).toEqual([
      expect.objectContaining({
        channel: 'C1',
        time: '09:30',
        zone: 'Europe/Paris',
        weekdays: [1, 2, 3, 4, 5],
      }),
    ]);
    expect(set.replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: true }),
    ]);
    const list = asker(people.admin.id);
    await handleDigestList(deps, list.who);
    expect(list.replies.text()).toContain('09:30');
    const off = asker(people.admin.id);
    await handleDigestOff(deps, undefined, off.who);
    expect(off.replies.text()).toContain('Removed the daily digest');
    expect(saved).toEqual([]);
  });

  it('says what it could not read: a time, days, a zone', async () => {
    const { deps, saved } = world();
    for (const [words, fix] of [
      ['noonish', 'could not read the time'],
      ['9:00 someday', 'could not read the days'],
      ['9:00 in Mars/Olympus', 'Mars/Olympus'],
    ]) {
      const { who, replies } = asker(people.admin.id);
      await handleDigestAt(deps, words as string, who);
      expect(replies.given).toHaveLength(1);
      expect(replies.text()).toContain(fix);
    }
    expect(saved).toEqual([]);
  });

  it('lists an empty channel with the help, and says an id that is not the channel’s', async () => {
    const { deps } = world();
    const list = asker(people.admin.id);
    await handleDigestList(deps, list.who);
    expect(list.replies.text()).toContain('has no daily digest');
    expect(list.replies.text()).toContain('`/conference digest list`');
    const off = asker(people.admin.id);
    await handleDigestOff(deps, '1a2b', off.who);
    expect(off.replies.text()).toContain('has the id `1a2b`');
  });

  it('refuses an agent, saving, listing and removing nothing', async () => {
    const { deps, saved } = world();
    const { who, replies } = asker(people.alice.id);
    await expect(handleDigestAt(deps, '9:00', who)).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('statistics digest'),
    });
    await expect(handleDigestList(deps, who)).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(handleDigestOff(deps, undefined, who)).rejects.toMatchObject({ code: 'not_allowed' });
    expect(saved).toEqual([]);
    expect(replies.given).toEqual([]);
  });
});

describe('/conference digest now', () => {
  it('previews the digest privately for an admin', async () => {
    const { deps } = world();
    const { who, replies } = asker(people.admin.id);
    await handleDigestNow(deps, who);
    expect(replies.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: true }),
    ]);
    expect(JSON.stringify(replies.given)).toContain('preview');
  });

  it('writes the preview in the channel’s language: French in a French workspace, English otherwise', async () => {
    const { deps } = world();
    const fr = asker(people.admin.id);
    await handleDigestNow({ ...deps, locales: { ...deps.locales, channel: 'fr' } }, fr.who);
    const french = JSON.stringify(fr.replies.given);
    expect(french).toContain('Résumé quotidien');
    expect(french).toContain('Un aperçu, vous seul le voyez.');
    expect(french).not.toContain('Daily digest');
    const en = asker(people.admin.id);
    await handleDigestNow(deps, en.who);
    const english = JSON.stringify(en.replies.given);
    expect(english).toContain('Daily digest');
    expect(english).not.toContain('Résumé quotidien');
  });

  it('answers a French person’s `digest list` in French', async () => {
    const { deps } = world();
    const { who, replies } = asker(people.admin.id);
    await handleDigestList({ ...deps, locales: { ...deps.locales, person: async () => 'fr' } }, who);
    expect(JSON.stringify(replies.given)).toContain('n’a pas de résumé quotidien');
  });

  it('refuses an agent the preview', async () => {
    const { deps } = world();
    const { who, replies } = asker(people.alice.id);
    await expect(handleDigestNow(deps, who)).rejects.toMatchObject({ code: 'not_allowed' });
    expect(replies.given).toEqual([]);
  });
});
