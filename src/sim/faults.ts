/** Faults the simulator can inject into `/api/v3` routes, at start and at runtime (`PUT /_sim/faults`). */
export interface SimFaults {
  /** Added before every answer. */
  latencyMs: number;
  /** Share of requests answered with `errorStatus` (0..1). */
  errorRate: number;
  errorStatus: number;
  /** Every request answered 429 with `X-RateLimit-Reset: stormResetSeconds`. */
  rateLimitStorm: boolean;
  stormResetSeconds: number;
  /** Share of requests that never get an answer (0..1): the client's timeouts must fire. */
  hangRate: number;
  /** The next N requests fail with `failNextStatus` (deterministic retries in tests). */
  failNext: number;
  failNextStatus: number;
  /** Limits `failNext` to requests of this HTTP method ('' for any). */
  failNextMethod: string;
}

export const noFaults: SimFaults = {
  latencyMs: 0,
  errorRate: 0,
  errorStatus: 503,
  rateLimitStorm: false,
  stormResetSeconds: 5,
  hangRate: 0,
  failNext: 0,
  failNextStatus: 503,
  failNextMethod: '',
};
