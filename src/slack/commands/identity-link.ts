import { type Mrkdwn, md, mention } from '../../blocks/mrkdwn.js';
import type { LinkCommand } from '../../domain/identity-link-text.js';
import type { LinkDeps } from '../deps.js';

/**
 * `/conference admin link|unlink`, after the ack: the service checks the admin's right
 * (`identity.link`) before anything is read or stored; answers the sentence to tell them.
 */
export async function handleLinkCommand(
  deps: LinkDeps,
  cmd: Exclude<LinkCommand, { kind: 'bad' }>,
  who: { user: string; team: string },
): Promise<Mrkdwn> {
  if (cmd.kind === 'unlink') {
    const removed = await deps.links.unlink(who.user, who.team, cmd.slackUserId);
    return removed
      ? md`${mention(cmd.slackUserId)} is no longer linked: their Slack e-mail finds their platform account again.`
      : md`${mention(cmd.slackUserId)} was not linked: their Slack e-mail finds their platform account.`;
  }
  const { label } = await deps.links.link(who.user, who.team, cmd.slackUserId, cmd.account);
  return md`${mention(cmd.slackUserId)} now acts on the video platform as ${label}, whatever their Slack e-mail.`;
}
