import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { version } from '../observability/version.js';

/**
 * What answers on PORT while the start waits for Slack to answer `auth.test`: `/healthz` 200 (the
 * process is alive and trying: a supervisor must not restart it), `/readyz` 503 with the reason, and
 * 503 for anything else (Slack retries its own requests). The app's server takes the port once Slack
 * answers; this one is closed just before.
 */
export interface WaitingServer {
  /** The port it listens on (the one PORT=0 got: the app's server listens on the same). */
  port: number;
  close(): Promise<void>;
}

export async function serveWhileWaiting(o: {
  port: number;
  host: string | undefined;
  /** The sentence `/readyz` gives, read at each request (it changes with each attempt). */
  problem: () => string;
}): Promise<WaitingServer> {
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = createServer((req, res) => {
    // The body (if any) is not read: it is dropped with the connection's end.
    req.resume();
    const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    if (route === 'GET /healthz') json(res, 200, { ok: true });
    else if (route === 'GET /readyz')
      json(res, 503, { ok: false, version, checks: { slack: { ok: false, problem: o.problem() } } });
    else json(res, 503, { ok: false, error: 'starting: waiting for Slack' });
  });
  // A connection reset by a client must not reach the process as an unhandled 'error'.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if (o.host) server.listen(o.port, o.host, ready);
    else server.listen(o.port, ready);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the probes would hold the port: they end now.
        server.closeAllConnections();
      }),
  };
}

/** The pause before the next try: 1 s, doubling, at most `capMs` (30 s), give or take a fifth. */
export function retryDelayMs(attempt: number, capMs = 30_000): number {
  const base = Math.min(capMs, 1_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
