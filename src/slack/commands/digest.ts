import { randomUUID } from 'node:crypto';
import type { RespondFn } from '@slack/bolt';
import { IANAZone } from 'luxon';
import { escapeText } from '../../blocks/conference-card.js';
import { buildDigest } from '../../blocks/digest.js';
import { buildDigestForm } from '../../blocks/digest-form.js';
import {
  describeWeekdays,
  nextRunAfter,
  parseDigestTime,
  parseWeekdays,
  periodOf,
  reportedDay,
} from '../../domain/digest-schedule.js';
import { slackDate } from '../../domain/time.js';
import type { Logger } from '../../observability/logger.js';
import type { AccessService } from '../../services/access.js';
import type { DigestService } from '../../services/digest.js';
import type { IdentityService } from '../../services/identity.js';
import type { Store } from '../../store/store.js';
import { within } from '../../util/within.js';
import { gateMs } from '../conference-flows.js';

export interface DigestDeps {
  store: Store;
  identity: IdentityService;
  access: AccessService;
  digests: DigestService;
  logger: Logger;
  now: () => Date;
}

/**
 * The digest form for a new schedule in this channel (at 09:00 in the person's zone, every day), or
 * for the channel's schedule whose id starts with `id`; a sentence when there is no such schedule.
 */
export async function digestFormFor(
  deps: DigestDeps,
  id: string,
  who: { user: string; channel: string },
): Promise<ReturnType<typeof buildDigestForm> | string> {
  // The trigger lasts 3 s: a quick refusal is said at once; a slow answer opens the form, whose
  // submission is checked again.
  const early = await within(deps.access.require(who.user, 'digest.set'), gateMs);
  if (early && 'error' in early) throw early.error;
  if (!id) {
    const zone = (await deps.identity.profile(who.user)).tz;
    return buildDigestForm({ channel: who.channel, time: '09:00', zone, weekdays: [1, 2, 3, 4, 5, 6, 7] });
  }
  const s = (await deps.store.digestSchedules(who.channel)).find((x) => x.id.startsWith(id));
  return s
    ? buildDigestForm({ ...s, scheduleId: s.id })
    : `No digest of <#${who.channel}> has the id \`${id}\`.`;
}

export const digestUsage = [
  '*`/conference digest`* — the enterprise’s daily statistics in this channel',
  '• `/conference digest at 9:00 [daily|weekdays|mon-fri|mon,wed,fri] [in Europe/Paris]` — schedule it (your time zone unless given)',
  '• `/conference digest` opens the form · `digest edit &lt;id&gt;` changes one',
  '• `/conference digest list` · `/conference digest off [id]` · `/conference digest now` (a private preview)',
].join('\n');

/**
 * `/conference digest …`: schedule a channel's daily digest at a local time on chosen weekdays,
 * list or remove the channel's schedules, or preview today's digest privately.
 */
export async function handleDigestCommand(
  deps: DigestDeps,
  args: string,
  who: { user: string; channel: string },
  respond: RespondFn,
): Promise<void> {
  const say = (text: string) => respond({ response_type: 'ephemeral', replace_original: true, text });
  const [verb = '', ...rest] = args.trim().split(/\s+/);
  const { store } = deps;
  const allowed = (action: 'digest.list' | 'digest.remove' | 'digest.preview' | 'digest.set') =>
    deps.access.require(who.user, action);
  switch (verb.toLowerCase()) {
    case 'list': {
      await allowed('digest.list');
      const list = await store.digestSchedules(who.channel);
      return void (await say(
        list.length
          ? `Digests of <#${who.channel}>:\n${list
              .map(
                (s) =>
                  `• \`${s.id.slice(0, 8)}\` ${s.time} ${s.zone}, ${describeWeekdays(s.weekdays)} (set up by <@${s.createdBy}>)`,
              )
              .join('\n')}`
          : `<#${who.channel}> has no daily digest. ${digestUsage}`,
      ));
    }
    case 'off': {
      await allowed('digest.remove');
      const list = await store.digestSchedules(who.channel);
      const id = rest[0];
      const gone = list.filter((s) => !id || s.id.startsWith(id));
      if (!gone.length)
        return void (await say(
          id
            ? `No digest of <#${who.channel}> has the id \`${id}\`.`
            : `<#${who.channel}> has no daily digest.`,
        ));
      for (const s of gone) await store.removeDigestSchedule(s.id);
      return void (await say(
        `Removed ${gone.length === 1 ? 'the daily digest' : `${gone.length} daily digests`} of <#${who.channel}>.`,
      ));
    }
    case 'now': {
      await allowed('digest.preview');
      const zone = (await deps.identity.profile(who.user)).tz;
      const day = reportedDay(periodOf(zone, deps.now()));
      const preview = buildDigest(await deps.digests.collect(day), { preview: true });
      return void (await respond({ response_type: 'ephemeral', replace_original: true, ...preview }));
    }
    case 'at': {
      await allowed('digest.set');
      const words = rest.join(' ');
      const m = /^(\S+(?:\s*[ap]m)?)(?:\s+(.*?))?(?:\s+in\s+(\S+))?$/i.exec(words);
      const time = m?.[1] ? parseDigestTime(m[1]) : undefined;
      if (!time)
        return void (await say(
          `I could not read the time in “${escapeText(words)}”. Try \`/conference digest at 9:00\`.`,
        ));
      const weekdays = m?.[2] ? parseWeekdays(m[2]) : [1, 2, 3, 4, 5, 6, 7];
      if (!weekdays?.length)
        return void (await say(
          `I could not read the days “${escapeText(m?.[2] ?? '')}”. Try \`daily\`, \`weekdays\`, \`mon-fri\` or \`mon,wed,fri\`.`,
        ));
      const zone = m?.[3] ?? (await deps.identity.profile(who.user)).tz;
      if (!IANAZone.isValidZone(zone))
        return void (await say(
          `“${escapeText(zone)}” is not a time zone I know. Use an IANA name such as \`Europe/Paris\` or \`America/New_York\`.`,
        ));
      const schedule = { id: randomUUID(), channel: who.channel, zone, time, weekdays, createdBy: who.user };
      await store.addDigestSchedule(schedule);
      const next = nextRunAfter(schedule, deps.now());
      return void (await say(
        `📊 <#${who.channel}> will get the daily digest at ${time} ${zone}, ${describeWeekdays(weekdays)}.` +
          (next ? ` The first: ${slackDate(next, '{date_short_pretty} at {time}')}.` : ''),
      ));
    }
    case 'help':
      return void (await say(digestUsage));
    default:
      return void (await say(`I did not understand “${escapeText(args.trim())}”.\n${digestUsage}`));
  }
}
