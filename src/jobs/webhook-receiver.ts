import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Logger } from '../observability/logger.js';
import type { PlatformFindings } from '../platform/findings.js';
import { looseMap } from '../platform/schemas.js';
import type { Store } from '../store/store.js';

/**
 * A platform webhook delivery (platform-facts.md): `{event, time, object, objectId, props}`; empty
 * `props` may come as `[]` (a PHP backend's empty object).
 */
const delivery = z.looseObject({
  event: z.string(),
  object: z.string(),
  objectId: z.union([z.string(), z.number()]),
  props: looseMap.nullish(),
});

export interface WebhookOptions {
  secret: string;
  /** Header carrying the secret (the platform signs nothing). */
  header: string;
  logger: Logger;
  /** Asked to look at one ticket at once (its events go through the usual outbox). */
  onTicket: (ticketId: string) => Promise<unknown>;
  /** Where the time of the last accepted delivery is kept, for `npm run doctor` (another process). */
  store?: Pick<Store, 'noteWebhookDelivery'>;
  /** The running bot's findings (its doctor in Slack reads them). */
  findings?: Pick<PlatformFindings, 'webhookReceived'>;
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `POST /webhooks/platform`: authenticated by the secret header, compared in constant time; answered
 * at once (202); a delivery about a ticket (or one of its timeline events) makes the poller look at
 * that ticket now. Webhooks can be lost: the poller keeps reconciling anyway.
 */
export function webhookHandler(o: WebhookOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const given = req.headers[o.header.toLowerCase()];
    if (typeof given !== 'string' || !sameSecret(given, o.secret)) {
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
    req.on('end', () => {
      let parsed: z.output<typeof delivery> | undefined;
      try {
        const r = delivery.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        parsed = r.success ? r.data : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"ok":false,"error":"not a webhook delivery"}');
        return;
      }
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"ok":true}');
      recordDelivery(o);
      const ticketId =
        parsed.object === 'ticket'
          ? String(parsed.objectId)
          : parsed.props?.ticketId !== undefined
            ? String(parsed.props.ticketId)
            : undefined;
      if (ticketId)
        o.onTicket(ticketId).catch((error: unknown) =>
          o.logger.warn({ err: error, ticketId }, 'webhook follow-up failed'),
        );
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
