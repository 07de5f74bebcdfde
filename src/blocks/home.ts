import { ids } from '../slack/ids.js';
import { type Block, button, context, plain, section } from './kit.js';
import { limits } from './limits.js';
import { md } from './mrkdwn.js';

/** The App Home tab: what confdesk does and a button to plan a conference. */
export function buildHome(): Block {
  return {
    type: 'home',
    blocks: [
      { type: 'header', text: plain('confdesk', limits.headerText) },
      section(md`Plan video conferences and follow remote-assistance tickets without leaving Slack.`),
      {
        type: 'actions',
        elements: [button('New conference', ids.actions.conferenceNew, { style: 'primary' })],
      },
      section(
        md`*Commands*
• \`/conference\` plans a conference: \`/conference alice@example.com @bob tomorrow 3pm 45m "Weekly sync"\`
• \`/conference list\`, \`/conference show <id>\`, \`/conference delete <id>\`, \`/conference help\``,
      ),
      context(md`Times are read in your Slack time zone and shown in each viewer’s own.`),
    ],
  };
}
