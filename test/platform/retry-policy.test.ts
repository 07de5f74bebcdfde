import { describe, expect, it } from 'vitest';
import { type RetryDecision, type RetryInput, retryDecision } from '../../src/platform/retry-policy.js';

/** The platform client's retry policy as a table: method × outcome × attempt → what the client does. */
const base = { maxAttempts: 3, mayRenewToken: false } as const;
const network = (code: string | undefined) => ({ kind: 'network', code }) as const;
const broken = (code: string | undefined) => ({ kind: 'broken', code }) as const;
const status = (s: number, waitMs?: number) =>
  ({ kind: 'status', status: s, ...(waitMs !== undefined ? { waitMs } : {}) }) as const;

const table: [
  string,
  Omit<RetryInput, 'maxAttempts' | 'mayRenewToken'> & Partial<RetryInput>,
  RetryDecision,
][] = [
  [
    'a GET refused at connect is tried again',
    { method: 'GET', attempt: 1, failure: network('ECONNREFUSED') },
    { kind: 'backoff' },
  ],
  [
    'a POST refused at connect never arrived: tried again',
    { method: 'POST', attempt: 1, failure: network('ECONNREFUSED') },
    { kind: 'backoff' },
  ],
  [
    'a POST reset mid-way may have arrived: not again',
    { method: 'POST', attempt: 1, failure: network('ECONNRESET') },
    { kind: 'fail' },
  ],
  [
    'a POST that timed out may have arrived: not again',
    { method: 'POST', attempt: 1, failure: network('UND_ERR_HEADERS_TIMEOUT') },
    { kind: 'fail' },
  ],
  [
    'a GET that timed out is tried again',
    { method: 'GET', attempt: 2, failure: network('UND_ERR_HEADERS_TIMEOUT') },
    { kind: 'backoff' },
  ],
  [
    'a PUT reset is tried again (idempotent)',
    { method: 'PUT', attempt: 1, failure: network('ECONNRESET') },
    { kind: 'backoff' },
  ],
  [
    'the last attempt is the last',
    { method: 'GET', attempt: 3, failure: network('ECONNRESET') },
    { kind: 'fail' },
  ],
  [
    'an unknown network error is not retried',
    { method: 'GET', attempt: 1, failure: network('EWEIRD') },
    { kind: 'fail' },
  ],
  [
    'no code at all is not retried',
    { method: 'GET', attempt: 1, failure: network(undefined) },
    { kind: 'fail' },
  ],
  [
    'a GET whose answer broke off mid-body is tried again, whatever the code',
    { method: 'GET', attempt: 1, failure: broken('UND_ERR_RES_CONTENT_LENGTH_MISMATCH') },
    { kind: 'backoff' },
  ],
  [
    'a POST whose answer broke off was taken by the platform: not again',
    { method: 'POST', attempt: 1, failure: broken('ECONNRESET') },
    { kind: 'fail' },
  ],
  [
    'an answer that broke off on the last attempt fails',
    { method: 'DELETE', attempt: 3, failure: broken('UND_ERR_SOCKET') },
    { kind: 'fail' },
  ],
  ['a 5xx GET is tried again', { method: 'GET', attempt: 1, failure: status(503) }, { kind: 'backoff' }],
  [
    'a 5xx DELETE is tried again',
    { method: 'DELETE', attempt: 2, failure: status(500) },
    { kind: 'backoff' },
  ],
  [
    'a 5xx POST may have been processed: not again',
    { method: 'POST', attempt: 1, failure: status(502) },
    { kind: 'fail' },
  ],
  ['a 5xx on the last attempt fails', { method: 'GET', attempt: 3, failure: status(503) }, { kind: 'fail' }],
  [
    'a 429 pauses the budget and goes again, even a POST',
    { method: 'POST', attempt: 1, failure: status(429, 7_000) },
    { kind: 'pause', waitMs: 7_000 },
  ],
  [
    'a 429 without a wait: one second',
    { method: 'GET', attempt: 1, failure: status(429) },
    { kind: 'pause', waitMs: 1_000 },
  ],
  [
    'a 429 longer than the person may wait: rate limited now',
    { method: 'GET', attempt: 1, failure: status(429, 30_000), maxWaitMs: 5_000 },
    { kind: 'rate-limited', waitMs: 30_000 },
  ],
  [
    'a 429 on the last attempt: rate limited',
    { method: 'GET', attempt: 3, failure: status(429, 2_000) },
    { kind: 'rate-limited', waitMs: 2_000 },
  ],
  [
    'a 401 with a renewable token: renew',
    { method: 'POST', attempt: 1, failure: status(401), mayRenewToken: true },
    { kind: 'renew-token' },
  ],
  [
    'a 401 after the renewal (or a static token): fail',
    { method: 'GET', attempt: 1, failure: status(401) },
    { kind: 'fail' },
  ],
  ['a 400 is the answer', { method: 'GET', attempt: 1, failure: status(400) }, { kind: 'fail' }],
  ['a 403 is the answer', { method: 'POST', attempt: 1, failure: status(403) }, { kind: 'fail' }],
  ['a 404 is the answer', { method: 'DELETE', attempt: 1, failure: status(404) }, { kind: 'fail' }],
];

describe('the platform client’s retry policy', () => {
  it.each(table)('%s', (_name, input, decision) => {
    expect(retryDecision({ ...base, ...input })).toEqual(decision);
  });
});
