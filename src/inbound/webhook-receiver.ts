import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger.js';
import type { WorkspaceMetrics } from '../observability/metrics.js';
import type { PlatformFindings } from '../platform/findings.js';
import {
  readSignal,
  type WebhookDelivery,
  type WebhookSignal,
  webhookDelivery,
} from '../platform/webhook-signal.js';
import type { Store } from '../store/store.js';

export interface WebhookOptions {
  secret: string;
  /** Header carrying the secret (the platform signs nothing). */
  header: string;
  logger: Logger;
  /**
   * Given what a delivery tells (`readSignal`); resolves once what must survive a crash is stored
   * (the delivery is answered after it: one accepted is never lost).
   */
  onSignal: (signal: WebhookSignal) => Promise<unknown>;
  /** Where the time of the last accepted delivery is kept, for `npm run doctor` (another process). */
  store?: Pick<Store, 'noteWebhookDelivery'>;
  /** The running bot's findings (its doctor in Slack reads them). */
  findings?: Pick<PlatformFindings, 'webhookReceived'>;
  /** Counts each delivery by its answer. */
  metrics?: Pick<WorkspaceMetrics, 'webhook'> | undefined;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `POST /webhooks/platform`: authenticated by the secret header, compared in constant time; what it
 * tells is stored (a timeline event in the outbox, or its ticket in the read backlog), then it is
 * answered 202 (500 when the store failed: the platform may send it again). Webhooks can be lost:
 * the poller keeps reconciling anyway.
 */
export function webhookHandler(o: WebhookOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const given = req.headers[o.header.toLowerCase()];
    if (typeof given !== 'string' || !sameSecret(given, o.secret)) {
      o.metrics?.webhook('unauthorized');
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"ok":false,"error":"bad secret"}');
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 64 * 1024) chunks.push(c);
    });
    req.on('end', async () => {
      let parsed: WebhookDelivery | undefined;
      try {
        const r = webhookDelivery.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        parsed = r.success ? r.data : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed) {
        o.metrics?.webhook('invalid');
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"ok":false,"error":"not a webhook delivery"}');
        return;
      }
      recordDelivery(o);
      const signal = readSignal(parsed);
      try {
        await o.onSignal(signal);
        o.metrics?.webhook('accepted');
        res.writeHead(202, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch (error) {
        o.metrics?.webhook('not_kept');
        o.logger.warn({ err: error, object: parsed.object, event: parsed.event }, 'webhook not kept');
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"ok":false,"error":"not kept"}');
      }
    });
  };
}

/** Notes an accepted delivery: in the findings, and in the store for a doctor run beside the bot. */
function recordDelivery(o: WebhookOptions): void {
  o.findings?.webhookReceived();
  o.store
    ?.noteWebhookDelivery(new Date())
    .catch((error: unknown) => o.logger.warn({ err: error }, 'could not record the webhook delivery time'));
}
