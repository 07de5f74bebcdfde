import type { IncomingMessage } from 'node:http';

/** A Web API call's arguments: its query, and its JSON or form body. */
export function decodeArgs(req: IncomingMessage, raw: Buffer, url: URL): Record<string, unknown> {
  const text = raw.toString('utf8');
  const out: Record<string, unknown> = Object.fromEntries(url.searchParams);
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    Object.assign(out, text ? (JSON.parse(text) as Record<string, unknown>) : {});
    return out;
  }
  for (const [k, v] of new URLSearchParams(text)) {
    // WebClient sends nested arguments (blocks, view, metadata) as JSON strings in form bodies.
    out[k] = /^[[{]/.test(v) ? safeJson(v) : v;
  }
  return out;
}

export function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
