import type { Locale } from '../i18n/locale.js';
import { type TextMessage, textMessage } from './kit.js';
import { channelLink, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';
import { dateAt, t, tPlain } from './text.js';

/*
 * The private replies of `/conference digest` and of the digest form.
 */

/** A digest schedule as the replies name it. */
export interface DigestScheduleItem {
  id: string;
  channel: string;
  time: string;
  zone: string;
  weekdays: number[];
  createdBy: string;
}

/**
 * What a `/conference digest` command did or could not read. `help`: the command's help (built from
 * its verb table, `slack/commands/digest.ts`), said after an empty list or words it could not read.
 */
export type DigestReply =
  | { kind: 'list'; channel: string; schedules: readonly DigestScheduleItem[]; help: Mrkdwn }
  | { kind: 'no-such-id'; channel: string; id: string }
  | { kind: 'none'; channel: string }
  | { kind: 'removed'; channel: string; count: number }
  | { kind: 'bad-time'; words: string }
  | { kind: 'bad-days'; words: string }
  | { kind: 'problem'; problem: string }
  | { kind: 'not-understood'; words: string; help: Mrkdwn }
  | { kind: 'saved'; schedule: DigestScheduleItem; next: Date | undefined; replaced: boolean };

/** A schedule's weekdays in `locale`: `every day`, `Mon–Fri`, `weekends` or the days' names. */
export function weekdaysText(locale: Locale, days: readonly number[]): string {
  const key = days.join(',');
  if (key === '1,2,3,4,5,6,7') return tPlain(locale, 'digest.weekdays.every');
  if (key === '1,2,3,4,5') return tPlain(locale, 'digest.weekdays.monFri');
  if (key === '6,7') return tPlain(locale, 'digest.weekdays.weekends');
  return days
    .filter((d) => d >= 1 && d <= 7)
    .map((d) => tPlain(locale, `digest.weekday.${d as 1 | 2 | 3 | 4 | 5 | 6 | 7}`))
    .join(', ');
}

/** The sentence for a digest command's outcome, in the person's `locale` (every outside value escaped). */
export function buildDigestReply(locale: Locale, r: DigestReply): TextMessage {
  switch (r.kind) {
    case 'list': {
      const channel = channelLink(r.channel);
      return textMessage(
        r.schedules.length
          ? t(locale, 'digestReply.list', {
              channel,
              lines: joinMd(
                r.schedules.map((s) =>
                  t(locale, 'digestReply.listLine', {
                    id: s.id.slice(0, 8),
                    time: s.time,
                    zone: s.zone,
                    days: weekdaysText(locale, s.weekdays),
                    by: mention(s.createdBy),
                  }),
                ),
                md`\n`,
              ),
            })
          : t(locale, 'digestReply.noneHelp', { channel, help: r.help }),
      );
    }
    case 'no-such-id':
      return textMessage(t(locale, 'digestReply.noSuchId', { channel: channelLink(r.channel), id: r.id }));
    case 'none':
      return textMessage(t(locale, 'digestReply.none', { channel: channelLink(r.channel) }));
    case 'removed':
      return textMessage(
        t(locale, 'digestReply.removed', { count: r.count, channel: channelLink(r.channel) }),
      );
    case 'bad-time':
      return textMessage(t(locale, 'digestReply.badTime', { words: r.words }));
    case 'bad-days':
      return textMessage(t(locale, 'digestReply.badDays', { words: r.words }));
    case 'problem':
      return textMessage(md`${r.problem}`);
    case 'not-understood':
      return textMessage(t(locale, 'digestReply.notUnderstood', { words: r.words, help: r.help }));
    case 'saved': {
      const s = r.schedule;
      const values = {
        channel: channelLink(s.channel),
        time: s.time,
        zone: s.zone,
        days: weekdaysText(locale, s.weekdays),
      };
      return textMessage(
        r.next
          ? t(locale, r.replaced ? 'digestReply.savedNext' : 'digestReply.savedFirst', {
              ...values,
              date: dateAt(locale, r.next),
            })
          : t(locale, 'digestReply.saved', values),
      );
    }
  }
}
