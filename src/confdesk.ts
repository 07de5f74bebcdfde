import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DoctorReport } from './domain/doctor-report.js';
import type { Action, Rule } from './domain/policy.js';
import type { ReactionEmoji } from './domain/reactions.js';
import type { UnfurlPatterns } from './domain/unfurl-links.js';
import type { WorkspaceDefaults } from './domain/workspace-settings.js';
import type { Locale } from './i18n/locale.js';
import { metricsRoute } from './inbound/health-routes.js';
import { webhookHandler } from './inbound/webhook-receiver.js';
import { JobHost, type JobHostOptions, type JobPace } from './jobs/job-host.js';
import { wakeOnWrites } from './jobs/replicas/wakes.js';
import type { LeftForNextStart } from './jobs/shutdown.js';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { ChannelPace } from './outbound/channel-pace.js';
import { deliveryClient, retryingClient } from './outbound/clients.js';
import { HomeScreens } from './outbound/home-screens.js';
import { SlackPublisher } from './outbound/publisher.js';
import { SlackAccess } from './outbound/slack-access.js';
import type { PlatformClient } from './platform/client.js';
import { AccessService } from './services/access.js';
import { ConferenceService } from './services/conferences.js';
import { DigestService } from './services/digest.js';
import { DigestScheduleService } from './services/digest-schedules.js';
import { Directory } from './services/directory.js';
import { HomeService } from './services/home.js';
import { IdentityService } from './services/identity.js';
import { IdentityLinkService } from './services/identity-links.js';
import { MediaService } from './services/media.js';
import { PeopleService } from './services/people.js';
import { SubscriptionService } from './services/subscriptions.js';
import { TicketService } from './services/tickets.js';
import { UnfurlService } from './services/unfurls.js';
import { createSlackApp, type SlackApp, type SlackAppOptions } from './slack/app.js';
import type { Deps } from './slack/deps.js';
import { personLocale } from './slack/runtime/person-locale.js';
import type { Store } from './store/store.js';

/*
 * The composition root: how the house is assembled, in one place. `main.ts`, the test helpers and the
 * benchmarks all call `createConfdesk`, so what the tests exercise is what production runs.
 */

export interface ConfdeskOptions {
  /** Slack's side: the transport (Socket Mode or HTTP), its credentials, readiness, doctor. */
  slack: Omit<SlackAppOptions, 'deps' | 'routes' | 'logger'> & {
    /** Runs the doctor for `/conference admin doctor` (the caller knows the configuration). */
    doctor?: (() => Promise<DoctorReport>) | undefined;
  };
  platform: PlatformClient;
  store: Store;
  logger: Logger;
  /** Set: `POST /webhooks/platform` accepts the platform's deliveries carrying `secret` in `header`. */
  webhook?: { secret: string; header: string } | undefined;
  /**
   * Set: the background jobs (poller, delivery, digests) start with the app; without a
   * `pollIntervalMs`, only delivery (tests that drive the platform's changes themselves).
   */
  jobs?: JobPace | undefined;
  /** Set: the jobs run only when asked (`JobHost.runJobs`; distribution mode: the replica holding the share). */
  jobsWhenAsked?: boolean;
  /** With `jobsWhenAsked`: told of each write that gives the jobs work while they run on another replica. */
  writesElsewhere?: JobHostOptions['writesElsewhere'];
  /** The clock (tests move it). */
  now?: () => Date;
  /**
   * Distribution mode: the workspace's own settings (defaults for what forms leave empty,
   * who may create tickets) and how to forget it on uninstall.
   */
  distribution?:
    | {
        defaults: WorkspaceDefaults;
        rules: Partial<Record<Action, Rule>>;
        forget: (team: string, at?: Date) => Promise<void>;
      }
    | undefined;
  /** The link patterns of unfurls (UNFURL_*_PATTERN, compiled); unset: only conferences' join links unfurl. */
  unfurlPatterns?: UnfurlPatterns | undefined;
  /** The emoji of the channels' reactions (`REACTION_*`); unset: the defaults (🎫 👀 ✅). */
  reactions?: ReactionEmoji | undefined;
  /** The language of what channels see (cards, thread lines, unfurls, digests); unset: English. */
  channelLocale?: Locale | undefined;
  /** The Slack team id this instance serves: the `workspace` label of its metrics. */
  workspace?: string | undefined;
  /**
   * Set: the instance reports to `registry` (acks, platform requests, outbox, jobs…); with `route`,
   * its HTTP server also answers `GET /metrics` (with a token, only to `Authorization: Bearer <token>`).
   */
  metrics?: { registry: Metrics; route?: { token: string | undefined } | undefined } | undefined;
}

