import { request } from 'undici';
import { emptyObjectsAsArrays } from './present.js';
import type { SimQuirks } from './quirks.js';
import type { SimChange } from './state.js';

export interface WebhookConfig {
  url: string;
  /** Custom header carrying the shared secret (the platform signs nothing). */
  header: string;
  secret: string;
}

/** One POST made to the webhook target: its body, and the answer's status or the transport error. */
export interface WebhookDelivery {
  body: unknown;
  status?: number;
  error?: string;
}

/**
 * Posts every change to the webhook target in force at that moment (none: nothing is sent), after
 * the answer that caused it, as the platform does; `deliveries` records each attempt for tests.
 */
export function createWebhookSender(
  target: () => WebhookConfig | undefined,
  quirks: SimQuirks,
  now: () => number,
) {
  const deliveries: WebhookDelivery[] = [];
  const send = (change: SimChange) => {
    const to = target();
    if (!to) return;
    const sent = { ...change, time: Math.floor(now() / 1000) };
    const body = quirks.emptyObjectsAsArrays ? emptyObjectsAsArrays(sent) : sent;
    setImmediate(() => {
      request(to.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Cloud Apizee',
          [to.header]: to.secret,
        },
        body: JSON.stringify(body),
        headersTimeout: 5_000,
        bodyTimeout: 5_000,
      })
        .then(async (r) => {
          await r.body.dump();
          deliveries.push({ body, status: r.statusCode });
        })
        .catch((e: Error) => deliveries.push({ body, error: e.message }));
    });
  };
  return { send, deliveries };
}
