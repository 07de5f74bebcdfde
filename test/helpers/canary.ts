import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A listener on loopback standing for what lives inside the bot's network (a database's admin page,
 * the cloud's metadata service): a hostile platform points the bot at it, and it must see nothing —
 * no connection, no request, never the platform's token. It answers like an inviting target would.
 */
export interface Canary {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** TCP connections it accepted (a refused address never gets this far). */
  connections: number;
  /** The requests it got: path and headers. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const sockets = new Set<Socket>();
  const canary = {
    url: '',
    port: 0,
    connections: 0,
    requests: [] as Canary['requests'],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    canary.requests.push({ path: req.url ?? '', headers: req.headers });
    res
      .writeHead(200, { 'content-type': 'text/plain', 'content-length': '22' })
      .end('secret internal answer');
  });
  server.on('connection', (socket) => {
    canary.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  canary.port = (server.address() as AddressInfo).port;
  canary.url = `http://127.0.0.1:${canary.port}`;
  return canary;
}
