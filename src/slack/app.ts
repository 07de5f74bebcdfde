import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import type { DoctorReport } from '../doctor/doctor.js';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import type { PlatformClient } from '../platform/client.js';
import { AccessService } from '../services/access.js';
import { ConferenceService } from '../services/conferences.js';
import { DigestService } from '../services/digest.js';
import { DigestScheduleService } from '../services/digest-schedules.js';
import { IdentityService } from '../services/identity.js';
import { SubscriptionService } from '../services/subscriptions.js';
import { TicketService } from '../services/tickets.js';
import type { CheckState, ReadinessReport } from '../startup/readiness.js';
import type { Store } from '../store/store.js';
import { registerActions } from './actions/index.js';
import { clipCommandText } from './clip-command-text.js';
import { registerCommands } from './commands/index.js';
import type { Deps } from './deps.js';
import { registerEvents } from './events/index.js';
import { SlackPublisher } from './publisher.js';
import { guardReceiver } from './receiver-guard.js';
import { registerErrorHandler } from './route.js';
import { registerShortcuts } from './shortcuts/index.js';
import { registerViews } from './views/index.js';

export interface SlackAppOptions {
  botToken: string;
  signingSecret: string;
  /** Set: Socket Mode (no public URL). Unset: HTTP mode, `POST /slack/events`. */
  appToken?: string | undefined;
  /** Web API base URL, e.g. a Slack double's. */
  apiUrl?: string | undefined;
  port: number;
  logger: Logger;
  /** What `/readyz` reports (every check, a sentence for the failing ones); unset, always ready. */
  readiness?: () => ReadinessReport;
  /**
   * The bot's identity from the start-up `auth.test`: given, Bolt does not call auth.test again (and
   * does not keep a failed call's answer for the process's life).
   */
  botIdentity?: { botId: string; botUserId: string } | undefined;
  platform: PlatformClient;
  /** What survives a restart: ticket cards, subscriptions… */
  store: Store;
  /** Extra HTTP routes on the same server (the platform's webhooks). */
  routes?: { path: string; method: string[]; handler: (req: IncomingMessage, res: ServerResponse) => void }[];
  /** The clock (tests move it). */
  now?: () => Date;
  /** Runs the doctor for `/conference admin doctor` (the composition root knows the configuration). */
  doctor?: () => Promise<DoctorReport>;
}

export interface SlackApp {
  app: App;
  /** The ticket use cases, shared with the background jobs. */
  tickets: TicketService;
  /** The policy applied to Slack people, shared with the jobs that post on someone's behalf. */
  access: AccessService;
  /** The one writer of ticket cards and thread lines, shared with the jobs (their Slack port). */
  publisher: SlackPublisher;
  /** Whether Slack can reach the bot: Socket Mode, the socket is connected; HTTP mode, always (auth.test passed at start). */
  connection(): CheckState;
  /** Starts the transport; resolves with the HTTP port (HTTP mode or health routes in Socket Mode). */
  start(): Promise<number>;
  stop(): Promise<void>;
}

/** The Bolt app with the same listeners in both transports, and `/healthz` and `/readyz` routes. */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const readyz = (_req: unknown, res: ServerResponse) => {
    const report = options.readiness?.();
    const body = report ?? { ok: true };
    res.writeHead(body.ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const customRoutes = [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req: unknown, res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true })),
    },
    { path: '/readyz', method: ['GET'], handler: readyz },
    ...(options.routes ?? []),
  ];
  const logger = boltLogger(options.logger);
  const { signingSecret, port } = options;
  // Socket Mode's receiver is built here (not by Bolt) to follow its client's connection state.
  const socket = options.appToken
    ? new SocketModeReceiver({ appToken: options.appToken, logger, customRoutes, installerOptions: { port } })
    : undefined;
  let socketState: CheckState = { ok: false, problem: 'slack: Socket Mode is connecting' };
  socket?.client.on('connected', () => {
    socketState = { ok: true };
  });
  for (const event of ['disconnected', 'reconnecting'])
    socket?.client.on(event, () => {
      socketState = {
        ok: false,
        problem: `slack: the Socket Mode connection is ${event}: check SLACK_APP_TOKEN and this host's network`,
      };
    });
  const app = new App({
    token: options.botToken,
    logger,
    // No listener reads Bolt's conversation context: skip its store on every request.
    convoStore: false,
    // The error handler gets the request's body and context, to answer on the request's surface.
    extendedErrorHandler: true,
    ...(options.botIdentity ?? {}),
    receiver:
      socket ??
      // Bolt's own receiver, with malformed signed bodies refused before Bolt reads them.
      guardReceiver(new HTTPReceiver({ signingSecret, port, customRoutes, logger }), {
        signingSecret,
        logger: options.logger,
      }),
    ...(options.apiUrl ? { clientOptions: { slackApiUrl: options.apiUrl } } : {}),
  });
  app.use(clipCommandText(options.logger));
  const identity = new IdentityService(app.client, options.platform);
  const access = new AccessService(identity);
  const now = options.now ?? (() => new Date());
  const tickets = new TicketService(options.platform, identity, access);
  const publisher = new SlackPublisher({
    slack: app.client,
    store: options.store,
    tickets,
    logger: options.logger.child({ component: 'publisher' }),
  });
  const deps: Deps = {
    identity,
    access,
    conferences: new ConferenceService(options.platform, identity, access, now),
    tickets,
    logger: options.logger,
    now,
    schedules: new DigestScheduleService(options.store, now),
    digests: new DigestService(options.platform, options.store),
    doctor: options.doctor,
    waitMs: () => options.platform.estimateWaitMs('interactive'),
    store: options.store,
    subscriptions: new SubscriptionService(options.store),
    publisher,
  };
  // One reply for failures, also for throws before a listener's ack (`reply-error.ts`).
  registerErrorHandler(app, options.logger);
  // One registrar per Slack surface (the starter template's `listeners/<surface>/index.ts`).
  registerCommands(app, deps);
  registerActions(app, deps);
  registerViews(app, deps);
  registerShortcuts(app, deps);
  registerEvents(app, deps);

  return {
    app,
    tickets,
    access,
    publisher,
    connection: () => (socket ? socketState : { ok: true }),
    async start() {
      const started = (await app.start(options.port)) as unknown;
      const server = started as Server | undefined;
      if (server && 'keepAliveTimeout' in server) {
        // Keep idle connections longer than the load balancers and proxies in front (often 60 s), so
        // that a burst of Slack requests reuses them instead of opening new ones (Node's default: 5 s).
        server.keepAliveTimeout = 65_000;
        server.headersTimeout = 66_000;
      }
      const address = server?.address?.() as AddressInfo | null | undefined;
      return address?.port ?? options.port;
    },
    async stop() {
      await app.stop();
    },
  };
}
