import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readManifest } from '../doctor/manifest.js';
import { authMethods } from './slack-double/auth.js';
import { chatMethods } from './slack-double/chat.js';
import { checkBlocks, checkTexts, viewSurface } from './slack-double/checks.js';
import type { DoubleContext, Method } from './slack-double/context.js';
import { conversationsMethods } from './slack-double/conversations.js';
import { filesMethods, receiveUpload } from './slack-double/files.js';
import { functionsMethods } from './slack-double/functions.js';
import { decodeArgs } from './slack-double/request.js';
import { postToResponseUrl, respond } from './slack-double/responses.js';
import type {
  ResponseTarget,
  SlackCall,
  SlackEphemeral,
  SlackFault,
  SlackMessage,
  SlackModal,
  SlackStepRun,
  SlackUpload,
  SlackUserRecord,
  UploadFault,
} from './slack-double/types.js';
import { usersMethods } from './slack-double/users.js';
import { viewsMethods } from './slack-double/views.js';
import type { SocketModeDouble } from './socket-mode-double.js';

export { mrkdwnTexts, strayTokens } from './slack-double/checks.js';
export { dmChannelOf } from './slack-double/conversations.js';
export { mimeTypeOf } from './slack-double/files.js';
export type {
  SlackCall,
  SlackEphemeral,
  SlackFault,
  SlackFile,
  SlackMessage,
  SlackModal,
  SlackStepRun,
  SlackUpload,
  SlackUserRecord,
  UploadFault,
} from './slack-double/types.js';

