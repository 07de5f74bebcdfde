import { request } from 'undici';
import { emptyObjectsAsArrays, iso } from './present.js';
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
 * A timeline event's webhook `props` (not published: inferred): the event's ticket, name, time,
 * source and data, or with `thinEventWebhooks` its ticket alone, as a platform that says less would.
 */
function propsOf(change: SimChange, quirks: SimQuirks): Record<string, unknown> {
  if (change.object !== 'conversationevent') return change.props;
  if (quirks.thinEventWebhooks) return { ticketId: change.props.ticketId };
  return { ...change.props, timestamp: iso(change.props.timestamp as number) };
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
    const sent = { ...change, props: propsOf(change, quirks), time: Math.floor(now() / 1000) };
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
