import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import { mimeTypeOf, type SlackDouble } from '../dev/slack-double.js';
import type { Logger } from '../observability/logger.js';
import type { PageBundle } from './bundle.js';
import { demoChannels } from './people.js';
import type { PlatformSide } from './platform-side.js';
import type { SlackSide } from './slack-side.js';
import { buildState, present } from './state.js';
import type { Shortcut } from './web/contract.js';

/** A version counter with listeners: what the page's `/api/stream` follows. */
export class ChangeFeed {
  version = 0;
  private readonly listeners = new Set<(version: number) => void>();

  bump(): void {
    this.version++;
    for (const l of this.listeners) l(this.version);
  }

  subscribe(listener: (version: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export interface PageServerOptions {
  /** 0: any free port. Bound to 127.0.0.1 only. */
  port: number;
  slack: SlackDouble;
  side: SlackSide;
  /** The platform controls; undefined when the platform is not the built-in simulator. */
  platform: PlatformSide | undefined;
  /** manifest.yml's shortcuts, which the page lists, and its slash commands, which the composer sends. */
  shortcuts: Shortcut[];
  commands: string[];
  bundle: PageBundle;
  feed: ChangeFeed;
  logger: Logger;
}

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

const user = z.string().regex(/^[UW][A-Z0-9]+$/, 'expected a Slack user id');
const json = z.record(z.string(), z.unknown());
/** Where a clicked or typed-in element is: a message, an ephemeral reply, a modal, App Home. */
const container = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), channel: z.string(), ts: z.string() }),
  z.object({ type: z.literal('ephemeral'), id: z.string() }),
  z.object({ type: z.literal('unfurl'), channel: z.string(), ts: z.string(), url: z.string() }),
  z.object({ type: z.literal('view'), viewId: z.string() }),
  z.object({ type: z.literal('home') }),
]);

