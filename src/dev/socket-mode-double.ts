import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/** The kinds of envelope Slack sends over a Socket Mode connection. */
export type EnvelopeKind = 'slash_commands' | 'interactive' | 'events_api';

/** What the app answered an envelope with: `{envelope_id, payload?}` (the payload a command's or a view's ack carries). */
export interface SocketAck {
  envelope_id: string;
  payload: Record<string, unknown> | undefined;
}

/** One envelope as the double keeps it until the app acks it. */
interface Envelope {
  id: string;
  kind: EnvelopeKind;
  payload: Record<string, unknown>;
  /** How many times it went out (the next delivery's `retry_attempt`). */
  attempts: number;
  /** The connection it last went out on: while that one is open, it is not sent again. */
  connection?: Connection;
  ack?: SocketAck;
  resolve: (ack: SocketAck) => void;
}

/** One WebSocket connection the app opened with a ticket. */
interface Connection {
  id: number;
  ws: WebSocket;
  /** The TCP socket under it: a cut envelope is written there, half a frame, before the socket dies. */
  tcp: Duplex;
  /** Sent `disconnect`: gets no more envelopes, waits for the app to close it. */
  retiring: boolean;
  closed: Promise<void>;
}

/** One delivery of an envelope, as a test reads it back. */
export interface Delivery {
  envelope_id: string;
  kind: EnvelopeKind;
  retry_attempt: number;
  retry_reason: string;
  connection: number;
  /** Only half of the frame went out before the connection died: the app could not read it. */
  cut: boolean;
}

/**
 * Slack's Socket Mode side of the Slack double: `apps.connections.open` hands out single-use
 * tickets, and a WebSocket endpoint on the double's own server speaks Slack's envelope protocol
 * (https://docs.slack.dev/apis/events-api/using-socket-mode): `hello` first, then envelopes with an
 * `envelope_id` the app must ack (`{envelope_id, payload?}`), `disconnect` with a reason. Envelopes
 * not acked when their connection ends go out again on the app's next connection with
 * `retry_attempt` one higher, as Slack redelivers them; acked ones never do. Loaded (with `ws`, a
 * development dependency) only when a test or tool turns Socket Mode on.
 */
export class SocketModeDouble {
  readonly appId = 'A0DOUBLE01';
  /** Every delivery, in order (a redelivery is a second entry for the same envelope id). */
  readonly deliveries: Delivery[] = [];
  /** Connections opened (a `hello` sent) since the start: a reconnection makes it grow. */
  opened = 0;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly connections: Connection[] = [];
  private readonly envelopes = new Map<string, Envelope>();
  private seq = 0;

