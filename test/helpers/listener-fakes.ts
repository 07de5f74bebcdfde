import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import type { Reply } from '../../src/blocks/kit.js';
import type { Locale } from '../../src/i18n/locale.js';
import { createLogger } from '../../src/observability/logger.js';
import type { PlatformClient } from '../../src/platform/client.js';
import { AccessService } from '../../src/services/access.js';
import { ConferenceService } from '../../src/services/conferences.js';
import { Directory } from '../../src/services/directory.js';
import { IdentityService } from '../../src/services/identity.js';
import { MediaService } from '../../src/services/media.js';
import { PeopleService } from '../../src/services/people.js';
import { TicketService } from '../../src/services/tickets.js';
import type {
  ConferenceDeps,
  MediaDeps,
  StepDeps,
  TicketFormDeps,
  ViewSubmission,
} from '../../src/slack/deps.js';
import type { Click } from '../../src/slack/runtime/action-routes.js';
import { personLocale } from '../../src/slack/runtime/person-locale.js';
import type { StepArgs } from '../../src/slack/runtime/step-runner.js';
import type { TicketCardLink } from '../../src/store/ticket-cards.js';
import { botNow, people } from './people.js';
import { type PlatformFixture, startPlatform } from './platform.js';

/*
 * Fakes for calling a listener as a function (Slack's starter template's `tests/helpers`): Slack's Web
 * API client, `ack` and `respond` record what they are given; the services are the real ones over
 * the platform simulator (`startPlatform`).
 */

export const silent = createLogger('silent');

/** The platform simulator and a client signed in as its admin, for a test file: started before its tests, closed after. */
export function usePlatform(): PlatformFixture {
  const platform = {} as PlatformFixture;
  beforeAll(async () => {
    Object.assign(platform, await startPlatform());
  });
  afterAll(() => platform.close());
  return platform;
}

/** A logger that keeps its lines, parsed. */
export function keptLog() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

type Args = Record<string, unknown>;

/**
 * A Web API client that records every call and answers `{ok: true}`: modals get an id, `users.info`
 * answers the test people (`people.ts`). `answers` overrides a method's answer (throw to fail it).
 */
export function fakeSlack(answers: Record<string, (args: Args) => Args> = {}) {
  const calls: { method: string; args: Args }[] = [];
  let views = 0;
  const modal = (a: Args) => ({ view: { ...(a.view as Args), id: a.view_id ?? `V${++views}` } });
  const known: Record<string, (args: Args) => Args> = {
    'views.open': modal,
    'views.push': modal,
    'views.update': modal,
    'users.info': (a) => {
      const p = Object.values(people).find((x) => x.id === a.user);
      return { user: p && { id: p.id, tz: p.tz, profile: p.email ? { email: p.email } : {} } };
    },
    ...answers,
  };
  const family = (name: string) =>
    new Proxy(
      {},
      {
        get:
          (_, m) =>
          async (args: Args = {}) => {
            const method = `${name}.${String(m)}`;
            calls.push({ method, args });
            return { ok: true, ...known[method]?.(args) };
          },
      },
    );
  const client = new Proxy({}, { get: (_, f) => (f === 'then' ? undefined : family(String(f))) });
  return {
    client: client as WebClient,
    calls,
    /** The arguments of each call of `method`, in order. */
    callsOf: (method: string) => calls.filter((c) => c.method === method).map((c) => c.args),
  };
}
export type FakeSlack = ReturnType<typeof fakeSlack>;

/**
 * Waits for what a listener does after its ack (detached work): `check` passes within 10 s. A busy
 * machine can take more than `vi.waitFor`'s default second.
 */
export const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

/**
 * The `views.update` calls (of the modal `viewId`, when given), once the work after the ack made
 * `count` of them (one by default).
 */
export async function viewUpdates(slack: FakeSlack, o: { viewId?: string; count?: number } = {}) {
  const of = () =>
    slack.callsOf('views.update').filter((u) => o.viewId === undefined || u.view_id === o.viewId);
  await eventually(() => expect(of().length).toBeGreaterThanOrEqual(o.count ?? 1));
  return of();
}

/** The private_metadata of the view a `views.*` call carried, parsed. */
export const metadataOf = (args: Args | undefined): unknown =>
  JSON.parse(String((args?.view as Args | undefined)?.private_metadata));

/** A dependency the listener under test must not touch: any use of it throws, naming it. */
export function notUsed<T>(name: string): T {
  return new Proxy(
    {},
    {
      get: (_, key) => {
        // Not a use: what `await` and printing a value look for.
        if (key === 'then' || typeof key === 'symbol') return undefined;
        throw new Error(`${name}.${String(key)} was used`);
      },
    },
  ) as T;
}

