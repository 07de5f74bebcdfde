/*
 * The Slack double as its own process, for bench/workspaces.ts: Slack's OAuth (a code per "Allow",
 * exchanged by `oauth.v2.access` for a bot token of that workspace), its Web API, and a second small
 * server (the "control") for the bench:
 *
 *   POST /grant    {teamId, teamName, user, email} → {code}: the workspace's admin (a Slack admin with
 *                  that e-mail) clicks Allow on the authorize page
 *   POST /trigger  {trigger, user}: a trigger_id of that person's gesture (a modal opens for them)
 *   GET  /modal?user=   the top modal `user` has open: {id, callbackId, text} (its blocks as JSON)
 *   GET  /view?id=      a view's blocks as JSON text (the settings modal says "Saved" in it)
 *   GET  /posts?from=   every chat.postMessage answered ok, in order: channel, metadata, text, time
 *
 * It prints one line `WORKSPACES_SLACK {"api":…,"url":…,"control":…}` once both listen, and stops on
 * SIGTERM/SIGINT.
 */

import { createServer, type IncomingMessage } from 'node:http';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { serveControl } from '../realtime/control.js';

const clientId = process.env.WORKSPACES_CLIENT_ID ?? '111.222';
const clientSecret = process.env.WORKSPACES_CLIENT_SECRET ?? 'bench-client-secret';

const slack = await new SlackDouble().start();
slack.oauthApp = { clientId, clientSecret };

interface Post {
  channel: unknown;
  metadata: unknown;
  text: string | undefined;
  at: number;
}
const posts: Post[] = [];
// Each post the double answered, as the bench reads them.
slack.onAnswer = (method, a, r) => {
  if (method === 'chat.postMessage' && r.ok === true)
    posts.push({
      channel: a.channel,
      metadata: a.metadata,
      text: typeof a.text === 'string' ? a.text.slice(0, 160) : undefined,
      at: Date.now(),
    });
};
// The bench makes thousands of calls: the double's own record of each is not read here.
const calls = slack.calls;
const callsPush = calls.push.bind(calls);
calls.push = (...items) => {
  if (calls.length > 5_000) calls.splice(0, calls.length - 1_000);
  return callsPush(...items);
};

const readJson = async (req: IncomingMessage): Promise<Record<string, string>> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
};

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const send = (body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const fail = (e: Error) => res.writeHead(500).end(e.message);
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /grant':
      readJson(req).then((b) => {
        slack.addUser({ id: b.user as string, email: b.email as string, is_admin: true });
        send({
          code: slack.grantInstall({
            teamId: b.teamId as string,
            teamName: b.teamName as string,
            user: b.user as string,
          }),
        });
      }, fail);
      return;
    case 'POST /trigger':
      readJson(req).then((b) => {
        slack.registerTrigger(b.trigger as string, b.user as string);
        send({});
      }, fail);
      return;
    case 'GET /modal': {
      req.resume();
      const top = slack.modals(url.searchParams.get('user') ?? '').at(-1);
      send(
        top
          ? { id: top.id, callbackId: top.view.callback_id, text: JSON.stringify(top.view.blocks ?? []) }
          : null,
      );
      return;
    }
    case 'GET /view': {
      req.resume();
      const v = slack.views.get(url.searchParams.get('id') ?? '')?.view;
      send({ text: JSON.stringify(v?.blocks ?? []) });
      return;
    }
    case 'GET /posts': {
      req.resume();
      const from = Number(url.searchParams.get('from') ?? 0);
      send({ next: posts.length, posts: posts.slice(from) });
      return;
    }
    default:
      req.resume();
      res.writeHead(404).end();
  }
});
await serveControl(control, 'WORKSPACES_SLACK', { api: slack.apiUrl, url: slack.url }, () => slack.stop());