  constructor(
    private readonly appToken: string,
    private readonly baseUrl: string,
    server: Server,
  ) {
    server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  /**
   * `apps.connections.open`: only the app-level token opens a connection (a bot token is refused
   * `not_allowed_token_type`, as Slack does); the URL's ticket works once.
   */
  open(token: string | undefined): Record<string, unknown> {
    if (token?.startsWith('xoxb-')) return { ok: false, error: 'not_allowed_token_type' };
    if (token !== this.appToken) return { ok: false, error: 'invalid_auth' };
    const ticket = randomBytes(12).toString('hex');
    this.tickets.add(ticket);
    return {
      ok: true,
      url: `${this.baseUrl.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${this.appId}`,
    };
  }

  /** Connections open now (those told to disconnect included, until the app closes them). */
  get openConnections(): number {
    return this.connections.length;
  }

  /**
   * Sends an envelope of `kind` carrying `payload` (the JSON Slack would post in HTTP mode; a
   * command's form fields as an object) on the newest live connection, or on the next one if none is
   * open; resolves with the app's ack. `cut`: only half of the frame goes out, then the connection
   * dies (a network failure mid-envelope): the app cannot have read it, so it comes again on the
   * next connection.
   */
  send(
    kind: EnvelopeKind,
    payload: Record<string, unknown>,
    options: { cut?: boolean } = {},
  ): Promise<SocketAck> {
    return new Promise((resolve) => {
      const envelope: Envelope = {
        id: `${Date.now().toString(16)}-${randomBytes(6).toString('hex')}`,
        kind,
        payload,
        attempts: 0,
        resolve,
      };
      this.envelopes.set(envelope.id, envelope);
      const live = this.live();
      if (live) this.deliver(envelope, live, options.cut ?? false);
    });
  }

  /** How many times the envelope went out. */
  attemptsOf(envelopeId: string): number {
    return this.deliveries.filter((d) => d.envelope_id === envelopeId).length;
  }

  /**
   * Sends `{type: "disconnect", reason}` on the live connection, as Slack does before it recycles a
   * connection (`refresh_requested`, `warning`) or when Socket Mode was turned off (`link_disabled`);
   * resolves once the app has closed it.
   */
  async disconnect(reason: 'refresh_requested' | 'warning' | 'link_disabled'): Promise<void> {
    const live = this.live();
    if (!live) throw new Error('no live Socket Mode connection to disconnect');
    live.retiring = true;
    live.ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-double' } }));
    await live.closed;
  }

  /** Kills the live connection's TCP socket without a close frame (a network failure); resolves once it is gone. */
  async drop(): Promise<void> {
    const live = this.live();
    if (!live) throw new Error('no live Socket Mode connection to drop');
    live.tcp.destroy();
    await live.closed;
  }

  /** Waits until `count` connections have been opened since the start. */
  async connected(count: number, ms = 15_000): Promise<void> {
    const end = Date.now() + ms;
    while (this.opened < count) {
      if (Date.now() > end) throw new Error(`Socket Mode: ${this.opened} connection(s) opened, not ${count}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): void {
    for (const c of this.connections) c.tcp.destroy();
    this.wss.close();
  }

  private live(): Connection | undefined {
    return this.connections.filter((c) => !c.retiring).at(-1);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      // A ticket works once: a reconnection asks apps.connections.open for a new one.
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, socket));
  }

  private accept(ws: WebSocket, tcp: Duplex): void {
    let closed!: () => void;
    const connection: Connection = {
      id: ++this.seq,
      ws,
      tcp,
      retiring: false,
      closed: new Promise<void>((r) => {
        closed = r;
      }),
    };
    this.connections.push(connection);
    ws.on('close', () => {
      this.connections.splice(this.connections.indexOf(connection), 1);
      closed();
      const live = this.live();
      if (live) this.redeliver(live);
    });
    ws.on('error', () => {
      // A dropped socket: 'close' follows, and the un-acked envelopes wait for the next connection.
    });
    ws.on('message', (data) => this.acked(data.toString()));
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.connections.length,
        debug_info: { host: 'applink-double', build_number: 1, approximate_connection_time: 18_060 },
        connection_info: { app_id: this.appId },
      }),
    );
    this.opened++;
    this.redeliver(connection);
  }

  /** What was not acked on a connection now gone goes out again (and what was queued while none was open). */
  private redeliver(connection: Connection): void {
    for (const envelope of this.envelopes.values())
      if (!envelope.ack && !(envelope.connection && this.connections.includes(envelope.connection)))
        this.deliver(envelope, connection, false);
  }

  private acked(text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    const envelope = this.envelopes.get(String(message.envelope_id));
    if (!envelope || envelope.ack) return;
    const payload =
      typeof message.payload === 'object' && message.payload !== null
        ? (message.payload as Record<string, unknown>)
        : undefined;
    envelope.ack = { envelope_id: envelope.id, payload };
    envelope.resolve(envelope.ack);
  }

  private deliver(envelope: Envelope, connection: Connection, cut: boolean): void {
    const retry = envelope.attempts++;
    envelope.connection = connection;
    const delivery: Delivery = {
      envelope_id: envelope.id,
      kind: envelope.kind,
      retry_attempt: retry,
      retry_reason: retry ? 'timeout' : '',
      connection: connection.id,
      cut,
    };
    this.deliveries.push(delivery);
    const frame = JSON.stringify({
      envelope_id: envelope.id,
      type: envelope.kind,
      payload: envelope.payload,
      // Events take no answer; commands and interactions may carry one in their ack.
      accepts_response_payload: envelope.kind !== 'events_api',
      retry_attempt: retry,
      retry_reason: delivery.retry_reason,
    });
    if (!cut) {
      connection.ws.send(frame);
      return;
    }
    const bytes = textFrame(frame);
    connection.tcp.write(bytes.subarray(0, Math.ceil(bytes.length / 2)));
    connection.tcp.destroy();
  }
}

/** An unmasked WebSocket text frame (server to client, RFC 6455 §5.2), written by hand to send half of it. */
function textFrame(text: string): Buffer {
  const body = Buffer.from(text);
  let header: Buffer;
  if (body.length < 126) header = Buffer.from([0x81, body.length]);
  else if (body.length < 65_536) {
    header = Buffer.alloc(4);
    header.writeUInt8(0x81, 0);
    header.writeUInt8(126, 1);
    header.writeUInt16BE(body.length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(0x81, 0);
    header.writeUInt8(127, 1);
    header.writeBigUInt64BE(BigInt(body.length), 2);
  }
  return Buffer.concat([header, body]);
}
