import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { checkBlockKit, type Surface } from '../blocks/limits.js';
import { readManifest } from '../doctor/manifest.js';
import type { SocketModeDouble } from './socket-mode-double.js';

/** One Web API call the double received, with its arguments decoded (JSON fields parsed). */
export interface SlackCall {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
}

/** A message as the double keeps it, per channel. */
export interface SlackMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  thread_ts: string | undefined;
  metadata: unknown;
  user: string | undefined;
  /** Set once `chat.update` changed it (Slack shows "(edited)"). */
  edited?: boolean;
  /** The files of a `files.completeUploadExternal` post, as Slack shows them under the message. */
  files?: SlackFile[];
}

/** A file attached to a message. */
export interface SlackFile {
  id: string;
  name: string;
  title?: string;
  size: number;
  mimetype: string;
}

/**
 * A message only one person sees ("Only visible to you"): from `chat.postEphemeral`, or an answer to
 * a response_url that was not posted `in_channel`.
 */
export interface SlackEphemeral {
  id: string;
  user: string;
  channel: string;
  ts: string;
  thread_ts: string | undefined;
  text: string | undefined;
  blocks: unknown[] | undefined;
}

/** One modal of a person's stack, with the inline errors a submission's `response_action: errors` set. */
export interface SlackModal {
  id: string;
  view: Record<string, unknown>;
  errors?: Record<string, string>;
}

/**
 * What a response_url answers to: a message (replace/delete_original act on it), and, when known,
 * the person who made the request, so its other answers reach that person as Slack does.
 */
interface ResponseTarget {
  channel: string;
  ts?: string | undefined;
  user?: string | undefined;
  thread_ts?: string | undefined;
  /** The ephemeral the request came from (a click on it), or a command's latest private answer. */
  ephemeral?: string | undefined;
  /** A slash command's: its latest private answer is the "original" later answers act on. */
  command?: boolean | undefined;
}

export interface SlackUserRecord {
  id: string;
  name: string;
  real_name: string;
  tz: string;
  tz_offset?: number;
  profile: { email?: string; display_name?: string; real_name?: string };
  is_bot?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  deleted?: boolean;
}

/** A scripted answer for the next call(s) of a method: an HTTP 429, `{ok:false,error}`, an HTTP error, or a lost answer. */
export type SlackFault =
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'error'; error: string }
  | { kind: 'http'; status: number }
  /** The call takes effect, then the answer is lost (HTTP 500): the caller cannot know it worked. */
  | { kind: 'lost_response' };

/**
 * What the next POST to an upload URL meets: an answer with this status once the body is in, the
 * connection reset (TCP RST) after `afterBytes`, or a stall: nothing more read, no answer, ever.
 */
export type UploadFault =
  | { kind: 'status'; status: number }
  | { kind: 'reset'; afterBytes: number }
  | { kind: 'stall'; afterBytes: number };

/**
 * A local Slack double: a real loopback HTTP server implementing the Web API methods confdesk uses,
 * recording every call, and able to answer 429 with `Retry-After` or `{ok:false,error}` on demand.
 * Point the bot's WebClient at `apiUrl` (`SLACK_API_URL`). It also serves `response_url`s.
 */
