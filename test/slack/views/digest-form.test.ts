import { describe, expect, it } from 'vitest';
import { buildDigestForm } from '../../../src/blocks/digest-form.js';
import { DigestScheduleService } from '../../../src/services/digest-schedules.js';
import type { DigestDeps } from '../../../src/slack/deps.js';
import { handleDigestForm } from '../../../src/slack/views/digest-form.js';
import type { StoredDigestSchedule } from '../../../src/store/digests.js';
import { formState } from '../../helpers/form-state.js';
import {
  eventually,
  fakeSlack,
  notUsed,
  services,
  submitted,
  usePlatform,
} from '../../helpers/listener-fakes.js';
import { botNow, people } from '../../helpers/people.js';

/**
 * Saving the digest form: problems inline under their input, nothing saved until all is right; only
 * admins set digests up; the person is told privately in the channel what was saved.
 */
const platform = usePlatform();

function world() {
  const slack = fakeSlack();
  const saved: StoredDigestSchedule[] = [];
  const store = {
    addDigestSchedule: async (s: StoredDigestSchedule) => void saved.push(s),
    replaceDigestSchedule: async (s: StoredDigestSchedule) => void saved.push(s),
    removeDigestSchedule: async () => false,
    digestSchedules: async () => saved,
  };
  const deps: DigestDeps = {
    ...services(platform.client, slack),
    schedules: new DigestScheduleService(store, () => botNow),
    digests: notUsed('digests'),
  };
  return { slack, deps, saved };
}

const form = buildDigestForm({
  locale: 'en',
  channel: 'C1',
  time: '09:00',
  zone: 'Europe/Paris',
  weekdays: [1, 2, 3, 4, 5],
});
const values = (changes: Record<string, string | Record<string, unknown> | undefined> = {}) =>
  formState(form as unknown as Record<string, unknown>, changes);

describe('the digest form', () => {
  it('saves an admin’s schedule and confirms it privately in the channel', async () => {
    const { slack, deps, saved } = world();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: values(),
      metadata: form.private_metadata,
    });
    await handleDigestForm(deps)(args);
    expect(acks.given).toEqual([undefined]);
    expect(saved).toEqual([
      expect.objectContaining({
        channel: 'C1',
        time: '09:00',
        zone: 'Europe/Paris',
        weekdays: [1, 2, 3, 4, 5],
      }),
    ]);
    await eventually(() => expect(slack.callsOf('chat.postEphemeral')).toHaveLength(1));
    expect(slack.callsOf('chat.postEphemeral')[0]).toMatchObject({ channel: 'C1', user: people.admin.id });
  });

  it('puts each problem under its input, and an agent’s refusal under the channel, saving nothing', async () => {
    const { slack, deps, saved } = world();
    const { args, acks } = submitted(slack, {
      user: people.alice.id,
      values: values({ zone: 'Mars/Olympus', days: { selected_options: [] } }),
      metadata: form.private_metadata,
    });
    await handleDigestForm(deps)(args);
    expect(acks.given).toEqual([
      {
        response_action: 'errors',
        errors: {
          zone: expect.stringContaining('Mars/Olympus'),
          days: 'Pick at least one day.',
          channel: expect.stringContaining('statistics digest'),
        },
      },
    ]);
    expect(saved).toEqual([]);
    expect(slack.callsOf('chat.postEphemeral')).toEqual([]);
  });

  it('refuses metadata the bot did not write before the ack', async () => {
    const { slack, deps, saved } = world();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      values: values(),
      metadata: '{"scheduleId":7}',
    });
    await expect(handleDigestForm(deps)(args)).rejects.toMatchObject({ code: 'stale_button' });
    expect(acks.given).toEqual([]);
    expect(saved).toEqual([]);
  });
});
