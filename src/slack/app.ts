import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { ProxySettings } from '../config/config.js';
import { type HttpRoute, healthRoutes } from '../inbound/health-routes.js';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceMetrics } from '../observability/metrics.js';
import type { CheckState, ReadinessReport } from '../observability/readiness.js';
import { proxyAgent } from '../platform/proxy.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import type { Deps } from './deps.js';
import { registerEvents } from './events/index.js';
import { registerPickers } from './options/pickers.js';
import { measureAcks } from './runtime/ack-timing.js';
import { registerErrorHandler } from './runtime/error-handler.js';
import { guardReceiver, receiverLogger } from './runtime/receiver-guard.js';
import { requestScope } from './runtime/request-scope.js';
import { installSurfaces } from './runtime/surfaces.js';
import { answerUnhandled, notFoundRoute } from './runtime/unhandled-requests.js';
import { handleSettingsCommand, registerWorkspaceSettings, type WorkspaceSetupDeps } from './setup/index.js';
import { registerShortcuts } from './shortcuts/index.js';
import { registerSteps } from './steps/index.js';
import { registerViews } from './views/index.js';

export interface SlackAppOptions {
  botToken: string;
  signingSecret: string;
  /** Set: Socket Mode (no public URL). Unset: HTTP mode, `POST /slack/events`. */
  appToken?: string | undefined;
  /** Set: the Socket Mode connection goes through this proxy (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  proxy?: ProxySettings | undefined;
  /** Web API base URL, e.g. a Slack double's. */
  apiUrl?: string | undefined;
  port: number;
  /** HOST: the address the HTTP server listens on; unset, every interface. */
  host?: string | undefined;
  logger: Logger;
  /** What `/readyz` reports (every check, a sentence for the failing ones); unset, always ready. */
  readiness?: () => ReadinessReport;
  /**
   * The bot's identity from the start-up `auth.test`: given, Bolt does not call auth.test again (and
   * does not keep a failed call's answer for the process's life).
   */
  botIdentity?: { botId: string; botUserId: string } | undefined;
  /** The services, the publisher and the rest the listeners use, built once by the composition root. */
  deps: Deps;
  /** Set: every ack is timed by surface, and Slack's 429s to the listeners' clients counted. */
  metrics?: Pick<WorkspaceMetrics, 'ack' | 'rateLimited'> | undefined;
  /**
   * Distribution mode: the receiver the process's one HTTP server hands this workspace's requests to
   * (`distribution/`); the app then has no server or socket of its own.
   */
  receiver?: Receiver | undefined;
  /** Extra HTTP routes on the same server (the platform's webhooks, `/metrics`). */
  routes?: HttpRoute[];
  /**
   * Distribution mode: the workspace's settings (`setup/`), for `/conference admin settings`, Home's
   * button and the form; unset with one workspace, whose settings come from the environment.
   */
  setup?: WorkspaceSetupDeps | undefined;
}

export interface SlackApp {
  app: App;
  /** Whether Slack can reach the bot: Socket Mode, the socket is connected; HTTP mode, always (auth.test passed at start). */
  connection(): CheckState;
  /** Starts the transport; resolves with the HTTP port (HTTP mode or health routes in Socket Mode). */
  start(): Promise<number>;
  stop(): Promise<void>;
}