export class SlackDouble {
  readonly calls: SlackCall[] = [];
  readonly messages: SlackMessage[] = [];
  readonly responses: { path: string; body: Record<string, unknown> }[] = [];
  readonly users = new Map<string, SlackUserRecord>();
  /** Channel names by id (conversations.info); an unnamed channel is called after its id. */
  readonly channelNames = new Map<string, string>();
  /** Channels the bot is not in: posting there answers `not_in_channel`. */
  readonly notInChannel = new Set<string>();
  readonly views = new Map<string, { id: string; view: Record<string, unknown> }>();
  /**
   * Files posted to upload URLs: `size` counts every byte received (the file's, or the whole body when
   * a multipart one is past `keepUploadBytes`); `bytes` holds them up to `keepUploadBytes`.
   */
  readonly uploads = new Map<
    string,
    { filename: string; bytes: Buffer | undefined; size?: number | undefined }
  >();
  /** Uploads up to this size are kept whole (`uploads[].bytes`); bigger ones are only counted. */
  keepUploadBytes = 16 * 1024 * 1024;
  /** Faults for the next POSTs to upload URLs, in order; a faulted upload stays not uploaded. */
  readonly uploadFaults: UploadFault[] = [];
  /**
   * Block Kit payloads that broke Slack's limits (the double answered them `invalid_blocks`, as Slack
   * does), and texts with a live token the bot did not write (`<!channel>`, an outside link): Slack
   * would post those, so the double posts them too, and the violation fails the test.
   */
  readonly violations: { method: string; problems: string[] }[] = [];
  /** response_urls tied to a channel message, so replace_original/delete_original act on it. */
  private readonly responseTargets = new Map<string, ResponseTarget>();
  /** Private messages, each for one person. */
  readonly ephemerals: SlackEphemeral[] = [];
  /** Each person's open modals, bottom first: view ids into `views`. */
  readonly modalStacks = new Map<string, string[]>();
  /** Inline errors shown under a modal's inputs, by view id. */
  readonly viewErrors = new Map<string, Record<string, string>>();
  /** Each person's App Home as last published (`views.publish`). */
  readonly homes = new Map<string, Record<string, unknown>>();
  /** Who each trigger_id belongs to: `views.open`/`push` put the modal in that person's stack. */
  private readonly triggers = new Map<string, string>();
  /** Bumped on every change of what a person would see (messages, ephemerals, views, homes). */
  version = 0;
  private readonly listeners = new Set<(version: number) => void>();
  /**
   * The bot token's scopes, sent in `x-oauth-scopes` with every Web API answer as Slack does: those
   * of manifest.yml (the app as installed from it) unless a test narrows them.
   */
  grantedScopes: string[] = readManifest().botScopes;
  botUserId = 'UBOT000001';
  teamId = 'T0000DBL';
  /**
   * Distribution mode (issue 23): the app's OAuth credentials, the codes "Add to Slack" handed out,
   * and the workspaces installed through `oauth.v2.access`, by their bot token.
   */
  oauthApp: { clientId: string; clientSecret: string } | undefined;
  private readonly oauthCodes = new Map<string, { teamId: string; teamName: string; user: string }>();
  readonly installed = new Map<string, { teamId: string; teamName: string; botUserId: string }>();
  /** Tokens Slack no longer takes (uninstalled, revoked): every call with one answers `token_revoked`. */
  readonly revokedTokens = new Set<string>();
  private readonly faults = new Map<string, SlackFault[]>();
  /**
   * Picks the calls Slack refuses whatever their turn: answered `{ok:false,error}` with the code it
   * returns, nothing done (one message refused for good in the middle of a stream).
   */
  refuse: ((method: string, args: Record<string, unknown>) => string | undefined) | undefined;
  /** Milliseconds a method's answer takes after its effect (a slow network): a crash can fall in between. */
  readonly latency = new Map<string, number>();
  /**
   * Slack's per-channel limit for chat.postMessage, when set: a post sooner than this after the
   * channel's previous one is answered 429 with `Retry-After: 1`, nothing posted.
   */
  channelPaceMs = 0;
  private readonly lastPostAt = new Map<string, number>();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private seq = 0;
  url = '';
  /** Slack's Socket Mode side, once `enableSocketMode` turned it on. */
  socket: SocketModeDouble | undefined;

  /** The Web API base URL, with the trailing slash WebClient expects. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** A loopback response_url the double records posts to. */
  responseUrl(id = randomBytes(4).toString('hex')): string {
    return `${this.url}/response/${id}`;
  }

  /** A response_url as Slack sends with a click on a message: replace/delete_original act on that message. */
  responseUrlFor(channel: string, ts: string): string {
    const id = randomBytes(4).toString('hex');
    this.responseTargets.set(id, { channel, ts });
    return this.responseUrl(id);
  }

  /**
   * A response_url for a request made by `user` (a command, a click, a message shortcut): answers
   * reach that person privately unless posted `in_channel`; replace/delete_original act on the
   * message `ts`, or on the ephemeral `ephemeral` the request came from.
   */
  responseUrlForUser(target: ResponseTarget & { user: string }): string {
    const id = randomBytes(6).toString('hex');
    this.responseTargets.set(id, { ...target });
    return this.responseUrl(id);
  }

  /**
   * What Slack's authorize page does when an admin of `teamId` clicks Allow: a one-time code for the
   * app's redirect URL (exchanged by `oauth.v2.access`).
   */
  grantInstall(o: { teamId: string; teamName: string; user: string }): string {
    const code = `code-${randomBytes(6).toString('hex')}`;
    this.oauthCodes.set(code, o);
    return code;
  }

