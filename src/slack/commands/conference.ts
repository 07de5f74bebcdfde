import { whenFaultText } from '../../blocks/conference-form.js';
import { buildConferenceDetails, buildConferenceList } from '../../blocks/conference-list.js';
import {
  buildConferenceCreated,
  buildConferenceDeletePrompt,
  buildConferenceFailure,
  buildConferencePast,
} from '../../blocks/conference-replies.js';
import { ids } from '../../blocks/ids.js';
import type { Reply } from '../../blocks/kit.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { phrase, t } from '../../blocks/text.js';
import {
  type ConferenceCommand,
  type ConferenceRequestText,
  type ConferenceUsageProblem,
  type ConferenceWords,
  isCompleteRequest,
  parseConferenceCommand,
} from '../../domain/conference-text.js';
import { durationExamples, parseWhen, pastGraceMs, whenExamples } from '../../domain/time.js';
import type { Locale } from '../../i18n/locale.js';
import { notKeptNotice } from '../../services/fields-not-kept.js';
import type { ConferenceDeps, LinkDeps, MediaDeps } from '../deps.js';
import { formFromText } from '../openers/forms.js';
import { postConferenceCard } from '../openers/post-conference-card.js';
import { describeError, inviteFix } from '../replies/describe-error.js';
import { type Responder, replyError } from '../replies/reply-error.js';
import {
  CommandRoutes,
  type SlashCommand,
  type VerbRun,
  type VerbTable,
  verbWords,
} from '../runtime/command-routes.js';
import type { Listeners } from '../runtime/listener-tables.js';
import { adminVerb, type SettingsDeps } from './conference-admin.js';
import { digestVerb } from './digest.js';
import { mediaVerb } from './media.js';
import { passwordVerb } from './people.js';

/** What `/conference` and its verbs need. */
type ConferenceCommandDeps = ConferenceDeps & MediaDeps & LinkDeps & SettingsDeps;

/** A failed `/conference`, replacing its "Working…", with the form button. */
const failure = (locale: Locale, problem: Mrkdwn | string, text: string) => ({
  response_type: 'ephemeral' as const,
  replace_original: true,
  ...buildConferenceFailure(locale, problem, text),
});

/**
 * A verb's work after the ack in the person's language (their cached profile, asked for after the
 * ack: no ack waits for it), its failures told in that language too (`build`: the reply for one).
 */
const inTheirLanguage =
  (
    deps: Pick<ConferenceDeps, 'locales'>,
    c: SlashCommand,
    work: (locale: Locale) => Promise<unknown>,
    build?: (locale: Locale, message: Mrkdwn) => Reply,
  ) =>
  async () => {
    const locale = await deps.locales.person(c.user);
    try {
      await work(locale);
    } catch (error) {
      await replyError(
        {
          kind: 'command',
          respond: c.respond,
          channel: c.channel,
          log: c.log,
          locale,
          ...(build ? { build: (message: Mrkdwn) => build(locale, message) } : {}),
        },
        error,
      );
    }
  };

async function createFromText(
  deps: ConferenceDeps,
  respond: Responder,
  cmd: { user: string; channel: string; text: string },
  req: ConferenceRequestText,
  locale: Locale,
) {
  const now = deps.now();
  const profile = await deps.identity.profile(cmd.user);
  const when = parseWhen(req.when ?? 'now', { zone: profile.tz, now });
  if (!when.ok)
    return respond(failure(locale, when.fault ? whenFaultText(locale, when.fault) : when.error, cmd.text));
  const start = when.value.toJSDate();
  if (start.getTime() < now.getTime() - pastGraceMs)
    return respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildConferencePast(locale, req.when ?? 'now', profile.tz, cmd.text),
    });
  const conference = await deps.conferences.create(cmd.user, {
    channel: cmd.channel,
    participants: req.participants,
    people: req.mentions,
    name: req.name,
    startTime: start,
    duration: req.duration,
    invite: true,
  });
  // The platform has it now: a failure from here on concerns only the card, and is said so.
  // A field the platform silently dropped is said too, never lost.
  const dropped = notKeptNotice(locale, conference.notKept);
  let problem: Mrkdwn;
  try {
    if (await postConferenceCard(deps, cmd.channel, conference))
      return respond(
        dropped
          ? {
              response_type: 'ephemeral',
              replace_original: true,
              ...buildConferenceCreated(locale, conference, { dropped }),
            }
          : { delete_original: true },
      );
    problem = inviteFix(cmd.channel, locale);
  } catch (error) {
    problem = t(locale, 'conference.reply.cardFailed', {
      why: describeError(error, deps.logger, cmd.channel, locale),
    });
  }
  return respond({
    response_type: 'ephemeral',
    replace_original: true,
    ...buildConferenceCreated(locale, conference, { dropped, problem }),
  });
}

/**
 * Text that is complete creates the conference directly, after a "Working…" (a failure keeps the
 * form's button, with the text); otherwise the form opens, prefilled with what was understood.
 */