/**
 * A local Slack double: a real loopback HTTP server implementing the Web API methods confdesk uses,
 * recording every call, and able to answer 429 with `Retry-After` or `{ok:false,error}` on demand.
 * Point the bot's WebClient at `apiUrl` (`SLACK_API_URL`). It also serves `response_url`s.
 *
 * This class holds what the double keeps, the server and what every call goes through (faults, pace,
 * revoked tokens, the Block Kit and text checks); each family of methods answers in
 * `slack-double/<family>.ts`, as the simulator's `routes/` do.
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
  /** Who the bot opened a direct message with (`conversations.open`), one entry per call. */
  readonly dmOpens: string[] = [];
  readonly views = new Map<string, { id: string; view: Record<string, unknown> }>();
  /**
   * Files posted to upload URLs: `size` counts every byte received (the file's, or the whole body when
   * a multipart one is past `keepUploadBytes`); `bytes` holds them up to `keepUploadBytes`.
   */
  readonly uploads = new Map<string, SlackUpload>();
  /**
   * How long Slack takes to process a completed upload: a message whose image block names a file
   * (`slack_file: { id }`) sooner than this after its `files.completeUploadExternal`, or a file not
   * uploaded and completed at all, is refused `invalid_blocks` ("invalid slack file"), as Slack does.
   */
  filesProcessingMs = 0;
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
  /** The app's unfurl domains (manifest.yml's `unfurl_domains` unless a test or the playground names its own). */
  unfurlDomains: string[] = readManifest().unfurlDomains;
  botUserId = 'UBOT000001';
  teamId = 'T0000DBL';
  /**
   * Distribution mode: the app's OAuth credentials, the codes "Add to Slack" handed out,
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
  /** Told of each Web API call the double answered, with its answer (a bench's record of the posts). */
  onAnswer:
    | ((method: string, args: Record<string, unknown>, answer: Record<string, unknown>) => void)
    | undefined;
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
  /** What the method families (`slack-double/<family>.ts`) read and change. */
  private readonly context: DoubleContext = {
    double: this,
    triggers: this.triggers,
    oauthCodes: this.oauthCodes,
    responseTargets: this.responseTargets,
    nextTs: () => this.nextTs(),
    nextId: (prefix) => this.nextId(prefix),
    storeView: (view, id) => this.storeView(view, id),
    addEphemeral: (user, channel, threadTs, content) => this.addEphemeral(user, channel, threadTs, content),
  };
  /** The Web API methods the double answers, by name; any other is `unknown_method`. */
  private readonly methods = new Map<string, Method>(
    Object.entries({
      ...authMethods(this.context),
      ...chatMethods(this.context),
      ...viewsMethods(this.context),
      ...usersMethods(this.context),
      ...conversationsMethods(this.context),
      ...filesMethods(this.context),
      ...functionsMethods(this.context),
    }),
  );

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

  /** The Workflow Builder steps' runs, by execution id: started by `startStep`, ended by `functions.*`. */
  readonly stepRuns = new Map<string, SlackStepRun>();

  /**
   * What Slack does when a workflow reaches one of the app's steps: a run with its own short-lived
   * token, and the `function_executed` event to send to the app (Events API or Socket Mode).
   * `function`'s definition is the manifest's (`manifest.steps.yml`), read by the caller.
   */
  startStep(o: { callbackId: string; inputs: Record<string, unknown>; title?: string }): {
    run: SlackStepRun;
    event: Record<string, unknown>;
  } {
    const executionId = this.nextId('Fx');
    const run: SlackStepRun = {
      executionId,
      callbackId: o.callbackId,
      inputs: o.inputs,
      token: `xwfp-${randomBytes(8).toString('hex')}`,
      startedAt: Date.now(),
    };
    this.stepRuns.set(executionId, run);
    const event = {
      type: 'function_executed',
      function: {
        id: `Fn${o.callbackId.length}${executionId.slice(2)}`,
        callback_id: o.callbackId,
        title: o.title ?? o.callbackId,
        type: 'app',
        input_parameters: [],
        output_parameters: [],
        app_id: 'ADOUBLE01',
        date_created: Math.floor(run.startedAt / 1000),
        date_updated: Math.floor(run.startedAt / 1000),
        date_deleted: 0,
      },
      inputs: o.inputs,
      function_execution_id: executionId,
      workflow_execution_id: this.nextId('Wx'),
      event_ts: this.nextTs(),
      bot_access_token: run.token,
    };
    return { run, event };
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
   * The `link_shared` event Slack sends for a person's message that holds links of the app's unfurl
   * domains (`domains`: manifest.yml's `unfurl_domains` unless given; a subdomain counts), or
   * undefined when it holds none. The caller delivers it (signed HTTP, or a Socket Mode envelope).
   */
  linkShared(
    message: SlackMessage,
    domains: readonly string[] = this.unfurlDomains,
  ): Record<string, unknown> | undefined {
    const links = [...(message.text ?? '').matchAll(/https?:\/\/[^\s<>|]+/g)]
      .map((m) => m[0])
      .flatMap((url) => {
        const host = new URL(url).hostname.toLowerCase();
        const domain = domains.find((d) => host === d || host.endsWith(`.${d}`));
        return domain ? [{ domain, url }] : [];
      });
    if (links.length === 0) return undefined;
    return {
      type: 'link_shared',
      channel: message.channel,
      is_bot_user_member: true,
      user: message.user,
      message_ts: message.ts,
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      unfurl_id: `${message.channel}.${message.ts}.${randomBytes(8).toString('hex')}`,
      source: 'conversations_history',
      links,
      event_ts: message.ts,
    };
  }

  /**
   * `user` adds the emoji `name` (Slack's name: `ticket`, `eyes`) to the message `ts` of `channel`:
   * kept under the message, and answered as the `reaction_added` event Slack then sends to the apps
   * subscribed to it (`event` of an `event_callback`).
   * https://docs.slack.dev/reference/events/reaction_added
   */
  react(user: string, channel: string, ts: string, name: string): Record<string, unknown> {
    const m = this.messages.find((x) => x.channel === channel && x.ts === ts);
    if (m) {
      m.reactions ??= [];
      const r = m.reactions.find((x) => x.name === name);
      if (!r) m.reactions.push({ name, users: [user] });
      else if (!r.users.includes(user)) r.users.push(user);
      this.changed();
    }
    return {
      type: 'reaction_added',
      user,
      reaction: name,
      ...(m?.user ? { item_user: m.user } : {}),
      item: { type: 'message', channel, ts },
      event_ts: (Date.now() / 1000).toFixed(6),
    };
  }

  /**
   * `user` changes their Slack language (`fr-FR`, `en-US`): kept on their record (`users.info` with
   * `include_locale` answers it), and answered as the `user_change` event Slack then sends to the apps
   * subscribed to it, its `user` the whole user object as `users.info` gives it.
   * https://docs.slack.dev/reference/events/user_change
   */
  changeLocale(user: string, locale: string): Record<string, unknown> {
    const record = this.users.get(user);
    if (!record) throw new Error(`no user ${user}`);
    record.locale = locale;
    this.changed();
    return {
      type: 'user_change',
      user: { ...record, profile: { ...record.profile } },
      cache_ts: Math.floor(Date.now() / 1000),
      event_ts: (Date.now() / 1000).toFixed(6),
    };
  }

  /**
   * Applies a slash command's ack body as Slack does: `in_channel` posts in the channel, anything else
   * is a private answer that later replace/delete_original posts to the command's response_url act on.
   */
  answerCommand(responseUrl: string, body: Record<string, unknown>): void {
    const id = new URL(responseUrl).pathname.slice('/response/'.length);
    respond(this.context, this.responseTargets.get(id), body);
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
      ...(user.locale ? { locale: user.locale } : {}),
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
  private storeView(view: Record<string, unknown>, id = this.nextId('V')): string {
    this.views.set(id, { id, view: { ...view, id } });
    this.viewErrors.delete(id);
    return id;
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

  private nextId(prefix: string): string {
    return `${prefix}${String(++this.seq).padStart(8, '0')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/upload/')) return receiveUpload(this, url, req, res);
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
      const answer = postToResponseUrl(this.context, url.pathname, body);
      if (answer.status === 200) this.changed();
      return reply(answer.status, answer.body);
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args = decodeArgs(req, raw, url);
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
    const known = this.methods.get(method);
    if (known?.blocks) {
      const payload = known.blocks === 'message' ? args : (args.view as unknown);
      const surface = known.blocks === 'message' ? 'message' : viewSurface(payload);
      if (!checkBlocks(this.violations, method, payload, surface))
        return reply(200, { ok: false, error: 'invalid_blocks' });
      // Not a violation (Slack's timing, not the bot's payload): an image of a file not ready yet.
      if (this.unreadyFile(payload))
        return reply(200, { ok: false, error: 'invalid_blocks', errors: ['invalid slack file'] });
      checkTexts(this.violations, method, payload);
    }
    if (known?.texts) checkTexts(this.violations, method, known.texts(args));
    const answer = known ? known.answer(args, token) : { ok: false, error: 'unknown_method' };
    this.onAnswer?.(method, args, answer);
    const delay = this.latency.get(method);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (answer.ok && known?.changes) this.changed();
    if (fault?.kind === 'lost_response') return reply(500, { ok: false, error: 'fatal_error' });
    reply(200, answer);
  }

  /** Whether a payload's image block names a file (`slack_file.id`) not completed, or still processing. */
  private unreadyFile(payload: unknown): boolean {
    const blocks = (payload as { blocks?: unknown } | undefined)?.blocks;
    if (!Array.isArray(blocks)) return false;
    return blocks.some((b: { type?: string; slack_file?: { id?: string } }) => {
      const id = b?.type === 'image' ? b.slack_file?.id : undefined;
      if (id === undefined) return false;
      const done = this.uploads.get(id)?.completedAt;
      return done === undefined || Date.now() - done < this.filesProcessingMs;
    });
  }
}
