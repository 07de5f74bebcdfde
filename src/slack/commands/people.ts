import type { WebClient } from '@slack/web-api';
import { md } from '../../blocks/mrkdwn.js';
import { buildPeopleOutcomeMessage } from '../../blocks/people.js';
import { buildUsage } from '../../blocks/usage.js';
import type { Logger } from '../../observability/logger.js';
import { ConfdeskError } from '../../services/errors.js';
import type { PeopleService } from '../../services/people.js';
import { openGroupsBrowser, openPeopleBrowser } from '../openers/people-browsers.js';
import type { Responder } from '../replies/reply-error.js';

/*
 * `/conference admin people [search]`, `/conference admin groups` and `/conference password [login]`
 * (issue 22), called by the `/conference` handler after its ack.
 */

/** The admin words this file answers: `people` and `groups`. */
export const peopleAdminWords = /^(people|groups)\b/i;

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
  const flow = { people, waitMs: deps.waitMs ?? (() => 0) };
  const [word = '', ...rest] = args.trim().split(/\s+/);
  if (word.toLowerCase() === 'groups') return openGroupsBrowser(flow, o);
  return openPeopleBrowser(flow, { ...o, search: rest.join(' ').slice(0, 500) });
}

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

/** The help line for `/conference admin` words that are not known. */
export const adminUsage = () =>
  buildUsage(
    'conference',
    md`\`/conference admin\` knows: \`doctor\`, \`people [search]\`, \`groups\`, \`link @person <account>\`, \`unlink @person\`.`,
  );
