import type { WebClient } from '@slack/web-api';
import { buildPeopleOutcomeMessage } from '../../blocks/people.js';
import { phrase } from '../../blocks/text.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { ConfdeskError } from '../../services/errors.js';
import type { PeopleService } from '../../services/people.js';
import { openGroupsBrowser, openPeopleBrowser } from '../openers/people-browsers.js';
import { type Responder, replyError } from '../replies/reply-error.js';
import type { VerbRun } from '../runtime/command-routes.js';
import { personLocale } from '../runtime/person-locale.js';

/*
 * `/conference admin people [search]`, `/conference admin groups` and `/conference password [login]`:
 * the `/conference` verb table's handlers for the platform's people, in the language of the person
 * who typed them (their Slack locale, asked after the ack).
 */

/** What these verbs need: the people service, the rate budget's wait, and each person's language. */
interface PeopleCommandDeps {
  people?: PeopleService | undefined;
  waitMs?: () => number;
  /** The person's language (their cached Slack profile's); unset, English. */
  access?: { locale: (user: string) => Promise<Locale> } | undefined;
}

const notWired = () => new ConfdeskError('not_wired', phrase('people.error.notWired'));

/** The language of the person who typed the command. */
const localeOf = (deps: PeopleCommandDeps, user: string): Promise<Locale> =>
  personLocale(
    deps.access ? (u) => (deps.access as NonNullable<typeof deps.access>).locale(u) : undefined,
    user,
  );

/** Opens the People browser (with a first search) or the Groups browser, as the words say. */
export async function handleAdminPeople(
  deps: PeopleCommandDeps,
  args: string,
  o: { user: string; triggerId: string; client: WebClient; log: Logger; channel: string; locale: Locale },
): Promise<void> {
  const people = deps.people;
  if (!people) throw notWired();
  const browsers = { people, waitMs: deps.waitMs ?? (() => 0) };
  const [word = '', ...rest] = args.trim().split(/\s+/);
  if (word.toLowerCase() === 'groups') return openGroupsBrowser(browsers, o);
  return openPeopleBrowser(browsers, { ...o, search: rest.join(' ').slice(0, 500) });
}

/** `/conference admin people|groups`: the browser opens after the ack (the trigger lasts 3 s). */
export const peopleVerb: VerbRun<{ args: string }, PeopleCommandDeps> = ({ args }, c, deps) => ({
  later: async () => {
    const locale = await localeOf(deps, c.user);
    try {
      await handleAdminPeople(deps, args, {
        user: c.user,
        triggerId: c.triggerId,
        client: c.client,
        log: c.log,
        channel: c.channel,
        locale,
      });
    } catch (error) {
      await replyError(
        { kind: 'command', respond: c.respond, log: c.log, channel: c.channel, locale },
        error,
      );
    }
  },
});

/** `/conference password [login]`: the reset e-mail, and a private sentence saying where it went. */
export async function handlePasswordCommand(
  deps: { people?: PeopleService | undefined },
  login: string | undefined,
  o: { user: string; respond: Responder; locale: Locale },
): Promise<void> {
  if (!deps.people) throw notWired();
  const sent = await deps.people.resetPassword(o.user, login);
  await o.respond({
    response_type: 'ephemeral',
    replace_original: true,
    ...buildPeopleOutcomeMessage(o.locale, { kind: 'reset', ...sent }),
  });
}

/** `/conference password [login]`, after a "Working…"; its failure told in the person's language. */
export const passwordVerb: VerbRun<{ login?: string }, PeopleCommandDeps> = ({ login }, c, deps) => ({
  working: phrase('working.passwordReset'),
  later: async () => {
    const locale = await localeOf(deps, c.user);
    try {
      await handlePasswordCommand(deps, login, { user: c.user, respond: c.respond, locale });
    } catch (error) {
      await replyError(
        { kind: 'command', respond: c.respond, log: c.log, channel: c.channel, locale },
        error,
      );
    }
  },
});