/** A `respond` (or `ack`) that keeps what it was given (`undefined` for an empty ack). */
export function recorder<T = Reply>() {
  const given: (T | undefined)[] = [];
  const fn = async (message?: T) => {
    given.push(message);
  };
  return { fn, given, text: () => given.map((g) => JSON.stringify(g)).join('\n') };
}

/** A click as `ActionRoutes` hands it to a handler: on a message unless `view` says a modal. */
export function click(slack: FakeSlack, o: Partial<Click> & { user: string; value?: string }) {
  const replies = recorder();
  const c: Click = {
    team: 'T1',
    actionId: 'test',
    value: '',
    channel: 'C1',
    container: { channel: 'C1', ts: '1.000001', isEphemeral: false },
    triggerId: 'trigger',
    surface: o.view ? 'modal' : 'message',
    responseUrl: 'https://hooks.slack.test/response',
    client: slack.client,
    respond: replies.fn,
    log: silent,
    ...o,
  };
  return { c, replies };
}

/** A view submission's listener arguments: the view's id, metadata and state, and a recording `ack`. */
export function submitted(
  slack: FakeSlack,
  o: {
    user: string;
    values?: Args;
    metadata?: string | undefined;
    callbackId?: string;
    viewId?: string;
  },
) {
  const acks = recorder<Args>();
  const args = {
    ack: acks.fn,
    body: { user: { id: o.user }, team: { id: 'T1' } },
    view: {
      id: o.viewId ?? 'VFORM',
      callback_id: o.callbackId ?? 'form',
      private_metadata: o.metadata ?? '',
      state: { values: o.values ?? {} },
    },
    client: slack.client,
  };
  return { args: args as unknown as ViewSubmission, acks };
}

/** A slash command's listener arguments (Bolt's), with a recording `ack` and `respond`. */
export function slash(
  slack: FakeSlack,
  o: { user: string; text: string; command?: string; channel?: string },
) {
  const acks = recorder<Args>();
  const replies = recorder();
  const args = {
    ack: acks.fn,
    respond: replies.fn,
    client: slack.client,
    command: {
      command: o.command ?? '/conference',
      text: o.text,
      user_id: o.user,
      team_id: 'T1',
      channel_id: o.channel ?? 'C1',
      trigger_id: 'trigger',
      response_url: 'https://hooks.slack.test/command',
    },
  };
  return { args: args as unknown as SlackCommandMiddlewareArgs & AllMiddlewareArgs, acks, replies };
}

/** The services as the composition root builds them, over `platform`, with `slack` for Slack's profiles. */
export function services(platform: PlatformClient, slack: FakeSlack) {
  const now = () => botNow;
  const directory = new Directory(platform);
  const identity = new IdentityService(slack.client, platform, Date.now, directory);
  const access = new AccessService(identity);
  return {
    directory,
    identity,
    access,
    tickets: new TicketService(platform, identity, access, directory),
    conferences: new ConferenceService(platform, identity, access, now),
    people: new PeopleService(platform, access, now, () => directory.invalidate()),
    media: new MediaService(platform, identity, access),
    logger: silent,
    now,
    waitMs: () => 0,
    // English channels; each person's language from their Slack profile, as confdesk.ts asks it.
    locales: {
      channel: 'en' as Locale,
      person: (user: string) => personLocale((u) => identity.locale(u), user),
    },
  };
}

/** A failed Web API call as @slack/web-api throws it when Slack answers `{ok: false, error: code}`. */
export function slackRefusal(code: string): Error {
  return Object.assign(new Error(`An API error occurred: ${code}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error: code },
  });
}

/**
 * The ticket listeners' deps: the real services; the cards the bot posted (`cards`) in memory; a
 * publisher that keeps what it was asked to post (`published`) and posts a card as `C…/<n>.000000`.
 */
export function ticketDeps(platform: PlatformClient, slack: FakeSlack, cards: TicketCardLink[] = []) {
  const published: { what: string; args: unknown[] }[] = [];
  const keep =
    (what: string, answer?: (...args: unknown[]) => unknown) =>
    async (...args: unknown[]) => {
      published.push({ what, args });
      return answer?.(...args);
    };
  const deps: TicketFormDeps & Pick<MediaDeps, 'media' | 'locales'> = {
    ...services(platform, slack),
    subscriptions: notUsed('subscriptions'),
    store: {
      save: async (link) => void cards.push(link),
      find: async (ticketId, channel) => cards.find((c) => c.ticketId === ticketId && c.channel === channel),
      forTicket: async (ticketId) => cards.filter((c) => c.ticketId === ticketId),
      at: async (channel, ts) => cards.find((c) => c.channel === channel && c.ts === ts),
    },
    publisher: {
      postCard: keep('postCard', () => `${published.length}.000000`),
      showCard: keep('showCard'),
      permalink: keep('permalink', (place) => `https://acme.slack.test/${(place as TicketCardLink).ts}`),
      postInThread: keep('postInThread'),
      ticketChanged: keep('ticketChanged'),
    } as unknown as TicketFormDeps['publisher'],
  };
  return { deps, cards, published };
}

