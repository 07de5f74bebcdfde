import { type TextMessage, textMessage } from './kit.js';
import { channelLink, md } from './mrkdwn.js';

/**
 * A private notice the background jobs send a person once: to a channel's subscribers when delivery
 * sets a message aside or the channel stops taking them, to a digest's owner when the digest cannot
 * be posted or is paused. `reason`: Slack's error code, shown as code. The jobs hand it to the
 * publisher (`outbound/`), which renders it here: jobs/ never import blocks/.
 */
export type JobNotice =
  | {
      kind: 'set-aside';
      channel: string;
      what: 'card' | 'broadcast' | 'event';
      reason: string;
      /** Who can fix it: a setting of the channel or workspace, or the confdesk operator. */
      fix: 'channel' | 'operator';
    }
  | { kind: 'parked'; channel: string; reason: string }
  | { kind: 'digest-refused'; channel: string; reason: string }
  | { kind: 'digest-paused'; channel: string };

const whats = { card: 'a ticket card', broadcast: 'a ticket state change', event: 'a ticket event' } as const;

/** The sentence of a job's notice (a direct message to the person). */
export function buildJobNotice(n: JobNotice): TextMessage {
  const where = channelLink(n.channel);
  switch (n.kind) {
    case 'set-aside': {
      const help =
        n.fix === 'channel'
          ? md`A channel or workspace setting stops me posting there: a workspace admin can allow apps to post in ${where}, or remove the subscription with \`/ticket subscriptions\` there.`
          : md`Nothing to do in the channel: ask your confdesk operator to look at the set-aside messages (\`npm run outbox -- dead\`) and report them.`;
      return textMessage(
        md`Slack refused ${whats[n.what]} I was posting in ${where} and would refuse it again (Slack says \`${n.reason}\`): I set it aside and went on with the channel's next messages. ${help} (I tell you this once for this channel and reason.)`,
      );
    }
    case 'parked':
      return textMessage(
        md`I can no longer post ticket events in ${where} (Slack says \`${n.reason}\`: I was removed or the channel was archived). I keep them: invite me back with \`/invite @confdesk\` and they will follow; to stop, remove the subscription with \`/ticket subscriptions\` there.`,
      );
    case 'digest-refused':
      return textMessage(
        md`I cannot post the daily digest in ${where} (Slack says \`${n.reason}\`). Invite me there with \`/invite @confdesk\`, or remove the digest with \`/conference digest off\` in that channel.`,
      );
    case 'digest-paused':
      return textMessage(
        md`The daily digest you set up in ${where} is paused: the enterprise's statistics are for video platform admins, and your account is not one. An admin can set it up again with \`/conference digest\`, or remove it with \`/conference digest off\` there.`,
      );
  }
}