  /** The bot token `oauth.v2.access` gave a workspace (the latest install). */
  tokenOf(teamId: string): string | undefined {
    return [...this.installed].reverse().find(([, w]) => w.teamId === teamId)?.[0];
  }

  /** Ties a trigger_id to the person whose gesture made it, as Slack does: their modals open for them. */
  registerTrigger(triggerId: string, user: string): void {
    this.triggers.set(triggerId, user);
  }

  /** Calls `listener` with the new version after each change; returns the unsubscribe. */
  onChange(listener: (version: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message a person writes in a channel (or a thread). */
  postAsUser(user: string, channel: string, text: string, threadTs?: string): SlackMessage {
    const message: SlackMessage = {
      channel,
      ts: this.nextTs(),
      text,
      blocks: undefined,
      thread_ts: threadTs,
      metadata: undefined,
      user,
    };
    this.messages.push(message);
    this.changed();
    return message;
  }

  /**
   * Applies a slash command's ack body as Slack does: `in_channel` posts in the channel, anything else
   * is a private answer that later replace/delete_original posts to the command's response_url act on.
   */
  answerCommand(responseUrl: string, body: Record<string, unknown>): void {
    const id = new URL(responseUrl).pathname.slice('/response/'.length);
    this.respond(this.responseTargets.get(id), body);
    this.changed();
  }

  /** `user`'s open modals, bottom first (the top one is shown). */
  modals(user: string): SlackModal[] {
    return (this.modalStacks.get(user) ?? []).flatMap((id) => {
      const view = this.views.get(id)?.view;
      const errors = this.viewErrors.get(id);
      return view ? [{ id, view, ...(errors ? { errors } : {}) }] : [];
    });
  }

  /** Closes a modal and those pushed over it (its Close button, an empty submission ack). */
  closeModal(user: string, viewId: string): void {
    const stack = this.modalStacks.get(user) ?? [];
    const at = stack.indexOf(viewId);
    if (at >= 0) stack.splice(at);
    this.changed();
  }

  /** Closes every modal of `user` (`response_action: clear`). */
  clearModals(user: string): void {
    this.modalStacks.delete(user);
    this.changed();
  }

  /** Puts a view on top of `user`'s stack (`response_action: push`); returns its id. */
  pushModal(user: string, view: Record<string, unknown>): string {
    const id = this.storeView(view);
    this.modalStacks.set(user, [...(this.modalStacks.get(user) ?? []), id]);
    this.changed();
    return id;
  }

  /** Replaces a modal in place (`response_action: update`), its inline errors gone. */
  replaceModal(viewId: string, view: Record<string, unknown>): void {
    this.storeView(view, viewId);
    this.changed();
  }

  /** Shows inline errors under a modal's inputs (`response_action: errors`); empty clears them. */
  setModalErrors(viewId: string, errors: Record<string, string>): void {
    if (Object.keys(errors).length) this.viewErrors.set(viewId, errors);
    else this.viewErrors.delete(viewId);
    this.changed();
  }

  addUser(user: Partial<SlackUserRecord> & { id: string; email?: string }): SlackUserRecord {
    const record: SlackUserRecord = {
      id: user.id,
      name: user.name ?? user.id.toLowerCase(),
      real_name: user.real_name ?? user.name ?? user.id,
      tz: user.tz ?? 'Europe/Paris',
      profile: { ...(user.email ? { email: user.email } : {}), ...user.profile },
      ...(user.is_bot ? { is_bot: true } : {}),
      ...(user.is_admin ? { is_admin: true } : {}),
      ...(user.is_owner ? { is_owner: true } : {}),
      ...(user.deleted ? { deleted: true } : {}),
    };
    this.users.set(record.id, record);
    return record;
  }

  /** The next `count` calls of `method` get this fault instead of an answer. */
  failNext(method: string, fault: SlackFault, count = 1): void {
    const list = this.faults.get(method) ?? [];
    for (let i = 0; i < count; i++) list.push(fault);
    this.faults.set(method, list);
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((e: Error) => {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, error: e.message }));
      });
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Turns on Socket Mode for the app-level token `appToken` (`xapp-…`): `apps.connections.open` and
   * the WebSocket endpoint it points to (see `socket-mode-double.ts`, loaded only now: it needs `ws`).
   */
  async enableSocketMode(appToken: string): Promise<SocketModeDouble> {
    if (!this.server) throw new Error('start the Slack double before turning Socket Mode on');
    const { SocketModeDouble } = await import('./socket-mode-double.js');
    this.socket = new SocketModeDouble(appToken, this.url, this.server);
    return this.socket;
  }

