import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/observability/metrics.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import { PlatformHttpError, PlatformNetworkError, PlatformResponseError } from '../../src/platform/errors.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';
import { type PlatformFront, startPlatformFront } from '../helpers/platform-front.js';

/*
 * Answers the platform breaks, through the hostile front, and what the person is then told, true
 * each time: a JSON answer that breaks after its headers (the connection reset or cut mid-body) is
 * a network failure, retried as its method allows, never read as an empty answer; an answer not of
 * the shape expected is logged and counted, as its sentence says.
 */

let fx: PlatformFixture;
let front: PlatformFront;
let client: PlatformClient;
const metrics = new Metrics();
const warnings: { obj: object; msg: string | undefined }[] = [];

beforeAll(async () => {
  fx = await startPlatform();
  front = await startPlatformFront(() => fx.sim.url);
  client = createPlatformClient({
    baseUrl: front.url,
    credentials: { kind: 'token', token: fx.sim.adminToken },
    rateLimitPerMinute: 10_000,
    backoffBaseMs: 10,
    logger: { debug: () => {}, info: () => {}, warn: (obj, msg) => warnings.push({ obj, msg }) },
  });
  client.instrument(metrics.workspace('T1'));
});
afterAll(async () => {
  await client.close();
  await front.stop();
  await fx.close();
});

const ticketId = () => [...fx.sim.state.tickets.keys()][0] as number;
const medias = (id: number) => new RegExp(`^/api/v3/tickets/${id}/medias$`);
const calls = (from: number, path: RegExp) =>
  fx.sim.requests
    .slice(from)
    .filter((r) => path.test(r.path))
    .map((r) => `${r.method} ${r.status}`);

describe('a JSON answer that breaks after its headers', () => {
  it.each([
    ['reset (RST)', 'reset'],
    ['cut (FIN)', 'cut'],
  ] as const)('%s: the ticket’s media list (a GET) is asked again and served', async (_, kind) => {
    const id = ticketId();
    const from = fx.sim.requests.length;
    warnings.length = 0;
    front.fault(medias(id), { kind, afterBytes: 20 });
    const page = await client.listTicketMedias({ ticketId: id });
    expect(Array.isArray(page.items)).toBe(true);
    expect(front.pending()).toBe(0);
    expect(calls(from, medias(id))).toEqual(['GET 200', 'GET 200']);
    expect(warnings.map((w) => w.msg)).toEqual(['platform answer broke off']);
  });

  it('a GET that breaks at every attempt ends as a network failure, told as the connection breaking', async () => {
    const id = ticketId();
    const from = fx.sim.requests.length;
    for (let i = 0; i < 3; i++) front.fault(medias(id), { kind: 'reset', afterBytes: 20 });
    const error = await client.listTicketMedias({ ticketId: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformNetworkError);
    expect((error as PlatformNetworkError).userMessage).toBe(
      'The connection to the video platform broke off during its answer. Please try again in a moment.',
    );
    expect(calls(from, medias(id))).toEqual(['GET 200', 'GET 200', 'GET 200']);
  });

  it('a POST whose answer breaks is not sent again, and the person is told it may be done', async () => {
    const id = ticketId();
    const path = new RegExp(`^/api/v3/tickets/${id}/export$`);
    const from = fx.sim.requests.length;
    const exports = fx.sim.state.exports.size;
    front.fault(path, { kind: 'cut', afterBytes: 20 });
    const error = await client.exportTicket({ ticketId: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformNetworkError);
    expect((error as PlatformNetworkError).reason).toBe('connection');
    expect((error as PlatformNetworkError).userMessage).toMatch(
      /broke off during its answer, so it may have done this already\. Please check before trying again\./,
    );
    expect(calls(from, path)).toEqual(['POST 200']);
    expect(fx.sim.state.exports.size).toBe(exports + 1);
  });
});

describe('an answer not of the shape expected', () => {
  const notUnderstood = async () =>
    (await metrics.text())
      .split('\n')
      .find((l) =>
        l.startsWith(
          'confdesk_platform_answers_not_understood_total{workspace="T1",operation="listTickets"}',
        ),
      );

  it('tells its person the team has been told, and makes it true: a warning line and a metric', async () => {
    warnings.length = 0;
    expect(await notUnderstood()).toBeUndefined();
    front.editJson(/^\/api\/v3\/tickets$/, (json) => {
      (json as { data: unknown }).data = 'not a list';
    });
    const error = await client.listTickets({ user: 'all' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformResponseError);
    expect((error as PlatformResponseError).userMessage).toMatch(/The team has been told\.$/);
    expect(warnings).toEqual([
      {
        obj: { op: 'listTickets', field: '', problem: 'Invalid input' },
        msg: 'platform answer not understood',
      },
    ]);
    // The field and zod's words, never the body (it may carry the person's data).
    expect(JSON.stringify(warnings)).not.toContain('not a list');
    expect(await notUnderstood()).toMatch(/ 1$/);
  });
});

describe('an API answer that redirects', () => {
  /** A platform whose API answers every request with `status` and `location` (none when undefined). */
  async function redirecting(status: number, location: string | undefined) {
    const server = createServer((_, res) => res.writeHead(status, location ? { location } : {}).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const redirected = createPlatformClient({ baseUrl: url, credentials: { kind: 'token', token: 'tok' } });
    try {
      return { url, error: await redirected.getMe().catch((e: unknown) => e) };
    } finally {
      await redirected.close();
      await new Promise((r) => server.close(r));
    }
  }

  it('is told as a redirect, naming where to by its host only (a path or query may carry a secret)', async () => {
    const { error } = await redirecting(302, 'https://login.example.com/sso?ticket=s3cret-ticket');
    expect(error).toBeInstanceOf(PlatformHttpError);
    const e = error as PlatformHttpError;
    expect(e.status).toBe(302);
    expect(e.userMessage).toBe(
      'The video platform redirected this request to login.example.com instead of answering it: an administrator should check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com).',
    );
    for (const said of [e.userMessage, e.message]) {
      expect(said).not.toMatch(/sso|s3cret|HTTP 302/);
    }
    expect(e.message).toBe('getMe: 302 Redirect to login.example.com');
  });

  it('a relative redirect names the platform’s own host; one without an address says so', async () => {
    const relative = await redirecting(301, '/login');
    expect((relative.error as PlatformHttpError).userMessage).toContain(
      `redirected this request to ${new URL(relative.url).host} instead`,
    );
    const nowhere = await redirecting(307, undefined);
    expect((nowhere.error as PlatformHttpError).userMessage).toMatch(
      /^The video platform redirected this request without saying where instead of answering it/,
    );
  });
});
