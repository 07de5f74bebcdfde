import type { ModalView } from '@slack/types';
import { describeWeekdays } from '../domain/digest-schedule.js';
import { input, option, textInput } from './inputs.js';
import { plain } from './kit.js';
import { limits } from './limits.js';

/** Block ids of the digest form. */
export const digestFields = { channel: 'channel', time: 'time', zone: 'zone', days: 'days' } as const;

const dayOptions = [1, 2, 3, 4, 5, 6, 7].map((d) => option(String(d), describeWeekdays([d])));

/**
 * The digest schedule form (`/conference digest` alone, or `digest edit <id>`): channel, local time,
 * IANA zone (the person's by default) and weekdays. `scheduleId` is set when editing one.
 */
export function buildDigestForm(v: {
  channel: string;
  time: string;
  zone: string;
  weekdays: number[];
  scheduleId?: string;
}): ModalView {
  return {
    type: 'modal',
    callback_id: 'digest_form',
    private_metadata: JSON.stringify({ scheduleId: v.scheduleId ?? null }),
    title: plain(v.scheduleId ? 'Edit the digest' : 'Daily digest', limits.viewTitle),
    submit: plain('Save', limits.viewButton),
    close: plain('Cancel', limits.viewButton),
    blocks: [
      input(
        digestFields.channel,
        'Post it in',
        {
          type: 'conversations_select',
          initial_conversation: v.channel,
          filter: { include: ['public', 'private'] },
        },
        { optional: false },
      ),
      input(
        digestFields.time,
        'At (local time)',
        { type: 'timepicker', initial_time: v.time },
        { optional: false },
      ),
      input(digestFields.zone, 'Time zone', textInput(v.zone, { placeholder: plain('Europe/Paris', 150) }), {
        optional: false,
        hint: 'An IANA time zone name, such as Europe/Paris, America/New_York or Asia/Kolkata.',
      }),
      input(
        digestFields.days,
        'On',
        {
          type: 'checkboxes',
          options: dayOptions,
          initial_options: dayOptions.filter((o) => v.weekdays.includes(Number(o.value))),
        },
        { optional: false },
      ),
    ],
  };
}
