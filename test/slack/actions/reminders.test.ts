import { describe, expect, it } from 'vitest';
import type { ReminderPrefs } from '../../../src/domain/reminders.js';
import { AccessService } from '../../../src/services/access.js';
import { handleReminderLead } from '../../../src/slack/actions/reminders.js';
import type { ReminderDeps } from '../../../src/slack/deps.js';
import { click, fakeSlack, services, silent, usePlatform } from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/** App Home's reminder buttons: the policy first, then the person's own choice kept, then Home again. */
const platform = usePlatform();

function reminderDeps(access?: (s: ReturnType<typeof services>) => AccessService) {
  const slack = fakeSlack();
  const s = services(platform.client, slack);
  const kept = new Map<string, ReminderPrefs>();
  const done: string[] = [];
  const deps: ReminderDeps = {
    access: access ? access(s) : s.access,
    locales: { channel: 'en', person: (user) => s.identity.locale(user) },
    logger: silent,
    store: { setReminderPrefs: async (user, prefs) => void kept.set(user, prefs) },
    homes: { refresh: async (user) => void done.push(`refresh ${user}`) },
  };
  return { deps, kept, done, slack };
}

describe('Home’s reminder settings', () => {
  it('keeps the clicker’s own choice (off, a lead time, the conference’s), then refreshes their Home', async () => {
    const { deps, kept, done, slack } = reminderDeps();
    await handleReminderLead(deps)(click(slack, { user: people.alice.id, value: '15' }).c);
    expect(kept.get(people.alice.id)).toEqual({ enabled: true, leadMinutes: 15 });
    // Someone with no platform account (invited by e-mail) may choose too.
    await handleReminderLead(deps)(click(slack, { user: people.nobody.id, value: 'off' }).c);
    expect(kept.get(people.nobody.id)).toEqual({ enabled: false });
    await handleReminderLead(deps)(click(slack, { user: people.alice.id, value: 'default' }).c);
    expect(kept.get(people.alice.id)).toEqual({ enabled: true });
    expect(done).toEqual([
      `refresh ${people.alice.id}`,
      `refresh ${people.nobody.id}`,
      `refresh ${people.alice.id}`,
    ]);
  });

  it('refuses a lead time it does not offer as out of date, and a workspace rule that forbids it, keeping nothing', async () => {
    const { deps, kept, done, slack } = reminderDeps();
    for (const forged of ['7', '-5', '', '{"leadMinutes":1}'])
      await expect(
        handleReminderLead(deps)(click(slack, { user: people.alice.id, value: forged }).c),
      ).rejects.toMatchObject({ code: 'stale_button' });
    const ruled = reminderDeps(
      (s) =>
        new AccessService(s.identity, {
          'reminders.set': { who: ['admin'], refusal: 'change conference reminders here: ask an admin' },
        }),
    );
    await expect(
      handleReminderLead(ruled.deps)(click(ruled.slack, { user: people.alice.id, value: '5' }).c),
    ).rejects.toMatchObject({ code: 'not_allowed', message: expect.stringContaining('ask an admin') });
    expect([...kept, ...ruled.kept]).toEqual([]);
    expect([...done, ...ruled.done]).toEqual([]);
  });
});