const bodies = {
  message: z.object({
    as: user,
    channel: z.string(),
    text: z.string().min(1),
    thread_ts: z.string().optional(),
  }),
  action: z.object({
    as: user,
    container,
    action: z.looseObject({ action_id: z.string(), type: z.string() }),
    values: json.optional(),
  }),
  submit: z.object({ as: user, viewId: z.string(), values: json }),
  // What a person typed into a type-ahead menu.
  suggest: z.object({
    as: user,
    container,
    block_id: z.string(),
    action_id: z.string(),
    value: z.string().max(200),
  }),
  close: z.object({ as: user, viewId: z.string() }),
  shortcut: z.object({
    as: user,
    callback_id: z.string(),
    channel: z.string().optional(),
    ts: z.string().optional(),
  }),
  home: z.object({ as: user }),
  language: z.object({ as: user, locale: z.enum(['en-US', 'fr-FR']) }),
  react: z.object({
    as: user,
    channel: z.string(),
    ts: z.string(),
    name: z.string().regex(/^[a-z0-9_+'-]{1,100}$/),
  }),
  step: z.object({ as: user, callback_id: z.string(), inputs: json }),
  platform: z.object({
    op: z.enum(['state', 'event', 'media', 'guest-join', 'session-end', 'webhooks']),
    ticketId: z.number().int().optional(),
    state: z.string().optional(),
    name: z.string().optional(),
    on: z.boolean().optional(),
  }),
};

/**
 * The page server: the page (`/`, `/app.js`, `/app.css`), uploaded files, the JSON API the page
 * drives Slack's side and the platform's with, and `/api/stream` (Server-Sent Events, one `change`
 * per version). Loopback only; requests naming another host (DNS rebinding) or posting anything but
 * JSON (a form from another site) are refused.
 */
export async function startPageServer(o: PageServerOptions): Promise<PageServer> {
  const sockets = new Set<Socket>();
  /** Each open event stream, with the version it was last sent. */
  const streams = new Map<ServerResponse, number>();
  let port = 0;

  const send = (res: ServerResponse, status: number, body: unknown) =>
    res
      .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .end(JSON.stringify(body));

  const stateFor = async (as: string) =>
    buildState({
      as,
      version: o.feed.version,
      slack: o.slack,
      shortcuts: o.shortcuts,
      platform: o.platform ? await o.platform.controls() : null,
      notice: o.side.notice,
    });

  const api: Record<string, (body: unknown) => Promise<unknown>> = {
    '/api/message': async (raw) => {
      const b = bodies.message.parse(raw);
      known(b.as);
      if (!demoChannels.some((c) => c.id === b.channel))
        return { ok: false, error: `No channel ${b.channel}.` };
      const text = b.text.trim();
      const word = /^\/\S*/.exec(text)?.[0];
      if (word === undefined) return o.side.message(b.as, b.channel, b.text, b.thread_ts);
      if (!o.commands.includes(word))
        return { ok: false, error: `${word} is not a command here: try ${o.commands.join(' or ')}` };
      return o.side.command(b.as, b.channel, word, text.slice(word.length).trim());
    },
    '/api/action': async (raw) => {
      const b = bodies.action.parse(raw);
      known(b.as);
      return o.side.action(b.as, b.container, b.action, b.values);
    },
    '/api/suggest': async (raw) => {
      const b = bodies.suggest.parse(raw);
      known(b.as);
      return o.side.suggest(b.as, b.container, b.block_id, b.action_id, b.value);
    },
    '/api/submit': async (raw) => {
      const b = bodies.submit.parse(raw);
      known(b.as);
      return o.side.submit(b.as, b.viewId, b.values);
    },
    '/api/close': async (raw) => {
      const b = bodies.close.parse(raw);
      known(b.as);
      return o.side.close(b.as, b.viewId);
    },
    '/api/shortcut': async (raw) => {
      const b = bodies.shortcut.parse(raw);
      known(b.as);
      return o.side.shortcut(b.as, b.callback_id, b.channel, b.ts);
    },
    '/api/react': async (raw) => {
      const b = bodies.react.parse(raw);
      known(b.as);
      return o.side.react(b.as, b.channel, b.ts, b.name);
    },
    '/api/step': async (raw) => {
      const b = bodies.step.parse(raw);
      known(b.as);
      return o.side.step(b.as, b.callback_id, b.inputs);
    },
    '/api/home': async (raw) => {
      const b = bodies.home.parse(raw);
      known(b.as);
      return o.side.homeOpened(b.as);
    },
    '/api/language': async (raw) => {
      const b = bodies.language.parse(raw);
      known(b.as);
      return o.side.changeLocale(b.as, b.locale);
    },
    '/api/platform': async (raw) => {
      const b = bodies.platform.parse(raw);
      if (!o.platform)
        return { ok: false, error: 'The platform is not the built-in simulator (PLATFORM_URL is set).' };
      try {
        await o.platform.apply(present(b));
        return { ok: true };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      } finally {
        o.feed.bump();
      }
    },
  };

  /** Only the demo people (and other users of the double) act. */
  const known = (as: string) => {
    if (!o.slack.users.has(as)) throw new BadRequest(`No person ${as} in this workspace.`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://playground');
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return send(res, 403, { ok: false, error: 'The playground answers on 127.0.0.1 only.' });
    if (req.method === 'GET') return get(url, req, res);
    const route = api[url.pathname];
    if (req.method !== 'POST' || !route) return send(res, 404, { ok: false, error: 'Not found.' });
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      return send(res, 415, { ok: false, error: 'Send JSON (content-type: application/json).' });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return send(res, 400, { ok: false, error: 'The body is not JSON.' });
    }
    try {
      send(res, 200, await route(body));
    } catch (error) {
      if (error instanceof z.ZodError)
        return send(res, 400, {
          ok: false,
          error: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
      if (error instanceof BadRequest) return send(res, 400, { ok: false, error: error.message });
      throw error;
    }
  };

  const get = async (url: URL, req: IncomingMessage, res: ServerResponse) => {
    const b = o.bundle;
    switch (url.pathname) {
      case '/':
        if (!b.ok) return res.writeHead(500, html).end(errorPage(b.problem));
        return res.writeHead(200, html).end(shell);
      case '/app.js':
      case '/app.css': {
        if (!b.ok) return send(res, 500, { ok: false, error: b.problem });
        const js = url.pathname === '/app.js';
        return res
          .writeHead(200, {
            'content-type': js ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
            'cache-control': 'no-store',
          })
          .end(js ? b.js : b.css);
      }
      case '/api/state': {
        const as = url.searchParams.get('as') ?? '';
        if (!o.slack.users.has(as))
          return send(res, 400, { ok: false, error: `No person ${as} in this workspace.` });
        return send(res, 200, await stateFor(as));
      }
      case '/api/stream':
        return stream(req, res);
    }
    const file = /^\/files\/([^/]+)$/.exec(url.pathname);
    const upload = file ? o.slack.uploads.get(decodeURIComponent(file[1] as string)) : undefined;
    if (upload?.bytes)
      return res
        .writeHead(200, {
          'content-type': mimeTypeOf(upload.filename),
          'content-length': upload.bytes.length,
        })
        .end(upload.bytes);
    send(res, 404, { ok: false, error: 'Not found.' });
  };

  const stream = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`event: change\ndata: ${JSON.stringify({ version: o.feed.version })}\n\n`);
    streams.set(res, o.feed.version);
    req.on('close', () => streams.delete(res));
  };

  // A burst of changes (a card posted, then updated, then its thread) is one event a few ms later.
  let pending: NodeJS.Timeout | undefined;
  const unsubscribe = o.feed.subscribe(() => {
    pending ??= setTimeout(() => {
      pending = undefined;
      const version = o.feed.version;
      // A stream opened since the change was sent that version already.
      for (const [res, sent] of streams)
        if (version > sent) {
          streams.set(res, version);
          res.write(`event: change\ndata: ${JSON.stringify({ version })}\n\n`);
        }
    }, 25);
  });
  // Keeps idle streams open through proxies and lets the page notice a dead server.
  const keepAlive = setInterval(() => {
    for (const res of streams.keys()) res.write(': keep-alive\n\n');
  }, 15_000);
  keepAlive.unref();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      o.logger.error({ err: error, path: req.url }, 'playground request failed');
      if (!res.headersSent) send(res, 500, { ok: false, error: error.message });
      else res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      unsubscribe();
      clearTimeout(pending);
      clearInterval(keepAlive);
      for (const res of streams.keys()) res.end();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

class BadRequest extends Error {}

const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

const shell = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>confdesk playground</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<div id="app"></div>
<script type="module" src="/app.js"></script>
</body>
</html>
`;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** What `/` shows when the page could not be built: the bot and its local Slack run anyway. */
function errorPage(problem: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>confdesk playground: the page could not be built</title></head>
<body>
<h1>The playground's page could not be built</h1>
<p>confdesk and its local Slack are running, but esbuild could not bundle the page from
<code>src/playground/web/main.tsx</code> and <code>src/playground/web/styles.css</code>:</p>
<pre>${escapeHtml(problem)}</pre>
<p>Fix the sources and restart (<code>npm run playground</code>).</p>
</body>
</html>
`;
}
