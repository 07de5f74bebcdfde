import type { ModalView } from '@slack/types';
import type { Locale } from '../i18n/locale.js';
import { weekdaysText } from './digest-replies.js';
import { input, option, textInput } from './inputs.js';
import { plain } from './kit.js';
import { limits } from './limits.js';
import { tPlain } from './text.js';

/** Block ids of the digest form. */
export const digestFields = { channel: 'channel', time: 'time', zone: 'zone', days: 'days' } as const;

const dayOptions = (locale: Locale) =>
  [1, 2, 3, 4, 5, 6, 7].map((d) => option(String(d), weekdaysText(locale, [d])));

/**
 * The digest schedule form (`/conference digest` alone, or `digest edit <id>`): channel, local time,
 * IANA zone (the person's by default) and weekdays, in the person's `locale`. `scheduleId` is set
 * when editing one.
 */
export function buildDigestForm(v: {
  locale: Locale;
  channel: string;
  time: string;
  zone: string;
  weekdays: number[];
  scheduleId?: string;
}): ModalView {
  const { locale } = v;
  const days = dayOptions(locale);
  return {
    type: 'modal',
    callback_id: 'digest_form',
    private_metadata: JSON.stringify({ scheduleId: v.scheduleId ?? null }),
    title: plain(
      tPlain(locale, v.scheduleId ? 'digestForm.titleEdit' : 'digestForm.titleNew'),
      limits.viewTitle,
    ),
    submit: plain(tPlain(locale, 'digestForm.save'), limits.viewButton),
    close: plain(tPlain(locale, 'digestForm.cancel'), limits.viewButton),
    blocks: [
      input(
        digestFields.channel,
        tPlain(locale, 'digestForm.channel'),
        {
          type: 'conversations_select',
          initial_conversation: v.channel,
          filter: { include: ['public', 'private'] },
        },
        { optional: false },
      ),
      input(
        digestFields.time,
        tPlain(locale, 'digestForm.time'),
        { type: 'timepicker', initial_time: v.time },
        { optional: false },
      ),
      input(
        digestFields.zone,
        tPlain(locale, 'digestForm.zone'),
        textInput(v.zone, { placeholder: plain('Europe/Paris', 150) }),
        {
          optional: false,
          hint: tPlain(locale, 'digestForm.zoneHint'),
        },
      ),
      input(
        digestFields.days,
        tPlain(locale, 'digestForm.days'),
        {
          type: 'checkboxes',
          options: days,
          initial_options: days.filter((o) => v.weekdays.includes(Number(o.value))),
        },
        { optional: false },
      ),
    ],
  };
}
