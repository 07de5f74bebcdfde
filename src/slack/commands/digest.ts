import { buildDigest } from '../../blocks/digest.js';
import { buildDigestForm } from '../../blocks/digest-form.js';
import { buildDigestReply } from '../../blocks/digest-replies.js';
import type { Reply, TextMessage } from '../../blocks/kit.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { phrase } from '../../blocks/text.js';
import { helpIn } from '../../blocks/usage.js';
import { parseDigestTime, parseWeekdays, periodOf, reportedDay } from '../../domain/digest-schedule.js';
import type { Locale } from '../../i18n/locale.js';
import { within } from '../../util/within.js';
import type { DigestDeps } from '../deps.js';
import { gateMs } from '../openers/forms.js';
import type { Responder } from '../replies/reply-error.js';
import { tellIfSlow } from '../replies/working-notice.js';
import { type VerbRun, type VerbTable, verbTableVerb } from '../runtime/command-routes.js';

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
  // submission is checked again. The person's language is asked for meanwhile.
  const language = deps.locales.person(who.user);
  const early = await within(deps.access.require(who.user, 'digest.set'), gateMs);
  if (early && 'error' in early) throw early.error;
  if (!id) {
    const [zone, locale] = await Promise.all([deps.identity.profile(who.user).then((p) => p.tz), language]);
    return buildDigestForm({
      locale,
      channel: who.channel,
      time: '09:00',
      zone,
      weekdays: [1, 2, 3, 4, 5, 6, 7],
    });
  }
  const [s, locale] = await Promise.all([deps.schedules.find(who.channel, id), language]);
  return s
    ? buildDigestForm({ ...s, locale, scheduleId: s.id })
    : buildDigestReply(locale, { kind: 'no-such-id', channel: who.channel, id });
}

/** What `/conference digest …` asks for, as `readDigestCommand` tells it from the words after `digest`. */
export type DigestCommand =
  /** `digest` alone (a new schedule) or `digest edit <id>` (one of the channel's): the form. */
  | { kind: 'form'; id: string }
  | { kind: 'at'; words: string }
  | { kind: 'list' }
  | { kind: 'off'; id?: string }
  | { kind: 'now' }
  | { kind: 'help' }
  | { kind: 'unknown'; words: string };

/** The words after `/conference digest`: its verb (none is the form), then what the verb reads. */
export function readDigestCommand(args: string): DigestCommand {
  const words = args.trim();
  if (words === '' || /^edit\b/i.test(words)) return { kind: 'form', id: words.replace(/^edit\s*/i, '') };
  const [first = '', ...rest] = words.split(/\s+/);
  const verb = first.toLowerCase();
  if (verb === 'at') return { kind: 'at', words: rest.join(' ') };
  if (verb === 'off') return rest[0] ? { kind: 'off', id: rest[0] } : { kind: 'off' };
  if (verb === 'list' || verb === 'now' || verb === 'help') return { kind: verb };
  return { kind: 'unknown', words };
}

/** Who asked, where, and how to answer them (privately, in place of the "Working…" when there is one). */
export interface DigestAsker {
  user: string;
  channel: string;
  respond: Responder;
}

const say = (respond: Responder, reply: Reply) =>
  respond({ response_type: 'ephemeral', replace_original: true, ...reply });

/** `digest list`: the channel's schedules. */
export async function handleDigestList(deps: DigestDeps, { user, channel, respond }: DigestAsker) {
  const language = deps.locales.person(user);
  await deps.access.require(user, 'digest.list');
  const schedules = await deps.schedules.list(channel);
  const locale = await language;
  await say(
    respond,
    buildDigestReply(locale, { kind: 'list', channel, schedules, help: digestHelp(locale) }),
  );
}

/** `digest off [id]`: removes the channel's schedules (or the one whose id starts with `id`). */
export async function handleDigestOff(deps: DigestDeps, id: string | undefined, asker: DigestAsker) {
  const { user, channel, respond } = asker;
  const language = deps.locales.person(user);
  await deps.access.require(user, 'digest.remove');
  const count = await deps.schedules.remove(channel, id);
  const locale = await language;
  if (!count)
    return say(
      respond,
      buildDigestReply(locale, id ? { kind: 'no-such-id', channel, id } : { kind: 'none', channel }),
    );
  return say(respond, buildDigestReply(locale, { kind: 'removed', channel, count }));
}

/**
 * `digest now`: today's digest, privately (the day reported is the person's yesterday), in the
 * channel's language as the posted digest is.
 */