/** The conference listeners' deps: the real services; a publisher that keeps what it was asked (`published`). */
export function conferenceDeps(platform: PlatformClient, slack: FakeSlack) {
  const published: { what: string; args: unknown[] }[] = [];
  const keep =
    (what: string) =>
    (...args: unknown[]) => {
      published.push({ what, args });
      // A posted card's place (`C…/<n>.000000`, as ticketDeps' cards).
      return Promise.resolve(`${published.length}.000000`);
    };
  const base = services(platform, slack);
  const deps: ConferenceDeps & MediaDeps = {
    ...base,
    locales: { channel: 'en', person: (user) => base.identity.locale(user) },
    schedules: notUsed('schedules'),
    digests: notUsed('digests'),
    publisher: {
      postConferenceCard: keep('postConferenceCard'),
      showConferenceCard: async (...args: unknown[]) => void (await keep('showConferenceCard')(...args)),
      conferenceChanged: (...args: unknown[]) => void keep('conferenceChanged')(...args),
    },
  };
  return { deps, published };
}

/** Slack's upload URL of the files upload flow, on loopback, for a test file: `received()` counts the bytes posted to it. */
export function useUploadTarget() {
  let received = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    req.on('end', () => res.writeHead(200).end('OK'));
  });
  const target = { url: '', received: () => received };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return target;
}

/** A `user_context` input as Slack fills it (Workflow Builder has no field for it): the person and Slack's secret. */
export const userContext = (user: string) => ({ id: user, secret: `slack-checked-${user}` });

/**
 * A `function_executed` event's listener arguments (a Workflow Builder step), with recording
 * `complete` and `fail` (what Bolt sends as `functions.completeSuccess` / `completeError`).
 */
export function stepRun(slack: FakeSlack, o: { callbackId: string; inputs: Record<string, unknown> }) {
  const completed: Record<string, unknown>[] = [];
  const failed: string[] = [];
  const event = {
    type: 'function_executed',
    function: { id: 'Fn0001', callback_id: o.callbackId, title: o.callbackId, app_id: 'A1' },
    inputs: o.inputs,
    function_execution_id: 'Fx0001',
    workflow_execution_id: 'Wx0001',
    event_ts: '1.000001',
    bot_access_token: 'xwfp-step',
  };
  const complete = Object.assign(
    async (p: { outputs?: Record<string, unknown> } = {}) => {
      completed.push(p.outputs ?? {});
      return { ok: true };
    },
    { hasBeenCalled: () => completed.length > 0 },
  );
  const fail = Object.assign(
    async (p: { error: string }) => {
      failed.push(p.error);
      return { ok: true };
    },
    { hasBeenCalled: () => failed.length > 0 },
  );
  const args = {
    event,
    payload: event,
    body: { type: 'event_callback', team_id: 'T1', event },
    inputs: o.inputs,
    complete,
    fail,
    ack: async () => undefined,
    client: slack.client,
    logger: silent,
    context: {},
  };
  return { args: args as unknown as StepArgs, completed, failed };
}

/** The steps' deps: the real services over `platform`; a publisher like `ticketDeps`' (cards `C…/<n>.000000`). */
export function stepDeps(platform: PlatformClient, slack: FakeSlack) {
  const t = ticketDeps(platform, slack);
  const c = conferenceDeps(platform, slack);
  const watched: unknown[][] = [];
  const taken = new Set<string>();
  const deps: StepDeps = {
    ...t.deps,
    receipts: { firstDelivery: async (id) => !taken.has(id) && Boolean(taken.add(id)) },
    conferences: c.deps.conferences,
    subscriptions: {
      watch: async (...a: unknown[]) => void watched.push(a),
    } as unknown as StepDeps['subscriptions'],
    publisher: {
      ...(t.deps.publisher as unknown as Record<string, unknown>),
      postConferenceCard: c.deps.publisher.postConferenceCard,
    } as unknown as StepDeps['publisher'],
  };
  return { deps, published: t.published, conferenceCards: c.published, watched, cards: t.cards };
}
