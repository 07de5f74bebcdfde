import { describe, expect, it } from 'vitest';
import { DigestService } from '../../../src/services/digest.js';
import { DigestScheduleService } from '../../../src/services/digest-schedules.js';
import { handleDigestCommand } from '../../../src/slack/commands/digest.js';
import type { DigestDeps } from '../../../src/slack/deps.js';
import type { StoredDigestSchedule } from '../../../src/store/digests.js';
import { fakeSlack, notUsed, recorder, services, usePlatform } from '../../helpers/listener-fakes.js';
import { botNow, people } from '../../helpers/people.js';

/** `/conference digest …`, after the ack: admins set up, list, remove and preview a channel's digest. */
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
  const deps: DigestDeps = {
    ...services(platform.client, fakeSlack()),
    schedules: new DigestScheduleService(store, () => botNow),
    digests: new DigestService(platform.client, notUsed('the digest runs')),
  };
  return { deps, saved };
}

async function digest(deps: DigestDeps, user: string, args: string) {
  const replies = recorder();
  await handleDigestCommand(deps, args, { user, channel: 'C1' }, replies.fn);
  return replies;
}

describe('/conference digest', () => {
  it('sets a schedule up in the person’s zone, lists it and removes it', async () => {
    const { deps, saved } = world();
    const set = await digest(deps, people.admin.id, 'at 9:30 mon-fri');
    expect(saved).toEqual([
      expect.objectContaining({
        channel: 'C1',
        time: '09:30',
        zone: 'Europe/Paris',
        weekdays: [1, 2, 3, 4, 5],
      }),
    ]);
    expect(set.given).toEqual([
      expect.objectContaining({ response_type: 'ephemeral', replace_original: true }),
    ]);
    expect((await digest(deps, people.admin.id, 'list')).text()).toContain('09:30');
    await digest(deps, people.admin.id, 'off');
    expect(saved).toEqual([]);
  });

  it('says what it could not read: a time, days, a zone, a word', async () => {
    const { deps, saved } = world();
    expect((await digest(deps, people.admin.id, 'at noonish')).given).toHaveLength(1);
    expect((await digest(deps, people.admin.id, 'at 9:00 someday')).given).toHaveLength(1);
    expect((await digest(deps, people.admin.id, 'at 9:00 in Mars/Olympus')).text()).toContain('Mars/Olympus');
    expect((await digest(deps, people.admin.id, 'sometimes')).text()).toContain('sometimes');
    expect(saved).toEqual([]);
  });

  it('refuses an agent, saving nothing', async () => {
    const { deps, saved } = world();
    await expect(digest(deps, people.alice.id, 'at 9:00')).rejects.toMatchObject({
      code: 'not_allowed',
      message: expect.stringContaining('statistics digest'),
    });
    await expect(digest(deps, people.alice.id, 'list')).rejects.toMatchObject({ code: 'not_allowed' });
    expect(saved).toEqual([]);
  });
});