const create: VerbRun<{ request: ConferenceRequestText }, ConferenceCommandDeps> = ({ request }, c, deps) => {
  const { user, channel, text } = c;
  if (text.trim() && isCompleteRequest(request))
    return {
      working: phrase('working.creatingConference'),
      later: inTheirLanguage(
        deps,
        c,
        (locale) => createFromText(deps, c.respond, { user, channel, text }, request, locale),
        (locale, message) => failure(locale, message, text),
      ),
      failure: (message) => failure('en', message, text),
    };
  return {
    later: inTheirLanguage(deps, c, async () => {
      const view = await formFromText(deps, user, channel, text);
      await c.client.views.open({ trigger_id: c.triggerId, view });
    }),
  };
};

/** The help's line of the words a create command reads, in both languages (the examples are what the parser reads). */
const createWords = (locale: Locale) =>
  t(locale, 'conference.help.createWords', { when: whenExamples, durations: durationExamples });

/** Why `/conference`'s words could not be read, in the person's language. */
const usageProblem = (locale: Locale, p: ConferenceUsageProblem) =>
  p.kind === 'password'
    ? t(locale, 'conference.problem.password')
    : t(locale, 'conference.problem.ref', { verb: p.verb });

/**
 * `/conference`'s verbs (as `domain/conference-text.ts` reads them), in the order of its help: each
 * one's lines there and its handler. The platform may take seconds: what it is asked runs after the ack.
 */
const conferenceVerbs: VerbTable<ConferenceCommand, ConferenceCommandDeps> = {
  create: {
    usage: ['conference.help.form', 'conference.help.create', createWords],
    run: create,
  },
  list: {
    aliases: ['liste'],
    usage: ['conference.help.list'],
    run: ({ filter, search }, c, deps) => {
      const q = { filter, search, offset: 0 };
      return {
        working: phrase('working.lookingUpConferences'),
        later: inTheirLanguage(deps, c, async (locale) => {
          const page = await deps.conferences.list(c.user, q);
          await c.respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildConferenceList(locale, q, page),
          });
        }),
      };
    },
  },
  show: {
    aliases: ['voir'],
    usage: ['conference.help.show'],
    run: ({ ref }, c, deps) => ({
      working: phrase('working.lookingUpConference'),
      later: inTheirLanguage(deps, c, async (locale) => {
        const conference = await deps.conferences.see(c.user, ref);
        await c.respond({
          response_type: 'ephemeral',
          replace_original: true,
          ...buildConferenceDetails(locale, conference),
        });
      }),
    }),
  },
  delete: {
    aliases: ['supprimer'],
    usage: [],
    run: ({ ref }, c, deps) => ({
      working: phrase('working.lookingUpConference'),
      later: inTheirLanguage(deps, c, async (locale) => {
        const conference = await deps.conferences.forManagement(c.user, ref, 'delete');
        // The card's own Delete button (with its confirmation dialog) does the deletion.
        await c.respond({
          response_type: 'ephemeral',
          replace_original: true,
          ...buildConferenceDeletePrompt(locale, conference),
        });
      }),
    }),
  },
  digest: digestVerb,
  password: {
    aliases: ['mot-de-passe'],
    usage: ['conference.help.password'],
    run: passwordVerb,
  },
  media: {
    aliases: ['médias', 'medias'],
    usage: ['conference.help.media'],
    run: mediaVerb,
  },
  // The admins' tools last, before the help.
  admin: adminVerb,
  help: {
    aliases: ['aide'],
    usage: ['conference.help.help'],
    run: (_, c) => ({ say: c.usage() }),
  },
  /** A verb whose words it cannot read (`/conference show` without a conference): why, then the help. */
  usage: { usage: [], run: ({ problem }, c) => ({ say: c.usage(usageProblem(c.locale, problem)) }) },
};

/**
 * Every word of `/conference`'s verbs, English and French, from the table: `parseConferenceCommand`
 * reads any other first word as the conference's own text.
 */
export const conferenceWords: ConferenceWords = verbWords(conferenceVerbs, ['create', 'usage']);

/** `/conference`: its verbs behind one listener (`conferenceVerbs`); the help is built from the same table. */
export const handleConferenceCommand = (deps: ConferenceCommandDeps) =>
  new CommandRoutes<ConferenceCommand, ConferenceCommandDeps>({
    title: 'conference.help.title',
    read: (text) => parseConferenceCommand(text, conferenceWords),
    verbs: conferenceVerbs,
    deps,
    logger: deps.logger,
    waitMs: () => deps.conferences.waitMs(),
    locale: (user) => deps.access.locale(user),
  }).listener;

/** Registers `handleConferenceCommand`. */
export function registerConferenceCommand(app: Listeners, deps: ConferenceCommandDeps): void {
  app.command(ids.commands.conference, handleConferenceCommand(deps));
}
