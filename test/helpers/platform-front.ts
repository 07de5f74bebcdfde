import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What one answer's body meets on its way to the bot. `length: false` drops Content-Length (the body
 * goes chunked); otherwise the simulator's length is announced. `cut` closes the connection (FIN)
 * after `afterBytes`; `reset` resets it (RST); `stall` sends nothing more and keeps it open;
 * `trickle` sends it whole, `chunkBytes` every `everyMs`; `longer` sends `extraBytes` more than it
 * announces.
 */
export type BodyFault = { length?: boolean } & (
  | { kind: 'as-is' }
  | { kind: 'cut'; afterBytes: number }
  | { kind: 'reset'; afterBytes: number }
  | { kind: 'stall'; afterBytes: number }
  | { kind: 'trickle'; chunkBytes: number; everyMs: number }
  | { kind: 'longer'; extraBytes: number }
);

/** Hop-by-hop and length headers: the front sets its own. */
const notForwarded = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * A hostile front for the simulator, on loopback: the bot takes it for the platform. Every request
 * is passed on to the simulator; JSON answers come back with the simulator's address replaced by the
 * front's (an export's `url` stays on the platform the bot knows), after a queued edit if one
 * matches; the next answers whose path matches a queued fault get their body mangled at the socket
 * level, which the simulator cannot express: a connection cut or reset mid-body, a stall, a trickle,
 * more bytes than announced.
 */
export async function startPlatformFront(upstream: () => string) {
  const faults: { path: RegExp; fault: BodyFault; met?: Socket }[] = [];
  const edits: { path: RegExp; edit: (json: unknown) => void }[] = [];
  const sockets = new Set<Socket>();
  const next = <T extends { path: RegExp }>(list: T[], path: string): T | undefined => {
    const i = list.findIndex((x) => x.path.test(path));
    return i >= 0 ? list.splice(i, 1)[0] : undefined;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', upstream());
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const out = httpRequest(target, { method: req.method, headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          let bytes = Buffer.concat(body);
          // A download (an export's JSON file) is the file itself: passed on as it is.
          const file = String(answer.headers['content-disposition']).startsWith('attachment');
          if (!file && String(answer.headers['content-type']).includes('json')) {
            let text = bytes.toString('utf8');
            const edit = next(edits, target.pathname);
            if (edit) {
              const json = JSON.parse(text) as unknown;
              edit.edit(json);
              text = JSON.stringify(json);
            }
            bytes = Buffer.from(text.replaceAll(upstream(), front.url));
          }
          const queued = next(faults, target.pathname);
          if (queued) queued.met = res.socket as Socket;
          const fault = queued?.fault;
          const shown: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(answer.headers))
            if (v !== undefined && !notForwarded.has(k)) shown[k] = v;
          if (fault?.length !== false) shown['content-length'] = String(bytes.length);
          if (fault?.kind === 'longer') {
            // The body and more, through the answer (Node holds an answer to its Content-Length only
            // when told to), on a connection that then closes: no later request reads the rest as its
            // answer. Written through `res`, the server's state stays whole: an answer written past it
            // on the socket was never finished, and the next request on that connection had its answer
            // queued behind it, without a socket.
            res.writeHead(answer.statusCode ?? 502, { ...shown, connection: 'close' });
            res.end(Buffer.concat([bytes, Buffer.alloc(fault.extraBytes, 0x78)]));
            return;
          }
          res.writeHead(answer.statusCode ?? 502, shown);
          send(res, bytes, fault ?? { kind: 'as-is' });
        });
      });
      out.on('error', () => res.destroy());
      out.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const front = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /**
     * The next answer whose path matches `path` meets `fault` (queued faults apply in order). Answers
     * whether that answer's connection is closed now (the bot gave the download up, or it ended so).
     */
    fault(path: RegExp, fault: BodyFault): { closed: () => boolean } {
      const queued: (typeof faults)[number] = { path, fault };
      faults.push(queued);
      return { closed: () => queued.met?.destroyed === true };
    },
    /** The next JSON answer whose path matches `path` is changed by `edit` (in place) first. */
    editJson(path: RegExp, edit: (json: unknown) => void): void {
      edits.push({ path, edit });
    },
    /** Faults and edits queued and not met yet. */
    pending: () => faults.length + edits.length,
    /** Connections open to the front now (a download the bot gave up on closes its own). */
    open: () => sockets.size,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
  return front;
}

export type PlatformFront = Awaited<ReturnType<typeof startPlatformFront>>;

/** Writes `bytes` to an answer whose headers are out, as `fault` says. */
function send(res: ServerResponse, bytes: Buffer, fault: BodyFault): void {
  // The answer's socket once its bytes are out (null if the connection is gone by then).
  const socket = () => res.socket as Socket | null;
  switch (fault.kind) {
    case 'cut':
    case 'stall':
      // Once the first bytes have left, the connection ends (FIN), or nothing more ever comes.
      res.write(bytes.subarray(0, fault.afterBytes), () => {
        if (fault.kind === 'cut') socket()?.destroySoon();
      });
      break;
    case 'reset':
      // The bot has read the answer's start before the reset (an RST can drop unread bytes).
      res.write(bytes.subarray(0, fault.afterBytes), () => setTimeout(() => socket()?.resetAndDestroy(), 50));
      break;
    case 'trickle': {
      let at = 0;
      const drip = () => {
        if (socket()?.destroyed !== false) return;
        if (at >= bytes.length) {
          res.end();
          return;
        }
        res.write(bytes.subarray(at, at + fault.chunkBytes));
        at += fault.chunkBytes;
        setTimeout(drip, fault.everyMs);
      };
      drip();
      break;
    }
    default:
      res.end(bytes);
  }
}
