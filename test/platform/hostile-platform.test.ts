import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { PlatformProbe } from '../../src/doctor/platform-probe.js';
import {
  createPlatformClient,
  maxJsonBytes,
  maxRedirects,
  type PlatformClient,
} from '../../src/platform/client.js';
import {
  PlatformAddressError,
  PlatformNetworkError,
  PlatformResponseError,
} from '../../src/platform/errors.js';
import { platformAgent } from '../../src/platform/proxy.js';
import { createSimulator, noHostility, type Simulator } from '../../src/sim/server.js';
import { platformClientFor } from '../../src/startup/platform-client.js';
import { type Canary, startCanary } from '../helpers/canary.js';

/*
 * The platform's answers are outside input: a hostile platform (the simulator's hostile mode) points
 * the client at this host's network, redirects there, sends bodies without length, huge or slow. A
 * canary on loopback stands for what lives inside; it must see nothing, least of all the token.
 */

let sim: Simulator;
let canary: Canary;
let client: PlatformClient;
const clients: PlatformClient[] = [];

/** A client of the simulator as the bot builds one (the operator's PLATFORM_URL unless `reach` says otherwise). */
function clientOf(
  baseUrl: string,
  options: Parameters<typeof createPlatformClient>[0] extends infer O ? Partial<O> : never = {},
) {
  const c = createPlatformClient({
    baseUrl,
    credentials: { kind: 'token', token: sim.adminToken },
    rateLimitPerMinute: 10_000,
    backoffBaseMs: 10,
    ...options,
  });
  clients.push(c);
  return c;
}

