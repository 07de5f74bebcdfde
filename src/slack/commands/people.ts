import type { WebClient } from '@slack/web-api';
import { md } from '../../blocks/mrkdwn.js';
import { buildPeopleOutcomeMessage } from '../../blocks/people.js';
import type { Logger } from '../../observability/logger.js';
import { ConfdeskError } from '../../services/errors.js';
import type { PeopleService } from '../../services/people.js';
import { openGroupsBrowser, openPeopleBrowser } from '../openers/people-browsers.js';
import type { Responder } from '../replies/reply-error.js';
import type { VerbRun } from '../runtime/command-routes.js';

/*
 * `/conference admin people [search]`, `/conference admin groups` and `/conference password [login]`:
 * the `/conference` verb table's handlers for the platform's people.
 */

const notWired = () =>
  new ConfdeskError('not_wired', md`The people tools are not available in this process.`);

/** Opens the People browser (with a first search) or the Groups browser, as the words say. */
export async function handleAdminPeople(
  deps: { people?: PeopleService | undefined; waitMs?: () => number },
  args: string,
  o: { user: string; triggerId: string; client: WebClient; log: Logger; channel: string },
): Promise<void> {
  const people = deps.people;
  if (!people) throw notWired();
  const browsers = { people, waitMs: deps.waitMs ?? (() => 0) };
  const [word = '', ...rest] = args.trim().split(/\s+/);
  if (word.toLowerCase() === 'groups') return openGroupsBrowser(browsers, o);
  return openPeopleBrowser(browsers, { ...o, search: rest.join(' ').slice(0, 500) });
}

/** `/conference admin people|groups`: the browser opens after the ack (the trigger lasts 3 s). */
export const peopleVerb: VerbRun<
  { args: string },
  { people?: PeopleService | undefined; waitMs?: () => number }
> = ({ args }, c, deps) => ({
  later: () =>
    handleAdminPeople(deps, args, {
      user: c.user,
      triggerId: c.triggerId,
      client: c.client,
      log: c.log,
      channel: c.channel,
    }),
});

/** `/conference password [login]`: the reset e-mail, and a private sentence saying where it went. */
export async function handlePasswordCommand(
  deps: { people?: PeopleService | undefined },
  login: string | undefined,
  o: { user: string; respond: Responder },
): Promise<void> {
  if (!deps.people) throw notWired();
  const sent = await deps.people.resetPassword(o.user, login);
  await o.respond({
    response_type: 'ephemeral',
    replace_original: true,
    ...buildPeopleOutcomeMessage({ kind: 'reset', ...sent }),
  });
}

/** `/conference password [login]`, after a "Working…". */
export const passwordVerb: VerbRun<{ login?: string }, { people?: PeopleService | undefined }> = (
  { login },
  c,
  deps,
) => ({
  working: 'Working on the password reset',
  later: () => handlePasswordCommand(deps, login, { user: c.user, respond: c.respond }),
});