export interface Confdesk {
  /** The use cases and the publisher, built once; the listeners and the jobs share them. */
  deps: Deps;
  slack: SlackApp;
  /** Whether Slack still takes the bot's token, as the jobs that post learnt it (`/readyz` reads it). */
  slackAccess: SlackAccess;
  /**
   * The platform's webhook receiver (when `webhook` is set): on `POST /webhooks/platform` of the app's
   * own server, or, with a receiver given (distribution mode), for the process's server to route.
   */
  webhook: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** The jobs' life: where they run, what wakes them, the webhooks' intake (`jobs/job-host.ts`). */
  jobs: JobHost;
  /** Starts Slack's transport, then the jobs (unless `jobsWhenAsked`); resolves with the HTTP port. */
  start(): Promise<number>;
  /**
   * Stops taking work (Slack's requests, claims, runs), lets what is in flight finish until `deadline`
   * (epoch ms; none: waits for all of it), then releases what is left; resolves with what that is.
   */
  stop(o?: { deadline?: number }): Promise<LeftForNextStart>;
}

/** Builds the services, the publisher, the Bolt app, the webhook route and (on start) the jobs, once each. */
export function createConfdesk(given: ConfdeskOptions): Confdesk {
  // Every writer below uses the store through `wakes`: the idle jobs hear what gives them work.
  const written = wakeOnWrites(given.store);
  const o = { ...given, store: written.store };
  const now = o.now ?? (() => new Date());
  const { botToken, apiUrl } = o.slack;
  const metrics = o.metrics?.registry.workspace(o.workspace ?? '');
  // The services' and the publisher's own Web API client (Bolt's listeners use Bolt's for acks and
  // views), and the jobs' client that never retries a post blindly.
  const target = { token: botToken, apiUrl, onRateLimited: metrics && (() => metrics.rateLimited('slack')) };
  const web = retryingClient(target);
  const slackAccess = new SlackAccess({
    slack: deliveryClient(target),
    store: o.store,
    logger: o.logger.child({ component: 'slack-access' }),
  });
  if (metrics) {
    o.platform.instrument(metrics);
    // Read at scrape time: one grouped store query, the budget's counters, the token's state.
    metrics.watch({
      outbox: () => o.store.outboxDepth(),
      budget: o.platform.budget,
      tokenRefused: () => slackAccess.problem() !== undefined,
    });
  }
  // The pickers: the enterprise's people and groups in memory, for the type-ahead menus.
  const directory = new Directory(o.platform);
  const identity = new IdentityService(web, o.platform, Date.now, directory, o.store);
  const access = new AccessService(identity, o.distribution?.rules);
  const tickets = new TicketService(o.platform, identity, access, directory, o.distribution?.defaults);
  const conferences = new ConferenceService(o.platform, identity, access, now, o.distribution?.defaults);
  const digests = new DigestService(o.platform, o.store);
  // The cards' and other people's Homes' background updates have a client of their own: its 429s
  // never pause the one that answers people.
  const background = deliveryClient(target);
  const homes = new HomeScreens({
    slack: web,
    background,
    home: new HomeService({
      access,
      tickets,
      conferences,
      digests,
      store: o.store,
      // The directory has them (loaded in the background lane, refreshed every 15 minutes).
      counts: async () => {
        const d = directory.snapshot() ?? (await directory.refresh());
        return { users: d.byId.size, groups: d.groupById.size };
      },
      doctor: o.slack.doctor,
      // Reminders' settings only where reminders run (REMINDER_INTERVAL=0 turns them off).
      reminders: o.jobs?.reminderScanMs ? o.store : undefined,
      now,
    }),
    // Each person's Home in their language, from their cached Slack profile (no platform request).
    locale: (user) => identity.locale(user),
    logger: o.logger.child({ component: 'home' }),
  });
  // Each channel's Slack pace, shared by people's posts and delivery's (people first).
  const pace = new ChannelPace(o.jobs?.paceMs);
  const publisher = new SlackPublisher({
    slack: web,
    pace,
    backgroundSlack: background,
    // Benchmarks that run time faster give Slack's pace the same speed.
    cardUpdatesPerMinute: 40 * (o.jobs?.timeScale ?? 1),
    store: o.store,
    tickets,
    logger: o.logger.child({ component: 'publisher' }),
    homes,
    channelLocale: o.channelLocale,
    // A job's notice is a DM: in its person's language, from their cached Slack profile.
    personLocale: (user) => personLocale((u) => identity.locale(u), user),
  });
  const deps: Deps = {
    locales: {
      channel: o.channelLocale ?? 'en',
      person: (user) => personLocale((u) => identity.locale(u), user),
    },
    identity,
    access,
    tickets,
    conferences,
    homes,
    digests,
    schedules: new DigestScheduleService(o.store, now),
    subscriptions: new SubscriptionService(o.store),
    publisher,
    store: o.store,
    logger: o.logger,
    now,
    doctor: o.slack.doctor,
    people: new PeopleService(o.platform, access, now, () => directory.invalidate()),
    waitMs: () => o.platform.estimateWaitMs('interactive'),
    directory,
    media: new MediaService(o.platform, identity, access),
    links: new IdentityLinkService(access, identity, o.store, o.platform, directory, now),
    forgetWorkspace: o.distribution?.forget,
    unfurls: new UnfurlService({
      platform: o.platform,
      access,
      store: o.store,
      patterns: o.unfurlPatterns ?? {},
    }),
    receipts: o.store,
    reactions: o.reactions,
  };

  const jobs = new JobHost({
    pace: o.jobs,
    parts: {
      store: o.store,
      logger: o.logger,
      slack: target,
      channelPace: pace,
      publisher,
      slackAccess,
      metrics,
      platform: o.platform,
      tickets,
      access,
      digests,
      directory,
      channelLocale: o.channelLocale,
    },
    writes: written,
    whenAsked: o.jobsWhenAsked,
    writesElsewhere: o.writesElsewhere,
  });
  const webhook = o.webhook
    ? webhookHandler({
        ...o.webhook,
        logger: o.logger.child({ component: 'webhooks' }),
        onSignal: (signal) => jobs.onWebhook(signal),
        store: o.store,
        findings: o.platform.findings,
        metrics,
      })
    : undefined;
  const routes =
    webhook && !o.slack.receiver ? [{ path: '/webhooks/platform', method: ['POST'], handler: webhook }] : [];
  const route = o.metrics?.route;
  if (o.metrics && route) routes.push(metricsRoute(o.metrics.registry, route.token));
  const slack = createSlackApp({ ...o.slack, logger: o.logger, deps, routes, metrics });

  return {
    deps,
    slack,
    slackAccess,
    webhook,
    jobs,
    async start() {
      const port = await slack.start();
      jobs.start();
      return port;
    },
    async stop({ deadline = Number.POSITIVE_INFINITY } = {}) {
      const left = await jobs.stop(deadline, () => slack.stop());
      metrics?.close();
      return left;
    },
  };
}
