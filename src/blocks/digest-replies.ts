import { describeWeekdays } from '../domain/digest-schedule.js';
import { type TextMessage, textMessage } from './kit.js';
import { channelLink, date, empty, joinMd, type Mrkdwn, md, mention } from './mrkdwn.js';

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

/** The sentence for a digest command's outcome (every outside value escaped). */
export function buildDigestReply(r: DigestReply): TextMessage {
  switch (r.kind) {
    case 'list':
      return textMessage(
        r.schedules.length
          ? md`Digests of ${channelLink(r.channel)}:\n${joinMd(
              r.schedules.map(
                (s) =>
                  md`• \`${s.id.slice(0, 8)}\` ${s.time} ${s.zone}, ${describeWeekdays(s.weekdays)} (set up by ${mention(s.createdBy)})`,
              ),
              md`\n`,
            )}`
          : md`${channelLink(r.channel)} has no daily digest. ${r.help}`,
      );
    case 'no-such-id':
      return textMessage(md`No digest of ${channelLink(r.channel)} has the id \`${r.id}\`.`);
    case 'none':
      return textMessage(md`${channelLink(r.channel)} has no daily digest.`);
    case 'removed':
      return textMessage(
        md`Removed ${r.count === 1 ? 'the daily digest' : `${r.count} daily digests`} of ${channelLink(r.channel)}.`,
      );
    case 'bad-time':
      return textMessage(md`I could not read the time in “${r.words}”. Try \`/conference digest at 9:00\`.`);
    case 'bad-days':
      return textMessage(
        md`I could not read the days “${r.words}”. Try \`daily\`, \`weekdays\`, \`mon-fri\` or \`mon,wed,fri\`.`,
      );
    case 'problem':
      return textMessage(md`${r.problem}`);
    case 'not-understood':
      return textMessage(md`I did not understand “${r.words}”.\n${r.help}`);
    case 'saved': {
      const s = r.schedule;
      return textMessage(
        md`📊 ${channelLink(s.channel)} will get the daily digest at ${s.time} ${s.zone}, ${describeWeekdays(s.weekdays)}.${
          r.next
            ? md` The ${r.replaced ? 'next' : 'first'}: ${date(r.next, '{date_short_pretty} at {time}')}.`
            : empty
        }`,
      );
    }
  }
}