const firstTicket = () => [...sim.state.tickets.values()][0]?.id as number;
const firstMedia = () =>
  [...sim.state.medias.values()][0] as NonNullable<ReturnType<typeof sim.state.medias.get>>;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 0 });
  canary = await startCanary();
  client = clientOf(sim.url);
});
afterEach(() => {
  sim.setHostility(noHostility);
  expect(canary.connections, 'the canary saw a connection').toBe(0);
  expect(canary.requests).toEqual([]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await canary.close();
  await sim.close();
});

describe('a hostile platform’s addresses', () => {
  it('an export whose url is on this host’s network is refused before any connection', async () => {
    for (const url of [
      `${canary.url}/exports/1`, // another port of the platform's own loopback host
      `http://localhost:${canary.port}/exports/1`,
      `http://[::ffff:7f00:1]:${canary.port}/x`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      `http://[64:ff9b::a9fe:a9fe]/latest/meta-data/`,
      `https://[2002:a00:1::1]/x`,
      `file:///etc/passwd`,
    ]) {
      sim.setHostility({ exportUrl: url });
      const resource = await client.exportTicket({ ticketId: firstTicket(), format: 'json' });
      expect(resource.url).toBe(url);
      const error = await failure(client.downloadUrl(resource.url as string));
      expect(error, url).toBeInstanceOf(PlatformAddressError);
      expect((error as PlatformAddressError).userMessage).toMatch(/does not fetch from/);
    }
  });

  it('a download redirected inside is refused at the redirect, and the token never leaves the platform', async () => {
    for (const location of [
      `${canary.url}/media`,
      `http://localhost:${canary.port}/media`,
      `//127.0.0.1:${canary.port}/media`,
      'http://10.0.0.1/',
    ]) {
      sim.setHostility({ redirectDownloads: location });
      const error = await failure(client.downloadMedia({ mediaId: firstMedia().id }));
      expect(error, location).toBeInstanceOf(PlatformAddressError);
    }
  });

  it('follows at most a few redirects, each one checked again', async () => {
    const before = sim.requests.length;
    const own = `${sim.url}/api/v3/medias/${firstMedia().id}/download`;
    sim.setHostility({ redirectDownloads: own }); // every hop answers the same redirect
    const error = await failure(client.downloadMedia({ mediaId: firstMedia().id }));
    expect(error).toBeInstanceOf(PlatformAddressError);
    expect((error as PlatformAddressError).problem).toBe(`more than ${maxRedirects} redirects`);
    expect(sim.requests.length - before).toBe(maxRedirects + 1);
  });

  it('a workspace’s platform (distribution mode) reaches no other host, even one PLATFORM_HOSTS does not name', async () => {
    // The workspace's platform is `localhost`, allowed by the operator; the canary is on 127.0.0.1.
    const port = new URL(sim.url).port;
    const tenant = clientOf(`http://localhost:${port}`, {
      reach: { allowedHosts: ['localhost'], operatorConfigured: false },
    });
    expect((await tenant.getMe()).username).toBe('admin');
    sim.setHostility({ exportUrl: `${canary.url}/exports/1` });
    const resource = await tenant.exportTicket({ ticketId: firstTicket(), format: 'json' });
    const error = await failure(tenant.downloadUrl(resource.url as string));
    expect(error).toBeInstanceOf(PlatformAddressError);
    expect((error as PlatformAddressError).problem).toMatch(/PLATFORM_HOSTS/);
  });

  it('a workspace’s platform address that resolves inside when connecting is refused then (DNS rebinding)', async () => {
    // Saved while public; now `localhost`'s answer is what a rebinding name would give.
    const tenant = clientOf(`https://localhost:${canary.port}`, { reach: { operatorConfigured: false } });
    const error = await failure(tenant.getMe());
    expect(error).toBeInstanceOf(PlatformAddressError);
    expect((error as PlatformAddressError).problem).toBe('not a public address');
    // An IP literal never goes through a DNS lookup: the connector judges it as is.
    const agent = platformAgent({}, undefined, {
      baseUrl: `https://127.0.0.1:${canary.port}`,
      allowedHosts: [],
      operatorConfigured: false,
    });
    const direct = await failure(request(`https://127.0.0.1:${canary.port}/`, { dispatcher: agent }));
    await agent.close();
    expect(direct).toMatchObject({ code: 'ERR_CONFDESK_ADDRESS_REFUSED' });
  });
});

describe('the doctor’s probe of a workspace’s platform', () => {
  it('passes the same guard: the raw answers it shows never come from inside', async () => {
    const probe = new PlatformProbe({
      baseUrl: `https://localhost:${canary.port}`,
      reach: { allowedHosts: [], operatorConfigured: false },
    });
    const answer = await probe.send('getMe', {}, sim.adminToken);
    await probe.close();
    expect(answer).toMatchObject({ ok: false, status: 0, code: 'ERR_CONFDESK_ADDRESS_REFUSED' });
  });
});

describe('a file host the operator allowed', () => {
  let files: Server;
  let filesUrl: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    files = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('the exported file');
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://localhost:${(files.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => files.close(() => resolve())));

  it('gets the download through the redirect, without the platform’s token', async () => {
    const tenant = clientOf(sim.url, { reach: { allowedHosts: ['localhost'] } });
    sim.setHostility({ redirectDownloads: `${filesUrl}/store/export-1` });
    const file = await tenant.downloadMedia({ mediaId: firstMedia().id });
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('the exported file');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(sim.adminToken);
  });
  it('one workspace reads PLATFORM_HOSTS too: the start path’s client fetches an export from that host, and only with it', async () => {
    const startClient = (env: Record<string, string>) => {
      const config = loadConfig({ PLATFORM_URL: sim.url, PLATFORM_TOKEN: sim.adminToken, ...env });
      expect(config.distribution).toBeUndefined();
      const c = platformClientFor(config, {
        baseUrl: sim.url,
        credentials: { kind: 'token', token: sim.adminToken },
      });
      clients.push(c);
      return c;
    };
    sim.setHostility({ exportUrl: `${filesUrl}/exports/1` });
    const before = seen.length;
    const refused = await failure(startClient({}).downloadUrl(`${filesUrl}/exports/1`));
    expect(refused).toBeInstanceOf(PlatformAddressError);
    expect(seen.length).toBe(before);
    const allowed = startClient({ PLATFORM_HOSTS: 'localhost' });
    const resource = await allowed.exportTicket({ ticketId: firstTicket(), format: 'json' });
    const file = await allowed.downloadUrl(resource.url as string);
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('the exported file');
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });
});

describe('a hostile platform’s bodies', () => {
  it('a download without Content-Length streams whole, its length unknown', async () => {
    sim.setHostility({ withoutLength: true });
    const m = firstMedia();
    const file = await client.downloadMedia({ mediaId: m.id });
    expect(file.contentLength).toBeUndefined();
    let size = 0;
    for await (const chunk of file.body) size += (chunk as Buffer).length;
    expect(size).toBe(sim.state.mediaSize(m));
  });

  it('a JSON answer larger than the cap is refused as it streams, never held whole', async () => {
    sim.setHostility({ hugeJsonBytes: maxJsonBytes + 1024 * 1024 });
    const rss = process.memoryUsage().rss;
    const error = await failure(client.getMe({}, { fresh: true }));
    expect(error).toBeInstanceOf(PlatformResponseError);
    expect((error as PlatformResponseError).userMessage).toMatch(/larger than 8 MB/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    // Padded below the cap, the answer is read (its unknown field ignored).
    sim.setHostility({ hugeJsonBytes: 1024 * 1024 });
    expect((await client.getMe({}, { fresh: true })).username).toBe('admin');
  });

  it('a JSON answer that trickles is given up after the body deadline, however steady its bytes', async () => {
    const slow = clientOf(sim.url, { timeouts: { bodyMs: 300 }, maxAttempts: 2 });
    sim.setHostility({ trickleMs: 40 }); // 16 bytes every 40 ms: never idle, a few KB take seconds
    const started = Date.now();
    const error = await failure(slow.getMe({}, { fresh: true }));
    expect(error).toBeInstanceOf(PlatformNetworkError);
    expect((error as PlatformNetworkError).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
