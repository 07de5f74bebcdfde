import type { ServerResponse } from 'node:http';

/*
 * The install flow's pages, styled once: "Add to Slack", installed, failed, refused. Every value
 * from outside (a workspace's name, a code) is escaped.
 */

/** Why an installation Slack completed is not kept. */
export type RefusalReason = 'org' | 'team-id' | 'not-allowed';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the install flow, styled once. */
const htmlPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}` +
  `a.add{display:inline-block;background:#4a154b;color:#fff;padding:.6rem 1.2rem;border-radius:.4rem;text-decoration:none;font-weight:600}</style>` +
  `</head><body>${body}</body></html>`;

/** Answers with a page of the install flow. */
export function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(htmlPage('confdesk', body));
}

/** The "Add to Slack" page (`GET /slack/install`). */
export const addToSlackPage = (url: string): string =>
  htmlPage(
    'Add confdesk to Slack',
    `<h1>confdesk</h1><p>Video conferences and remote-assistance tickets of your video platform, from Slack.</p>` +
      `<p><a class="add" href="${escapeHtml(url)}">Add to Slack</a></p>` +
      `<p>After installing, a workspace admin opens confdesk's Home tab and gives it your video platform's address and an admin account.</p>`,
  );

/** After a kept installation: what the workspace's admin does next. */
export const installedPage = (teamName: string) =>
  `<h1>confdesk is installed in ${escapeHtml(teamName)}</h1><p>Open Slack. A workspace admin then opens confdesk's <b>Home</b> tab (or types <code>/conference admin settings</code>) and gives it your video platform's address and an admin account's credentials.</p>`;

/** What a failed redirect says to the person, by `@slack/oauth`'s code (else Slack's answer is shown). */
const failedReasons: Readonly<Record<string, string>> = {
  slack_oauth_invalid_state:
    'This install link was used already, has expired, or was opened in another browser than the one that started it.',
  slack_oauth_missing_state: 'The way back from Slack came without its install link’s state.',
  slack_oauth_missing_code: 'The way back from Slack came without its code.',
  slack_oauth_installer_authorization_error: 'The installation was cancelled in Slack.',
};

/** A failed redirect, by `@slack/oauth`'s code or Slack's answer. */
export const failedPage = (code: string) =>
  `<h1>confdesk was not installed</h1><p>${escapeHtml((Object.hasOwn(failedReasons, code) && failedReasons[code]) || 'Slack did not complete it.')} (<code>${escapeHtml(code)}</code>)</p>` +
  `<p><a class="add" href="/slack/install">Start again</a></p>`;

/** An installation Slack completed but confdesk did not keep (it removed itself again). */
export function refusedPage(reason: RefusalReason, teamName: string, team: string | undefined): string {
  const name = escapeHtml(teamName);
  const after = '<p>Nothing was kept, and confdesk was removed from the workspace again.</p>';
  if (reason === 'not-allowed')
    return (
      `<h1>confdesk is not enabled for ${name}</h1>` +
      `<p>This confdesk installs only in the workspaces its provider enabled. Ask them to enable it for this workspace (its id: <code>${escapeHtml(team ?? '')}</code>), then add it again.</p>${after}`
    );
  if (reason === 'org')
    return `<h1>confdesk was not installed</h1><p>Org-wide installs are not supported: install confdesk in each workspace of the organization.</p>${after}`;
  return `<h1>confdesk was not installed</h1><p>Slack named the workspace with an id confdesk does not recognise (<code>${escapeHtml(team ?? '')}</code>).</p>${after}`;
}
