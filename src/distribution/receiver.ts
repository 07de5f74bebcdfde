import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, HTTPReceiver, type ReceiverEvent } from '@slack/bolt';
import type { Config } from '../config/config.js';
import { readManifest } from '../doctor/manifest.js';
import { healthRoutes } from '../inbound/health-routes.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { WorkspaceRegistry } from '../services/workspaces.js';
import { guardReceiver, receiverLogger } from '../slack/runtime/receiver-guard.js';
import { answerUnhandled } from '../slack/runtime/unhandled-requests.js';
import type { Store } from '../store/store.js';
import { installRoutes } from './install-flow.js';
import type { Tenants } from './tenants.js';

export interface ReceiverOptions {
  config: Config;
  tenants: Tenants;
  registry: WorkspaceRegistry;
  /** The process's store: the install flow records its used states there. */
  store: Store;
  /** `/readyz`'s report (`census.ts`). */
  report: () => { ok: boolean };
  /** Set (and METRICS on): `GET /metrics` serves it. */
  metrics: Metrics | undefined;
  logger: Logger;
}

/** The process's one HTTP server, started: Slack's requests, "Add to Slack", health, the webhooks. */
export interface WorkspacesServer {
  port: number;
  stop(): Promise<void>;
}

/**
 * Bolt's HTTPReceiver for every workspace: it checks each Slack request's signature and hands it to
 * its workspace's app (`dispatcher`); beside it, the install flow, `/healthz`, `/readyz`, `/metrics`
 * and each workspace's webhook address (`/webhooks/platform/<team>`).
 */
export async function serveWorkspaces(o: ReceiverOptions): Promise<WorkspacesServer> {
  const { config, tenants, logger } = o;
  const d = config.distribution;
  if (!d) throw new Error('serveWorkspaces: distribution mode is not configured');
  const signingSecret = config.slack.signingSecret as string;
  const receiver = guardReceiver(
    new HTTPReceiver({
      signingSecret,
      port: config.slack.port,
      // Its warning per unsigned request (anyone can send one) is rate-limited.
      logger: receiverLogger(logger),
      // Bolt's default line for each request to a path it does not serve (a scan, /metrics with metrics
      // off) is an info line per request: outsiders could fill the log with it.
      dispatchErrorHandler: answerUnhandled(logger),
      customRoutes: [
        ...installRoutes({
          clientId: d.clientId,
          clientSecret: d.clientSecret,
          stateSecret: d.stateSecret,
          scopes: readManifest().botScopes,
          publicUrl: d.publicUrl,
          apiUrl: config.slack.apiUrl,
          allowedTeams: d.allowedTeams,
          store: o.store,
          installationStore: o.registry.installationStore(tenants.start),
          logger,
        }),
        ...healthRoutes({
          report: o.report,
          metrics: o.metrics && config.metrics && { registry: o.metrics, token: config.metrics.token },
        }),
        {
          path: '/webhooks/platform/:team',
          method: ['POST'],
          handler: (req, res) => {
            const team = (req as IncomingMessage & { params?: { team?: string } }).params?.team ?? '';
            const hook = tenants.running.get(team)?.confdesk?.webhook;
            if (hook) return hook(req, res);
            req.resume();
            notFound(res);
          },
        },
      ],
    }),
    { signingSecret, logger },
  );
  receiver.init(dispatcher(tenants, logger) as unknown as App);
  const { port: listenPort, host } = config.slack;
  const server = (await receiver.start(host ? { port: listenPort, host } : listenPort)) as unknown as {
    address(): AddressInfo | null;
  };
  return { port: server.address()?.port ?? config.slack.port, stop: () => receiver.stop() };
}

/** Every request of every workspace arrives here, and goes to that workspace's app. */
const dispatcher = (tenants: Tenants, logger: Logger) => ({
  async processEvent(event: ReceiverEvent): Promise<void> {
    const team = teamOf(event.body);
    // While the process starts, a workspace someone uses goes first, and its request waits for it
    // a little (Slack wants the ack within 3 s).
    const under = !team
      ? undefined
      : tenants.waiting.has(team)
        ? tenants.startFirst(team)
        : tenants.starting.has(team)
          ? tenants.turnOf(team)
          : undefined;
    if (under) await Promise.race([under, sleep(requestWaitMs)]);
    const w = team ? tenants.running.get(team) : undefined;
    if (!w) {
      logger.warn({ team }, 'a Slack request from a workspace confdesk is not installed in: ignored');
      await event.ack();
      return;
    }
    await w.app.processEvent(event);
  },
});

/**
 * The workspace a Slack request comes from, read as Bolt reads it (App.js buildSource): commands,
 * `team_id`; events, the installation in `authorizations` first (in a Slack Connect channel the outer
 * `team_id` may be the other workspace's); a view, `view.app_installed_team_id` first (a modal opened
 * from a shared channel); other interactivity, `team.id`, else `user.team_id`.
 */
export function teamOf(body: unknown): string | undefined {
  const b = body as {
    type?: string;
    command?: string;
    event?: unknown;
    team_id?: string;
    team?: { id?: string } | null;
    user?: { team_id?: string };
    view?: { app_installed_team_id?: string };
    authorizations?: { team_id?: string | null }[];
  };
  if (b.command !== undefined) return b.team_id;
  if (b.event !== undefined) return b.authorizations?.[0]?.team_id ?? b.team_id;
  const installed =
    b.type === 'view_submission' || b.type === 'view_closed' ? b.view?.app_installed_team_id : undefined;
  return installed || (b.team?.id ?? b.user?.team_id ?? b.team_id);
}

/** How long a request for a workspace still starting waits for it. */
const requestWaitMs = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

const notFound = (res: ServerResponse) =>
  res
    .writeHead(404, { 'content-type': 'application/json' })
    .end(JSON.stringify({ ok: false, error: 'no workspace set up at this address' }));
