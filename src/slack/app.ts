import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver } from '@slack/bolt';
import type { DoctorReport } from '../doctor/doctor.js';
import { boltLogger } from '../observability/bolt-logger.js';
import type { Logger } from '../observability/logger.js';
import type { PlatformClient } from '../platform/client.js';
import { AccessService } from '../services/access.js';
import { ConferenceService } from '../services/conferences.js';
import { DigestService } from '../services/digest.js';
import { IdentityService } from '../services/identity.js';
import { TicketService } from '../services/tickets.js';
import type { Store } from '../store/store.js';
import { registerConferenceActions } from './actions/conference-card.js';
import { registerTicketActions } from './actions/ticket-card.js';
import { registerTicketMenu } from './actions/ticket-menu.js';
import { clipCommandText } from './clip-command-text.js';
import { registerConferenceCommand } from './commands/conference.js';
import { registerTicketCommand } from './commands/ticket.js';
import { registerSubscriptionActions } from './commands/ticket-subscriptions.js';
import type { ConferenceDeps } from './conference-flows.js';
import { registerHome } from './home/register-home.js';
import { guardReceiver } from './receiver-guard.js';
import { registerConferenceForm } from './views/conference-form.js';
import { registerDigestForm } from './views/digest-form.js';
import { registerTicketForm } from './views/ticket-form.js';

export interface SlackAppOptions {
  botToken: string;
  signingSecret: string;
  /** Set: Socket Mode (no public URL). Unset: HTTP mode, `POST /slack/events`. */
  appToken?: string | undefined;
  /** Web API base URL, e.g. a Slack double's. */
  apiUrl?: string | undefined;
  port: number;
  logger: Logger;
  /** Readiness: false until the bot's dependencies answer (platform reachable). */
  isReady?: () => boolean;
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
  /** Starts the transport; resolves with the HTTP port (HTTP mode or health routes in Socket Mode). */
  start(): Promise<number>;
  stop(): Promise<void>;
}

/** The Bolt app with the same listeners in both transports, and `/healthz` and `/readyz` routes. */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const health = (ok: () => boolean) => (_req: unknown, res: import('node:http').ServerResponse) => {
    const up = ok();
    res.writeHead(up ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: up }));
  };
  const customRoutes = [
    { path: '/healthz', method: ['GET'], handler: health(() => true) },
    { path: '/readyz', method: ['GET'], handler: health(options.isReady ?? (() => true)) },
    ...(options.routes ?? []),
  ];
  const socketMode = Boolean(options.appToken);
  const logger = boltLogger(options.logger);
  const { signingSecret, port } = options;
  const app = new App({
    token: options.botToken,
    logger,
    // No listener reads Bolt's conversation context: skip its store on every request.
    convoStore: false,
    ...(socketMode
      ? { socketMode: true, appToken: options.appToken, customRoutes, installerOptions: { port } }
      : {
          // Bolt's own receiver, with malformed signed bodies refused before Bolt reads them.
          receiver: guardReceiver(new HTTPReceiver({ signingSecret, port, customRoutes, logger }), {
            signingSecret,
            logger: options.logger,
          }),
        }),
    ...(options.apiUrl ? { clientOptions: { slackApiUrl: options.apiUrl } } : {}),
  });
  app.use(clipCommandText(options.logger));
  const identity = new IdentityService(app.client, options.platform);
  const access = new AccessService(identity);
  const now = options.now ?? (() => new Date());
  const deps: ConferenceDeps = {
    identity,
    access,
    conferences: new ConferenceService(options.platform, identity, access, now),
    logger: options.logger,
    now,
    store: options.store,
    digests: new DigestService(options.platform, options.store),
    doctor: options.doctor,
  };
  registerConferenceCommand(app, deps);
  registerConferenceForm(app, deps);
  registerDigestForm(app, deps);
  registerConferenceActions(app, deps);
  registerHome(app, deps);
  const ticketDeps = {
    tickets: new TicketService(options.platform, identity, access),
    access,
    store: options.store,
    logger: options.logger,
  };
  const ticketFlowDeps = { ...ticketDeps, waitMs: () => options.platform.estimateWaitMs('interactive') };
  registerTicketCommand(app, ticketFlowDeps);
  registerTicketForm(app, ticketFlowDeps);
  registerTicketActions(app, ticketDeps);
  registerTicketMenu(app, ticketFlowDeps);
  registerSubscriptionActions(app, ticketDeps);

  return {
    app,
    tickets: ticketDeps.tickets,
    access,
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
