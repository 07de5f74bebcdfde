import { buildDigest } from '../../blocks/digest.js';
import { buildDigestForm } from '../../blocks/digest-form.js';
import { buildDigestReply } from '../../blocks/digest-replies.js';
import type { TextMessage } from '../../blocks/kit.js';
import { buildUsage, usages } from '../../blocks/usage.js';
import { parseDigestTime, parseWeekdays, periodOf, reportedDay } from '../../domain/digest-schedule.js';
import { within } from '../../util/within.js';
import type { DigestDeps } from '../deps.js';
import { gateMs } from '../openers/forms.js';
import type { Reply, Responder } from '../replies/reply-error.js';

/**
 * The digest form for a new schedule in this channel (at 09:00 in the person's zone, every day), or
 * for the channel's schedule whose id starts with `id`; a sentence when there is no such schedule.
 */
export async function digestFormFor(
  deps: DigestDeps,
  id: string,
  who: { user: string; channel: string },
): Promise<ReturnType<typeof buildDigestForm> | TextMessage> {
  // The trigger lasts 3 s: a quick refusal is said at once; a slow answer opens the form, whose
  // submission is checked again.
  const early = await within(deps.access.require(who.user, 'digest.set'), gateMs);
  if (early && 'error' in early) throw early.error;
  if (!id) {
    const zone = (await deps.identity.profile(who.user)).tz;
    return buildDigestForm({ channel: who.channel, time: '09:00', zone, weekdays: [1, 2, 3, 4, 5, 6, 7] });
  }
  const s = await deps.schedules.find(who.channel, id);
  return s
    ? buildDigestForm({ ...s, scheduleId: s.id })
    : buildDigestReply({ kind: 'no-such-id', channel: who.channel, id });
}

/**
 * `/conference digest …`: schedule a channel's daily digest at a local time on chosen weekdays,
 * list or remove the channel's schedules, or preview today's digest privately.
 */
export async function handleDigestCommand(
  deps: DigestDeps,
  args: string,
  who: { user: string; channel: string },
  respond: Responder,
): Promise<void> {
  const say = (reply: Reply) => respond({ response_type: 'ephemeral', replace_original: true, ...reply });
  const [verb = '', ...rest] = args.trim().split(/\s+/);
  const { schedules } = deps;
  const allowed = (action: 'digest.list' | 'digest.remove' | 'digest.preview' | 'digest.set') =>
    deps.access.require(who.user, action);
  const { channel } = who;
  switch (verb.toLowerCase()) {
    case 'list': {
      await allowed('digest.list');
      return void (await say(
        buildDigestReply({ kind: 'list', channel, schedules: await schedules.list(channel) }),
      ));
    }
    case 'off': {
      await allowed('digest.remove');
      const id = rest[0];
      const count = await schedules.remove(channel, id);
      if (!count)
        return void (await say(
          buildDigestReply(id ? { kind: 'no-such-id', channel, id } : { kind: 'none', channel }),
        ));
      return void (await say(buildDigestReply({ kind: 'removed', channel, count })));
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
      if (!time) return void (await say(buildDigestReply({ kind: 'bad-time', words })));
      const weekdays = m?.[2] ? parseWeekdays(m[2]) : [1, 2, 3, 4, 5, 6, 7];
      if (!weekdays?.length)
        return void (await say(buildDigestReply({ kind: 'bad-days', words: m?.[2] ?? '' })));
      const zone = m?.[3] ?? (await deps.identity.profile(who.user)).tz;
      const draft = { channel, zone, time, weekdays, createdBy: who.user };
      const problem = schedules.problems(draft).zone;
      if (problem) return void (await say(buildDigestReply({ kind: 'problem', problem })));
      return void (await say(buildDigestReply({ kind: 'saved', ...(await schedules.save(draft)) })));
    }
    case 'help':
      return void (await say(buildUsage(usages.digest)));
    default:
      return void (await say(buildDigestReply({ kind: 'not-understood', words: args.trim() })));
  }
}
