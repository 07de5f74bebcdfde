import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Metrics, metricsHandler } from '../observability/metrics.js';

/** An HTTP route beside Slack's, as Bolt's receivers take them (`customRoutes`). */
export interface HttpRoute {
  path: string;
  method: string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The routes a load balancer and a scraper read, the same in every mode: `GET /healthz` (the process
 * answers), `GET /readyz` (`report()`, 200 when it is ok, else 503; unset, always ready) and, with
 * `metrics`, `GET /metrics`.
 */
export function healthRoutes(o: {
  report?: (() => { ok: boolean }) | undefined;
  metrics?: { registry: Metrics; token: string | undefined } | undefined;
}): HttpRoute[] {
  return [
    { path: '/healthz', method: ['GET'], handler: (_req, res) => json(res, 200, { ok: true }) },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req, res) => {
        const body = o.report?.() ?? { ok: true };
        json(res, body.ok ? 200 : 503, body);
      },
    },
    ...(o.metrics ? [metricsRoute(o.metrics.registry, o.metrics.token)] : []),
  ];
}

/** `GET /metrics`: the registry's text (with a token, only to `Authorization: Bearer <token>`). */
export const metricsRoute = (registry: Metrics, token: string | undefined): HttpRoute => ({
  path: '/metrics',
  method: ['GET'],
  handler: metricsHandler(registry, token),
});

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
