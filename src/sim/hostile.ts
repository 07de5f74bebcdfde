import { Readable } from 'node:stream';
import type { Reply } from './reply.js';

/**
 * A hostile platform: answers that are themselves the attack, as a workspace's platform in
 * distribution mode may send (anyone can type a platform address). Off by default; set at start
 * (`hostile`), at runtime (`Simulator.setHostility`) or with `PUT /_sim/hostile`.
 */
export interface SimHostility {
  /** An export's answer carries this absolute `url` (an address inside the bot's network, say). '': off. */
  exportUrl: string;
  /** Every download (a media's, a ticket's media archive, an export's file) answers 302 to this address. '': off. */
  redirectDownloads: string;
  /** Answers are sent chunked, without Content-Length (downloads and JSON alike). */
  withoutLength: boolean;
  /** JSON answers padded (an unknown field) to at least this many bytes, sent without length. 0: off. */
  hugeJsonBytes: number;
  /** Every answer's body trickles: 16 bytes every this many ms (never idle long enough for a timeout). 0: off. */
  trickleMs: number;
}

export const noHostility: SimHostility = {
  exportUrl: '',
  redirectDownloads: '',
  withoutLength: false,
  hugeJsonBytes: 0,
  trickleMs: 0,
};

const exportPath = /^\/api\/v3\/tickets\/[^/]+\/export$/;
const downloadPath = /^\/api\/v3\/(medias\/[^/]+\/download|tickets\/[^/]+\/medias\/download|exports\/[^/]+)$/;

/** A route's reply as the hostile platform sends it instead: another export `url`, a redirect. */
export function hostileReply(h: SimHostility, method: string, path: string, reply: Reply): Reply {
  if (
    h.exportUrl &&
    method === 'POST' &&
    exportPath.test(path) &&
    reply.body &&
    typeof reply.body === 'object'
  )
    return { ...reply, body: { ...(reply.body as object), url: h.exportUrl } };
  if (h.redirectDownloads && method === 'GET' && downloadPath.test(path)) {
    reply.stream?.destroy();
    return { status: 302, headers: { location: h.redirectDownloads } };
  }
  return reply;
}

/** Whether JSON answers are sent as a stream (padded, trickled or without length). */
export const streamsJson = (h: SimHostility) => h.withoutLength || h.hugeJsonBytes > 0 || h.trickleMs > 0;

/** A JSON answer's text as the hostile platform streams it: padded to `hugeJsonBytes`, trickled. */
export function hostileJson(h: SimHostility, text: string): Readable {
  async function* padded() {
    const pad = Math.max(0, h.hugeJsonBytes - text.length);
    if (!pad) {
      yield Buffer.from(text);
      return;
    }
    const isObject = text.endsWith('}');
    const empty = text.length <= 2;
    yield Buffer.from(`${text.slice(0, -1)}${empty ? '' : ','}${isObject ? '"padding":' : ''}"`);
    const block = Buffer.alloc(64 * 1024, 'x');
    for (let sent = 0; sent < pad; sent += block.length) yield block;
    yield Buffer.from(`"${isObject ? '}' : ']'}`);
  }
  return trickled(h, Readable.from(padded()));
}

/** A download's headers and body as the hostile platform sends them (without length, trickled). */
export function hostileStream(
  h: SimHostility,
  headers: Record<string, string>,
  stream: Readable,
): { headers: Record<string, string>; stream: Readable } {
  const shown = { ...headers };
  if (h.withoutLength || h.trickleMs > 0) delete shown['content-length'];
  return { headers: shown, stream: trickled(h, stream) };
}

function trickled(h: SimHostility, source: Readable): Readable {
  if (h.trickleMs <= 0) return source;
  const ms = h.trickleMs;
  async function* slowly() {
    try {
      for await (const chunk of source)
        for (let i = 0; i < (chunk as Buffer).length; i += 16) {
          await new Promise((resolve) => setTimeout(resolve, ms));
          yield (chunk as Buffer).subarray(i, i + 16);
        }
    } finally {
      source.destroy();
    }
  }
  return Readable.from(slowly());
}
