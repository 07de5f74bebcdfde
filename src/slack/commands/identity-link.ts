import { type Mrkdwn, mention } from '../../blocks/mrkdwn.js';
import { t } from '../../blocks/text.js';
import type { LinkCommand } from '../../domain/identity-link-text.js';
import type { Locale } from '../../i18n/locale.js';
import type { LinkDeps } from '../deps.js';

/**
 * `/conference admin link|unlink`, after the ack: the service checks the admin's right
 * (`identity.link`) before anything is read or stored; answers the sentence to tell them, in their
 * language (`locale`).
 */
export async function handleLinkCommand(
  deps: LinkDeps,
  cmd: Exclude<LinkCommand, { kind: 'bad' }>,
  who: { user: string; team: string; locale: Locale },
): Promise<Mrkdwn> {
  const person = mention(cmd.slackUserId);
  if (cmd.kind === 'unlink') {
    const removed = await deps.links.unlink(who.user, who.team, cmd.slackUserId);
    return t(who.locale, removed ? 'people.link.unlinked' : 'people.link.notLinked', { person });
  }
  const { label } = await deps.links.link(who.user, who.team, cmd.slackUserId, cmd.account);
  return t(who.locale, 'people.link.linked', { person, label });
}