export async function handleDigestNow(deps: DigestDeps, { user, respond }: DigestAsker) {
  await deps.access.require(user, 'digest.preview');
  const zone = (await deps.identity.profile(user)).tz;
  const day = reportedDay(periodOf(zone, deps.now()));
  await say(
    respond,
    buildDigest(await deps.digests.collect(day, { chart: false }), {
      locale: deps.locales.channel,
      preview: true,
    }),
  );
}

/** `digest at <time> [days] [in <zone>]`: a schedule at that local time (the person's zone unless named). */
export async function handleDigestAt(deps: DigestDeps, words: string, asker: DigestAsker) {
  const { user, channel, respond } = asker;
  const { schedules } = deps;
  const language = deps.locales.person(user);
  await deps.access.require(user, 'digest.set');
  const m = /^(\S+(?:\s*[ap]m)?)(?:\s+(.*?))?(?:\s+in\s+(\S+))?$/i.exec(words);
  const time = m?.[1] ? parseDigestTime(m[1]) : undefined;
  const locale = await language;
  if (!time) return say(respond, buildDigestReply(locale, { kind: 'bad-time', words }));
  const weekdays = m?.[2] ? parseWeekdays(m[2]) : [1, 2, 3, 4, 5, 6, 7];
  if (!weekdays?.length)
    return say(respond, buildDigestReply(locale, { kind: 'bad-days', words: m?.[2] ?? '' }));
  const zone = m?.[3] ?? (await deps.identity.profile(user)).tz;
  const draft = { channel, zone, time, weekdays, createdBy: user };
  const problem = schedules.problems(draft, locale).zone;
  if (problem) return say(respond, buildDigestReply(locale, { kind: 'problem', problem }));
  return say(respond, buildDigestReply(locale, { kind: 'saved', ...(await schedules.save(draft)) }));
}

/** What the digest's verbs need: its services, and how long the platform's budget will hold a request. */
type DigestVerbDeps = DigestDeps & { waitMs: () => number };

/**
 * A verb that asks the platform or the store: the ack says nothing, a "Working…" follows when the
 * platform's budget will hold the request, and its answer replaces it.
 */
const working =
  <P>(
    run: (parsed: P, asker: DigestAsker, deps: DigestDeps) => Promise<unknown>,
  ): VerbRun<P, DigestVerbDeps> =>
  (parsed, c, deps) => ({
    later: async () => {
      await tellIfSlow(c.respond, phrase('working.digest'), deps.waitMs(), () => deps.locales.person(c.user));
      await run(parsed, { user: c.user, channel: c.channel, respond: c.respond }, deps);
    },
  });

/** `/conference digest`'s verbs, in the order of its help: each one's lines there and its handler. */
const digestVerbs: VerbTable<DigestCommand, DigestVerbDeps> = {
  at: {
    usage: ['digest.help.at'],
    run: working(({ words }, asker, deps) => handleDigestAt(deps, words, asker)),
  },
  // The trigger lasts 3 s: the form opens after an empty ack, with no "Working…" before it.
  form: {
    usage: ['digest.help.form'],
    run: ({ id }, c, deps) => ({
      later: async () => {
        const view = await digestFormFor(deps, id, { user: c.user, channel: c.channel });
        if (!('type' in view)) {
          await c.respond({ response_type: 'ephemeral', ...view });
          return;
        }
        await c.client.views.open({ trigger_id: c.triggerId, view });
      },
    }),
  },
  list: {
    usage: ['digest.help.list'],
    run: working((_, asker, deps) => handleDigestList(deps, asker)),
  },
  off: { usage: [], run: working(({ id }, asker, deps) => handleDigestOff(deps, id, asker)) },
  now: { usage: [], run: working((_, asker, deps) => handleDigestNow(deps, asker)) },
  help: { usage: [], run: (_, c) => ({ say: c.usage() }) },
  unknown: {
    usage: [],
    // Its answer is the words read back with the help: `c.usage()` has it written in the person's language.
    run: ({ words }, c) => {
      c.usage();
      return {
        say: buildDigestReply(c.locale, { kind: 'not-understood', words, help: digestHelp(c.locale) }),
      };
    },
  },
};

/**
 * `/conference digest …` as a verb of `/conference`: schedule a channel's daily digest at a local time
 * on chosen weekdays, list or remove the channel's schedules, or preview today's digest privately.
 * Its own help is built from `digestVerbs`.
 */
export const digestVerb = verbTableVerb<DigestCommand, DigestVerbDeps>({
  usage: ['conference.help.digest'],
  title: 'digest.help.title',
  read: readDigestCommand,
  verbs: digestVerbs,
});

/** `/conference digest`'s help in `locale` (`digestVerb.help` is the English one). */
export const digestHelp = (locale: Locale): Mrkdwn =>
  helpIn(
    locale,
    'digest.help.title',
    Object.values(digestVerbs).flatMap((v) => v.usage),
  );
