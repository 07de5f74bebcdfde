import type { HomeView } from '@slack/types';
import { ids } from './ids.js';
import { actions, button, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { joinMd, type Mrkdwn, md } from './mrkdwn.js';

/** What the person may do, as the policy says: the Home tab offers only that. */
export interface HomeRights {
  /** A platform account: conferences and tickets. Without one, help only. */
  account: boolean;
  /** A platform admin: the statistics digest too. */
  admin: boolean;
  /** Why there is no account (the sentence saying how to get one). */
  noAccount?: Mrkdwn | undefined;
}

/**
 * The App Home tab: what confdesk does, what the person may do with it (New conference for those
 * with a platform account, the digest for admins), and, without an account, how to get one.
 */
export function buildHome(rights: HomeRights = { account: false, admin: false }): HomeView {
  const commands = [
    md`*Commands*`,
    md`• \`/conference\` plans a conference: \`/conference alice@example.com @bob tomorrow 3pm 45m "Weekly sync"\``,
    md`• \`/conference list\`, \`/conference show <id>\`, \`/conference delete <id>\`, \`/conference help\``,
    md`• \`/ticket\` opens a remote-assistance ticket; \`/ticket list\`, \`/ticket show <id>\`, \`/ticket help\``,
    ...(rights.admin ? [md`• \`/conference digest at 9:00\` sends the daily statistics to a channel`] : []),
  ];
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: plain('confdesk', limits.headerText) },
      section(md`Plan video conferences and follow remote-assistance tickets without leaving Slack.`),
      ...(rights.account
        ? [
            actions([button('New conference', ids.actions.conferenceNew, { style: 'primary' })]),
            section(joinMd(commands, md`\n`)),
          ]
        : [section(rights.noAccount ?? md`confdesk needs your video platform account to act for you.`)]),
      context(md`Times are read in your Slack time zone and shown in each viewer’s own.`),
    ],
  };
}
