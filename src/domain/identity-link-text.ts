/*
 * `/conference admin link @person <platform e-mail | login | user id>` and
 * `/conference admin unlink @person`: which platform account a Slack person acts as, for
 * those whose Slack and platform e-mails differ. Slack escapes the command's text (manifest
 * `should_escape`): the person arrives as `<@U123|name>`, an e-mail as `<mailto:a@b.c|a@b.c>`.
 */

/** What is wrong with a link command: a catalog message (in the admin's language where it is shown). */
export type LinkProblem =
  | 'people.link.usageLink'
  | 'people.link.usageUnlink'
  | 'people.link.mentionLink'
  | 'people.link.mentionUnlink';

/** What a link command asks, or what is wrong with it. */
export type LinkCommand =
  | { kind: 'link'; slackUserId: string; account: string }
  | { kind: 'unlink'; slackUserId: string }
  | { kind: 'bad'; problem: LinkProblem };

const mention = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;
const mailto = /^<mailto:([^|>]+)(?:\|[^>]*)?>$/;

/** The link command in `/conference admin …`'s arguments; undefined when they are not one. */
export function parseLinkCommand(args: string): LinkCommand | undefined {
  const [verb, who, account, ...rest] = args.trim().split(/\s+/);
  const kind = verb?.toLowerCase();
  if (kind !== 'link' && kind !== 'unlink') return undefined;
  const usage = kind === 'link' ? 'people.link.usageLink' : 'people.link.usageUnlink';
  const slackUserId = who?.match(mention)?.[1];
  if (!slackUserId)
    return {
      kind: 'bad',
      problem: kind === 'link' ? 'people.link.mentionLink' : 'people.link.mentionUnlink',
    };
  if (kind === 'unlink')
    return rest.length || account ? { kind: 'bad', problem: usage } : { kind, slackUserId };
  if (!account || rest.length) return { kind: 'bad', problem: usage };
  return { kind, slackUserId, account: account.match(mailto)?.[1] ?? account };
}