  async stop(): Promise<void> {
    this.socket?.close();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) {
      try {
        listener(this.version);
      } catch {
        // A listener's failure is its own: the double goes on answering.
      }
    }
  }

  /** Keeps a view under `id` (a new one when not given); a replaced view loses its inline errors. */
  private storeView(view: Record<string, unknown>, id = `V${String(++this.seq).padStart(8, '0')}`): string {
    this.views.set(id, { id, view: { ...view, id } });
    this.viewErrors.delete(id);
    return id;
  }

  /**
   * A response_url answer for a request whose person is known: replace/delete_original act on the
   * ephemeral it came from, `in_channel` posts in the channel, anything else is a new private answer.
   */
  private respond(target: ResponseTarget | undefined, body: Record<string, unknown>): void {
    if (!target?.user) return;
    const original = this.ephemerals.findIndex((e) => e.id === target.ephemeral);
    if (original >= 0 && body.delete_original) {
      this.ephemerals.splice(original, 1);
      return;
    }
    const content = { text: body.text as string | undefined, blocks: body.blocks as unknown[] | undefined };
    const kept = this.ephemerals[original];
    if (kept && body.replace_original) {
      Object.assign(kept, content);
      return;
    }
    if (body.delete_original || (body.replace_original && target.ts)) return;
    if (body.response_type === 'in_channel') {
      this.messages.push({
        channel: target.channel,
        ts: this.nextTs(),
        ...content,
        thread_ts: target.thread_ts,
        metadata: undefined,
        user: this.botUserId,
      });
      return;
    }
    const ephemeral = this.addEphemeral(target.user, target.channel, target.thread_ts, content);
    // A command's later answers replace or delete its latest private one, as in Slack.
    if (target.command) target.ephemeral = ephemeral.id;
  }

  private addEphemeral(
    user: string,
    channel: string,
    threadTs: string | undefined,
    content: { text: string | undefined; blocks: unknown[] | undefined },
  ): SlackEphemeral {
    const ts = this.nextTs();
    const ephemeral = { id: `E${ts.replace('.', '')}`, user, channel, ts, thread_ts: threadTs, ...content };
    this.ephemerals.push(ephemeral);
    return ephemeral;
  }

  private nextTs(): string {
    this.seq++;
    return `${Math.floor(Date.now() / 1000)}.${String(this.seq).padStart(6, '0')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/upload/')) return this.receiveUpload(url, req, res);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const scopes = url.pathname.startsWith('/api/') ? { 'x-oauth-scopes': this.grantedScopes.join(',') } : {};
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res
        .writeHead(status, { 'content-type': 'application/json', ...scopes, ...headers })
        .end(JSON.stringify(body));
    };

    if (url.pathname.startsWith('/response/')) {
      const body = JSON.parse(raw.toString() || '{}') as Record<string, unknown>;
      if (!body.delete_original && !this.valid('response_url', body, 'message'))
        return reply(400, { ok: false, error: 'invalid_blocks' });
      this.checkText('response_url', body);
      this.responses.push({ path: url.pathname, body });
      const target = this.responseTargets.get(url.pathname.slice('/response/'.length));
      const i = target?.ts
        ? this.messages.findIndex((m) => m.channel === target.channel && m.ts === target.ts)
        : -1;
      const original = this.messages[i];
      if (original && body.delete_original) this.messages.splice(i, 1);
      else if (original && body.replace_original && body.response_type !== 'ephemeral') {
        original.text = body.text as string | undefined;
        original.blocks = body.blocks as unknown[] | undefined;
      } else this.respond(target, body);
      this.changed();
      reply(200, { ok: true });
      return;
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args = this.decode(req, raw, url);
    const token =
      /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? (args.token as string | undefined);
    this.calls.push({ method, args, token, at: Date.now() });

    const fault = this.faults.get(method)?.shift();
    if (fault?.kind === 'rate_limited') {
      return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(fault.retryAfter) });
    }
    if (fault?.kind === 'http') return reply(fault.status, { ok: false, error: 'fatal_error' });
    if (method === 'chat.postMessage' && this.channelPaceMs > 0) {
      const channel = String(args.channel);
      const now = Date.now();
      if (now - (this.lastPostAt.get(channel) ?? 0) < this.channelPaceMs)
        return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
      this.lastPostAt.set(channel, now);
    }
    if (fault?.kind === 'error') return reply(200, { ok: false, error: fault.error });
    if (token && this.revokedTokens.has(token)) return reply(200, { ok: false, error: 'token_revoked' });
    const refused = this.refuse?.(method, args);
    if (refused) return reply(200, { ok: false, error: refused });
    const surface = blockSurfaces[method];
    const payload = surface === 'message' ? args : (args.view as unknown);
    if (surface && !this.valid(method, payload, surface === 'message' ? 'message' : viewSurface(payload)))
      return reply(200, { ok: false, error: 'invalid_blocks' });
    if (surface) this.checkText(method, payload);
    if (method === 'files.completeUploadExternal') this.checkText(method, { text: args.initial_comment });
    const answer =
      method === 'oauth.v2.access'
        ? this.exchange(args)
        : method === 'apps.connections.open' && this.socket
          ? this.socket.open(token)
          : this.answer(method, args, token);
    const delay = this.latency.get(method);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (answer.ok && mutating.has(method)) this.changed();
    if (fault?.kind === 'lost_response') return reply(500, { ok: false, error: 'fatal_error' });
    reply(200, answer);
  }

  /**
   * An upload URL's POST (files upload v2), counted as it streams in: the bytes are kept only up to
   * `keepUploadBytes` (tests and the playground read small files back); a bigger file is counted, never
   * buffered, so a 200 MB share costs this double no memory either.
   */
  private async receiveUpload(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const upload = this.uploads.get(url.pathname.slice('/upload/'.length));
    if (!upload) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"ok":false,"error":"unknown_upload"}');
      return;
    }
    const fault = this.uploadFaults.shift();
    let kept: Buffer[] | undefined = [];
    let size = 0;
    const whole = await new Promise<boolean>((resolve) => {
      const stop = (bytes: number) => fault && fault.kind !== 'status' && bytes >= fault.afterBytes;
      const cut = () => {
        if (fault?.kind === 'reset') req.socket.resetAndDestroy();
        else req.pause();
        resolve(false);
      };
      if (stop(0)) return cut();
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (kept && size <= this.keepUploadBytes) kept.push(chunk);
        else kept = undefined;
        if (stop(size)) cut();
      });
      req.on('end', () => resolve(true));
      // The bot gave up (its own timeout): nothing more comes.
      req.on('close', () => resolve(false));
      req.on('error', () => resolve(false));
    });
    if (!whole) return;
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'text/plain' }).end('upload refused');
      return;
    }
    upload.bytes = kept ? fileBytes(req.headers['content-type'], Buffer.concat(kept)) : undefined;
    upload.size = upload.bytes?.length ?? size;
    res.writeHead(200).end(`OK - ${upload.size}`);
  }

  /** Checks a payload against Block Kit limits, recording any violation. */
  private valid(method: string, payload: unknown, surface: Surface): boolean {
    const problems = checkBlockKit(payload, surface);
    if (problems.length) this.violations.push({ method, problems });
    return problems.length === 0;
  }

  /** Records the live tokens the bot did not write in a payload's texts (see `strayTokens`). */
  private checkText(method: string, payload: unknown): void {
    const problems = mrkdwnTexts(payload).flatMap((text) =>
      strayTokens(text).map((t) => `unescaped ${JSON.stringify(t)} in ${JSON.stringify(text.slice(0, 200))}`),
    );
    if (problems.length) this.violations.push({ method, problems });
  }

  private decode(req: IncomingMessage, raw: Buffer, url: URL): Record<string, unknown> {
    const text = raw.toString('utf8');
    const out: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      Object.assign(out, text ? (JSON.parse(text) as Record<string, unknown>) : {});
      return out;
    }
    for (const [k, v] of new URLSearchParams(text)) {
      // WebClient sends nested arguments (blocks, view, metadata) as JSON strings in form bodies.
      out[k] = /^[[{]/.test(v) ? safeJson(v) : v;
    }
    return out;
  }

  /** `oauth.v2.access`: a code handed out by `grantInstall`, once, for the app's own credentials. */
  private exchange(a: Record<string, unknown>): Record<string, unknown> {
    const app = this.oauthApp;
    if (!app || a.client_id !== app.clientId || a.client_secret !== app.clientSecret)
      return { ok: false, error: 'invalid_client_id' };
    const grant = this.oauthCodes.get(String(a.code));
    if (!grant) return { ok: false, error: 'invalid_code' };
    this.oauthCodes.delete(String(a.code));
    const token = `xoxb-${grant.teamId.toLowerCase()}-${randomBytes(6).toString('hex')}`;
    const botUserId = `UBOT${grant.teamId.slice(-6)}`;
    this.installed.set(token, { teamId: grant.teamId, teamName: grant.teamName, botUserId });
    return {
      ok: true,
      app_id: 'ADOUBLE01',
      authed_user: { id: grant.user },
      scope: this.grantedScopes.join(','),
      token_type: 'bot',
      access_token: token,
      bot_user_id: botUserId,
      team: { id: grant.teamId, name: grant.teamName },
      enterprise: null,
      is_enterprise_install: false,
    };
  }

  private answer(method: string, a: Record<string, unknown>, token?: string): Record<string, unknown> {
    const channel = a.channel as string | undefined;
    switch (method) {
      case 'auth.test': {
        const w = token ? this.installed.get(token) : undefined;
        return {
          ok: true,
          url: 'https://double.slack.test/',
          team: w?.teamName ?? 'Double',
          user: 'confdesk',
          team_id: w?.teamId ?? this.teamId,
          user_id: w?.botUserId ?? this.botUserId,
          bot_id: w ? `B${w.teamId.slice(-8)}` : 'BDOUBLE01',
        };
      }
      case 'chat.postMessage': {
        if (channel && this.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const message: SlackMessage = {
          channel: channel ?? '',
          ts: this.nextTs(),
          text: a.text as string | undefined,
          blocks: a.blocks as unknown[] | undefined,
          thread_ts: a.thread_ts as string | undefined,
          metadata: a.metadata,
          user: this.botUserId,
        };
        this.messages.push(message);
        return { ok: true, channel, ts: message.ts, message };
      }
      case 'chat.update': {
        const m = this.messages.find((x) => x.channel === channel && x.ts === a.ts);
        if (!m) return { ok: false, error: 'message_not_found' };
        m.edited = true;
        m.text = (a.text as string | undefined) ?? m.text;
        m.blocks = (a.blocks as unknown[] | undefined) ?? m.blocks;
        if (a.metadata !== undefined) m.metadata = a.metadata;
        return { ok: true, channel, ts: m.ts, text: m.text };
      }
      case 'chat.delete': {
        const i = this.messages.findIndex((x) => x.channel === channel && x.ts === a.ts);
        if (i < 0) return { ok: false, error: 'message_not_found' };
        this.messages.splice(i, 1);
        return { ok: true, channel, ts: a.ts };
      }
      case 'chat.postEphemeral': {
        if (channel && this.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const ephemeral = this.addEphemeral(
          String(a.user),
          channel ?? '',
          a.thread_ts as string | undefined,
          {
            text: a.text as string | undefined,
            blocks: a.blocks as unknown[] | undefined,
          },
        );
        return { ok: true, message_ts: ephemeral.ts };
      }
      case 'chat.getPermalink':
        return {
          ok: true,
          channel,
          permalink: `https://double.slack.test/archives/${channel}/p${String(a.message_ts).replace('.', '')}`,
        };
      case 'views.open':
      case 'views.push': {
        const id = this.storeView(a.view as Record<string, unknown>);
        // The modal opens for the person whose gesture made the trigger (a push goes on their stack).
        const user = this.triggers.get(String(a.trigger_id));
        if (user)
          this.modalStacks.set(user, [
            ...(method === 'views.push' ? (this.modalStacks.get(user) ?? []) : []),
            id,
          ]);
        return { ok: true, view: this.views.get(id)?.view };
      }
      case 'views.update': {
        const id =
          (a.view_id as string | undefined) ??
          [...this.views.values()].find((v) => v.view.external_id === a.external_id)?.id;
        if (!id || !this.views.has(id)) return { ok: false, error: 'not_found' };
        this.storeView(a.view as Record<string, unknown>, id);
        return { ok: true, view: this.views.get(id)?.view };
      }
      case 'views.publish': {
        const view = { ...(a.view as Record<string, unknown>), id: `VHOME${a.user_id}` };
        this.homes.set(String(a.user_id), view);
        return { ok: true, view };
      }
      case 'users.info': {
        const user = this.users.get(a.user as string);
        return user ? { ok: true, user } : { ok: false, error: 'user_not_found' };
      }
      case 'users.list': {
        // Cursor paging as Slack does it: the cursor is the index of the next member.
        const all = [...this.users.values()];
        const start = Number(a.cursor || 0);
        const limit = Math.max(1, Math.min(Number(a.limit || 200), 1_000));
        const next = start + limit < all.length ? String(start + limit) : '';
        return {
          ok: true,
          members: all.slice(start, start + limit),
          response_metadata: { next_cursor: next },
        };
      }
      case 'users.lookupByEmail': {
        const user = [...this.users.values()].find(
          (u) => u.profile.email?.toLowerCase() === String(a.email).toLowerCase(),
        );
        return user ? { ok: true, user } : { ok: false, error: 'users_not_found' };
      }
      case 'conversations.replies': {
        // The parent first, then its replies oldest first, as Slack answers.
        const thread = this.messages.filter(
          (m) => m.channel === channel && (m.ts === a.ts || m.thread_ts === a.ts),
        );
        return pageOf(thread, a, (m) => ({
          ts: m.ts,
          thread_ts: m.thread_ts,
          text: m.text,
          user: m.user,
          ...(a.include_all_metadata && m.metadata ? { metadata: m.metadata } : {}),
        }));
      }
      case 'conversations.history': {
        // Newest first, as Slack answers.
        const top = this.messages.filter((m) => m.channel === channel && !m.thread_ts).reverse();
        return pageOf(top, a, (m) => ({
          ts: m.ts,
          text: m.text,
          user: m.user,
          ...(a.include_all_metadata && m.metadata ? { metadata: m.metadata } : {}),
        }));
      }
      case 'conversations.info':
        return {
          ok: true,
          channel: {
            id: channel,
            name: this.channelNames.get(String(channel)) ?? `channel-${String(channel).toLowerCase()}`,
            is_member: !this.notInChannel.has(String(channel)),
          },
        };
      case 'files.getUploadURLExternal': {
        const id = `F${String(++this.seq).padStart(8, '0')}`;
        this.uploads.set(id, { filename: String(a.filename), bytes: undefined });
        return { ok: true, upload_url: `${this.url}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = (typeof a.files === 'string' ? safeJson(a.files) : a.files) as {
          id: string;
          title?: string;
        }[];
        const missing = files.find((f) => this.uploads.get(f.id)?.size === undefined);
        if (missing) return { ok: false, error: 'file_not_uploaded' };
        if (a.channel_id) {
          this.messages.push({
            channel: String(a.channel_id),
            ts: this.nextTs(),
            text: a.initial_comment as string | undefined,
            blocks: undefined,
            thread_ts: a.thread_ts as string | undefined,
            metadata: { files: files.map((f) => f.id) },
            user: this.botUserId,
            files: files.map((f) => {
              const upload = this.uploads.get(f.id);
              const name = upload?.filename ?? f.id;
              return {
                id: f.id,
                name,
                ...(f.title ? { title: f.title } : {}),
                size: upload?.size ?? 0,
                mimetype: mimeTypeOf(name),
              };
            }),
          });
        }
        return {
          ok: true,
          files: files.map((f) => ({ id: f.id, title: f.title ?? this.uploads.get(f.id)?.filename })),
        };
      }
      case 'apps.uninstall': {
        // The app's own credentials and an installation's token: that installation's tokens stop working.
        const app = this.oauthApp;
        if (!app || a.client_id !== app.clientId) return { ok: false, error: 'invalid_client_id' };
        if (a.client_secret !== app.clientSecret) return { ok: false, error: 'bad_client_secret' };
        if (!token || !this.installed.has(token)) return { ok: false, error: 'invalid_auth' };
        this.revokedTokens.add(token);
        return { ok: true };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

/**
 * The tokens the bot writes itself: mentions, channel links, date tokens, user-group mentions and
 * links to http(s), mailto: and tel:. https://api.slack.com/reference/surfaces/formatting#advanced
 */
const botToken =
  /^<(?:@[UW][A-Z0-9]+(?:\|[^<>|]*)?|#[CG][A-Z0-9]+(?:\|[^<>|]*)?|!date\^\d+\^[^<>|]*(?:\^[^<>|]+)?\|[^<>|]*|!subteam\^S[A-Z0-9]+(?:\|[^<>|]*)?|(?:https?:\/\/|mailto:|tel:)[^<>|\s]+(?:\|[^<>|]*)?)>/;

/**
 * Every `<…` in a mrkdwn text that is not one of the bot's own tokens: `<!channel>`, `<!here>`,
 * `<!everyone>`, a mention or link that came from outside unescaped, a bare `<`.
 */
export function strayTokens(text: string): string[] {
  const found: string[] = [];
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const rest = text.slice(i, i + 4_000);
    if (!botToken.test(rest) || /^<!(?:channel|here|everyone)\b/.test(rest))
      found.push(/^<[^<>]{0,80}>?/.exec(rest)?.[0] ?? '<');
  }
  return found;
}

/** A message's or view's texts Slack reads as mrkdwn: the message text and every mrkdwn text object. */
export function mrkdwnTexts(payload: unknown): string[] {
  const texts: string[] = [];
  const walk = (v: unknown, top: boolean): void => {
    if (Array.isArray(v)) for (const x of v) walk(x, false);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (typeof o.text === 'string' && (top || o.type === 'mrkdwn')) texts.push(o.text);
      for (const [k, x] of Object.entries(o)) if (k !== 'text' || typeof x !== 'string') walk(x, false);
    }
  };
  walk(payload, true);
  return texts;
}

/** Methods that change what a person sees: the change feed moves on their success. */
const mutating = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.delete',
  'chat.postEphemeral',
  'views.open',
  'views.push',
  'views.update',
  'views.publish',
  'files.completeUploadExternal',
]);

const mimeTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** A file's media type from its name's extension, as Slack guesses it (octet-stream when unknown). */
export function mimeTypeOf(name: string): string {
  return mimeTypes[/\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** Methods whose payload carries blocks: a message, or a view. */
const blockSurfaces: Record<string, 'message' | 'view'> = {
  'chat.postMessage': 'message',
  'chat.update': 'message',
  'chat.postEphemeral': 'message',
  'views.open': 'view',
  'views.push': 'view',
  'views.update': 'view',
  'views.publish': 'view',
};
const viewSurface = (view: unknown): Surface =>
  (view as { type?: string } | undefined)?.type === 'home' ? 'home' : 'modal';

/** The file in an upload body: raw, or the first part of a multipart/form-data body (as WebClient sends). */
function fileBytes(contentType: string | undefined, raw: Buffer): Buffer {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!contentType?.startsWith('multipart/form-data') || !boundary) return raw;
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const start = raw.indexOf(marker);
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const end = raw.indexOf(marker, headersEnd);
  if (start < 0 || headersEnd < 0 || end < 0) return raw;
  return raw.subarray(headersEnd + 4, end - 2);
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/**
 * A page of conversations.history / conversations.replies as Slack answers it: only messages within
 * `oldest`/`latest` (exclusive unless `inclusive`), at most `limit` (Slack's default 100, its maximum
 * 999 for history, 1,000 for replies), the next page behind `response_metadata.next_cursor`.
 * https://docs.slack.dev/reference/methods/conversations.history
 */
function pageOf<M extends { ts: string }>(
  list: M[],
  a: Record<string, unknown>,
  shape: (m: M) => Record<string, unknown>,
): Record<string, unknown> {
  const inclusive = a.inclusive === true || a.inclusive === 'true';
  const oldest = a.oldest === undefined ? undefined : Number(a.oldest);
  const latest = a.latest === undefined ? undefined : Number(a.latest);
  const within = list.filter((m) => {
    const t = Number(m.ts);
    if (oldest !== undefined && (inclusive ? t < oldest : t <= oldest)) return false;
    if (latest !== undefined && (inclusive ? t > latest : t >= latest)) return false;
    return true;
  });
  const limit = Math.min(Math.max(Number(a.limit ?? 100) || 100, 1), 1_000);
  const from =
    typeof a.cursor === 'string' && a.cursor ? Number(Buffer.from(a.cursor, 'base64').toString()) : 0;
  const page = within.slice(from, from + limit);
  const next = from + limit < within.length ? Buffer.from(String(from + limit)).toString('base64') : '';
  return {
    ok: true,
    messages: page.map(shape),
    has_more: next !== '',
    response_metadata: { next_cursor: next },
  };
}