/** The Bolt app with the same listeners in both transports, and `/healthz` and `/readyz` routes. */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const customRoutes = [...healthRoutes({ report: options.readiness }), ...(options.routes ?? [])];
  const logger = boltLogger(options.logger);
  const { signingSecret, port } = options;
  // Socket Mode's receiver is built here (not by Bolt) to follow its client's connection state. Its
  // own Web API client asks `apps.connections.open` for each connection's URL: the same API URL (a
  // copy of the options: the Socket Mode client adds its 100 retries to the object it is given).
  const apiUrl = options.apiUrl ? { slackApiUrl: options.apiUrl } : undefined;
  const socket = options.appToken
    ? new SocketModeReceiver({
        appToken: options.appToken,
        logger,
        // Last: every path it does not serve answers 404 without an info line (see answerUnhandled).
        customRoutes: [...customRoutes, notFoundRoute(options.logger)],
        installerOptions: { port, ...(apiUrl ? { clientOptions: { ...apiUrl } } : {}) },
        // Behind a company's proxy, the socket (and its apps.connections.open) goes through it too:
        // the Socket Mode client otherwise builds an agent of its own that ignores it.
        ...(options.proxy ? { dispatcher: proxyAgent(options.proxy) } : {}),
      })
    : undefined;
  if (socket && options.host) listenOnHost(socket, options.host);
  let socketState: CheckState = { ok: false, problem: 'slack: Socket Mode is connecting' };
  socket?.client.on('connected', () => {
    socketState = { ok: true };
  });
  // 'close' comes first when a connection ends: the client waits (5 s, then more after each failed
  // attempt) before 'reconnecting', and the socket is down all that time.
  for (const [event, state] of [
    ['close', 'closed'],
    ['disconnected', 'disconnected'],
    ['reconnecting', 'reconnecting'],
  ] as const)
    socket?.client.on(event, () => {
      socketState = {
        ok: false,
        problem: `slack: the Socket Mode connection is ${state}: check SLACK_APP_TOKEN and this host's network`,
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
      options.receiver ??
      socket ??
      // Bolt's own receiver, with malformed signed bodies refused before Bolt reads them.
      guardReceiver(
        new HTTPReceiver({
          signingSecret,
          port,
          customRoutes,
          // Its warning per unsigned request (anyone can send one) is rate-limited.
          logger: receiverLogger(options.logger),
          // A path it does not serve (/metrics with METRICS off, a scan): a 404 without an info line.
          dispatchErrorHandler: answerUnhandled(options.logger),
        }),
        {
          signingSecret,
          logger: options.logger,
        },
      ),
    ...(apiUrl ? { clientOptions: { ...apiUrl } } : {}),
  });
  const watchClient = options.metrics ? measureAcks(app, options.metrics) : undefined;
  // Around every listener, as one middleware: the count a shutdown waits for, a command's text
  // clipped, the ack kept for the error handler, the listener named for the last resort.
  const scope = requestScope(options.logger, watchClient, (user) => options.deps.locales.person(user));
  app.use(scope.middleware);
  const { deps, setup } = options;
  // One reply for failures, also for throws before a listener's ack (`reply-error.ts`).
  registerErrorHandler(app, options.logger, (user) => options.deps.locales.person(user));
  // One registrar per Slack surface (the starter template's `listeners/<surface>/index.ts`), each
  // kind of request behind one Bolt listener (`ListenerTables`, `ActionRoutes`).
  installSurfaces(app, { logger: deps.logger, waitMs: deps.waitMs, locale: deps.locales.person }, (on) => {
    // Distribution mode supplies the admin table's settings row.
    registerCommands(
      on.listeners,
      setup ? { ...deps, workspaceSettings: handleSettingsCommand(setup) } : deps,
    );
    registerActions(on.actions, deps);
    registerViews(on.listeners, deps);
    registerShortcuts(on.listeners, deps);
    registerEvents(on.listeners, deps);
    // The type-ahead menus' options load URL: Slack posts them to the same endpoint.
    registerPickers(on.listeners, deps);
    if (setup) registerWorkspaceSettings(on, setup);
    // The Workflow Builder steps: one workspace or org only (custom steps cannot be distributed).
    else registerSteps(on.listeners, deps);
  });

  return {
    app,
    connection: () => (socket ? socketState : { ok: true }),
    async start() {
      const { port, host } = options;
      const started = (await app.start(host ? { port, host } : port)) as unknown;
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
    /** Takes no more requests, then waits for those being handled (their listeners included). */
    async stop() {
      await app.stop();
      await scope.settled();
    },
  };
}

/**
 * Bolt's Socket Mode receiver serves the health routes on its port alone (`listen(port)`: every
 * interface) and keeps its server private: HOST binds that server to the one address.
 */
function listenOnHost(receiver: SocketModeReceiver, host: string): void {
  const server = (receiver as unknown as { httpServer?: Server }).httpServer;
  if (!server) return;
  const listen = server.listen.bind(server);
  server.listen = ((port: number) => listen(port, host)) as Server['listen'];
}
