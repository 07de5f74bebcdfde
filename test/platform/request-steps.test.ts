import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { Agent, type Dispatcher, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlatformOutcome } from '../../src/observability/metrics.js';
import { maxJsonBytes, readAnswer } from '../../src/platform/answer.js';
import { attempt, type ClientLogger } from '../../src/platform/attempt.js';
import {
  PlatformAddressError,
  PlatformNetworkError,
  PlatformRateLimitedError,
} from '../../src/platform/errors.js';
import { fetchProblem, otherHostProblem } from '../../src/platform/host-guard.js';
import { platformAgent } from '../../src/platform/proxy.js';
import { RateBudget } from '../../src/platform/rate-budget.js';
import { followRedirect, maxRedirects } from '../../src/platform/redirect.js';
import { type RetryContext, retryStep } from '../../src/platform/retry-step.js';

/*
 * The platform request's steps, each on its own against a real loopback server: one attempt and its
 * network failure, following a download's redirect, reading an answer, and the retry step that
 * carries out the retry policy's decision.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handle: Handler = (_, res) => res.end();
const seen: IncomingMessage[] = [];
const server = createServer((req, res) => {
  seen.push(req);
  handle(req, res);
});
let base = '';
const agent = new Agent({ headersTimeout: 300, bodyTimeout: 300 });

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await agent.close();
});
afterEach(() => {
  seen.length = 0;
});

/** A logger that keeps its lines: level and message. */
function lines() {
  const kept: { level: string; obj: object; msg: string | undefined }[] = [];
  const logger: ClientLogger = {
    debug: (obj, msg) => kept.push({ level: 'debug', obj, msg }),
    info: (obj, msg) => kept.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => kept.push({ level: 'warn', obj, msg }),
  };
  return { kept, logger };
}

/** The answer of `handler` to a GET, its body unread. */
async function answerOf(handler: Handler): Promise<Dispatcher.ResponseData> {
  handle = handler;
  return request(`${base}/x`, { dispatcher: agent });
}

describe('attempt: one request and its network failure', () => {
  it('sends the token and the user agent, and hands the answer back unread, counted by its status', async () => {
    handle = (_, res) => res.writeHead(503).end('busy');
    const outcomes: PlatformOutcome[] = [];
    const sent = await attempt(
      agent,
      { name: 'getMe', method: 'GET', target: `${base}/api`, token: 't0ken', attempt: 1 },
      (o) => outcomes.push(o),
    );
    expect(sent.kind).toBe('answer');
    if (sent.kind !== 'answer') return;
    expect(sent.response.statusCode).toBe(503);
    expect(await sent.response.body.text()).toBe('busy');
    expect(outcomes).toEqual(['5xx']);
    expect(seen[0]?.headers.authorization).toBe('Bearer t0ken');
    expect(seen[0]?.headers['user-agent']).toMatch(/^confdesk\//);
  });

  it('sends no authorization without a token', async () => {
    handle = (_, res) => res.writeHead(204).end();
    await attempt(agent, { name: 'x', method: 'GET', target: base, token: undefined, attempt: 1 }, () => {});
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('hands a refused connection back as a connection failure, logged with its attempt', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const { kept, logger } = lines();
    const outcomes: PlatformOutcome[] = [];
    const sent = await attempt(
      agent,
      { name: 'getMe', method: 'GET', target: `http://127.0.0.1:${port}/`, token: 's3cret', attempt: 2 },
      (o) => outcomes.push(o),
      logger,
    );
    expect(sent).toMatchObject({ kind: 'failed', code: 'ECONNREFUSED' });
    if (sent.kind !== 'failed') return;
    expect(sent.failure).toBeInstanceOf(PlatformNetworkError);
    expect(sent.failure.reason).toBe('connection');
    expect(outcomes).toEqual(['connection']);
    expect(kept).toEqual([
      {
        level: 'warn',
        obj: { op: 'getMe', code: 'ECONNREFUSED', attempt: 2 },
        msg: 'platform request failed',
      },
    ]);
    expect(JSON.stringify(kept)).not.toContain('s3cret');
  });

  it('hands headers that never come back as a timeout', async () => {
    handle = () => {}; // never answers
    const outcomes: PlatformOutcome[] = [];
    const sent = await attempt(
      agent,
      { name: 'getMe', method: 'GET', target: base, token: undefined, attempt: 1 },
      (o) => outcomes.push(o),
    );
    expect(sent).toMatchObject({ kind: 'failed', code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(sent.kind === 'failed' && sent.failure.reason).toBe('timeout');
    expect(outcomes).toEqual(['timeout']);
  });

  it('throws the caller’s abort, counted as aborted, not as a failure to retry', async () => {
    handle = () => {};
    const stop = new AbortController();
    const outcomes: PlatformOutcome[] = [];
    const sent = attempt(
      agent,
      { name: 'getMe', method: 'GET', target: base, token: undefined, attempt: 1, signal: stop.signal },
      (o) => outcomes.push(o),
    );
    setTimeout(() => stop.abort(new Error('person left')), 20);
    await expect(sent).rejects.toThrow('person left');
    expect(outcomes).toEqual(['aborted']);
  });

  it('throws the guard’s refusal when the address turns out inside this network on connecting', async () => {
    // A workspace's platform (not the operator's): its host must resolve to a public address.
    const reach = { baseUrl: base, allowedHosts: [], operatorConfigured: false };
    const guarded = platformAgent({}, undefined, reach);
    const outcomes: PlatformOutcome[] = [];
    try {
      const sent = attempt(
        guarded,
        { name: 'getMe', method: 'GET', target: `${base}/`, token: 't', attempt: 1 },
        (o) => outcomes.push(o),
      );
      await expect(sent).rejects.toBeInstanceOf(PlatformAddressError);
      expect(seen).toEqual([]);
      expect(outcomes).toEqual(['connection']);
    } finally {
      await guarded.close();
    }
  });
});

describe('followRedirect: one hop of a download', () => {
  const check = (allowed: string[]) => async (url: string) => {
    const reach = { baseUrl: base, allowedHosts: allowed, operatorConfigured: true };
    const problem = await fetchProblem(new URL(url), reach, false);
    if (problem) throw new PlatformAddressError('downloadMedia', new URL(url).host, problem);
  };

  it('returns where the redirect points, resolved against the address that answered, once checked', async () => {
    const response = await answerOf((_, res) =>
      res.writeHead(302, { location: '/files/1?sig=abc' }).end('moved'),
    );
    const checked: string[] = [];
    const next = await followRedirect(
      'downloadMedia',
      response,
      `${base}/api/v3/medias/1/download`,
      1,
      (u) => {
        checked.push(u);
        return check([])(u);
      },
    );
    expect(next).toBe(`${base}/files/1?sig=abc`);
    expect(checked).toEqual([next]);
    expect(response.body.destroyed).toBe(true);
  });

  it('refuses a redirect to a host the guard does not allow', async () => {
    const response = await answerOf((_, res) =>
      res.writeHead(307, { location: 'http://files.example/a' }).end(),
    );
    const hop = followRedirect('downloadMedia', response, base, 1, check([]));
    await expect(hop).rejects.toMatchObject({ host: 'files.example', problem: otherHostProblem });
  });

  it('refuses a redirect without an address, and one past the last hop allowed', async () => {
    const bare = await answerOf((_, res) => res.writeHead(302).end());
    await expect(followRedirect('downloadMedia', bare, base, 1, check([]))).rejects.toMatchObject({
      problem: 'a redirect without an address',
    });
    const far = await answerOf((_, res) => res.writeHead(302, { location: '/again' }).end());
    await expect(
      followRedirect('downloadMedia', far, base, maxRedirects + 1, check([])),
    ).rejects.toMatchObject({
      problem: `more than ${maxRedirects} redirects`,
    });
  });
});

describe('readAnswer: a file, a capped and timed JSON read, and its decoding', () => {
  const me = z.object({ id: z.number(), username: z.string() });
  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
    (_, res) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  it('decodes a 2xx by its schema', async () => {
    const response = await answerOf(json(200, { id: 4, username: 'ada', extra: true }));
    expect(await readAnswer('getMe', 'GET', response, me, 1_000)).toEqual({
      kind: 'data',
      data: { id: 4, username: 'ada' },
    });
  });

  it('finds a 2xx of the wrong shape unusable, naming the field', async () => {
    const response = await answerOf(json(200, { id: 'four', username: 'ada' }));
    const answer = await readAnswer('getMe', 'GET', response, me, 1_000);
    expect(answer.kind).toBe('unusable');
    expect(answer.kind === 'unusable' && answer.error).toMatchObject({
      operation: 'getMe',
      field: 'id',
      explained: false,
    });
  });

  it('hands a file’s 2xx on unread, with its type, length and name', async () => {
    const response = await answerOf((_, res) =>
      res
        .writeHead(200, {
          'content-type': 'video/mp4',
          'content-length': '5',
          'content-disposition': 'attachment; filename="talk.mp4"',
        })
        .end('bytes'),
    );
    const answer = await readAnswer('downloadMedia', 'GET', response, 'stream', 1_000);
    expect(answer.kind).toBe('download');
    if (answer.kind !== 'download') return;
    expect(answer.download).toMatchObject({
      contentType: 'video/mp4',
      contentLength: 5,
      filename: 'talk.mp4',
    });
    expect(await text(answer.download.body)).toBe('bytes');
  });

  it('gives a refusal its status, its body read (JSON, else text) and how long a 429 asks to wait', async () => {
    const refused = await readAnswer(
      'getMe',
      'GET',
      await answerOf(json(404, { error: 'no such user' })),
      me,
      1_000,
    );
    expect(refused).toMatchObject({ kind: 'status', status: 404, body: { error: 'no such user' } });
    const page = await answerOf((_, res) =>
      res.writeHead(502).end('<html><title>Bad gateway</title></html>'),
    );
    expect(await readAnswer('getMe', 'GET', page, me, 1_000)).toMatchObject({
      status: 502,
      body: '<html><title>Bad gateway</title></html>',
    });
    const limited = await answerOf(json(429, {}, { 'x-ratelimit-reset': '7' }));
    expect(await readAnswer('getMe', 'GET', limited, me, 1_000)).toMatchObject({
      status: 429,
      waitMs: 7_000,
    });
    const bare = await answerOf((_, res) => res.writeHead(429).end());
    expect(await readAnswer('getMe', 'GET', bare, me, 1_000)).toMatchObject({
      body: undefined,
      waitMs: 1_000,
    });
  });

  it('refuses a body announced larger than the cap without reading it', async () => {
    const response = await answerOf((_, res) => {
      res.writeHead(200, { 'content-length': String(maxJsonBytes + 1) });
      res.write('{');
    });
    const answer = await readAnswer('listTickets', 'GET', response, me, 1_000);
    expect(answer.kind === 'unusable' && answer.error).toMatchObject({
      explained: true,
      problem: /larger than 8 MB/,
    });
    expect(response.body.destroyed).toBe(true);
  });

  it('gives up a body that trickles past the deadline, as a timeout', async () => {
    const response = await answerOf((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 20);
    });
    const answer = await readAnswer('getMe', 'GET', response, me, 150);
    expect(answer).toMatchObject({
      kind: 'too-slow',
      failure: { kind: 'network', code: 'UND_ERR_BODY_TIMEOUT' },
    });
    expect(answer.kind === 'too-slow' && answer.error).toMatchObject({
      reason: 'timeout',
      causeCode: 'body-deadline',
    });
  });
});

describe('readAnswer: a body that breaks off after its headers', () => {
  /** Sends the headers and the start of a JSON body, then ends the connection as `how` says. */
  const breaking =
    (how: 'cut' | 'reset', status = 200, length = true): Handler =>
    (_, res) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(length ? { 'content-length': '200' } : {}),
      });
      res.write('{"id": 4, "user', () =>
        setTimeout(() => (how === 'cut' ? res.socket?.destroySoon() : res.socket?.resetAndDestroy()), 30),
      );
    };
  const me = z.object({ id: z.number() }).passthrough();

  it.each([
    ['reset (RST)', 'reset', true, 'ECONNRESET'],
    ['cut (FIN) short of its length', 'cut', true, 'UND_ERR_SOCKET'],
    ['cut (FIN) while chunked', 'cut', false, 'UND_ERR_SOCKET'],
  ] as const)(
    '%s: a network failure a GET may retry, never an empty answer',
    async (_, how, length, code) => {
      const answer = await readAnswer(
        'listTicketMedias',
        'GET',
        await answerOf(breaking(how, 200, length)),
        me,
        1_000,
      );
      expect(answer).toMatchObject({ kind: 'broken', failure: { kind: 'broken', code } });
      if (answer.kind !== 'broken') return;
      expect(answer.error).toBeInstanceOf(PlatformNetworkError);
      expect(answer.error).toMatchObject({ reason: 'connection', causeCode: code, brokeOff: 'retryable' });
      expect(answer.error.userMessage).toBe(
        'The connection to the video platform broke off during its answer. Please try again in a moment.',
      );
    },
  );

  it('a POST’s answer that breaks says the platform may have done it', async () => {
    const answer = await readAnswer('exportTicket', 'POST', await answerOf(breaking('reset')), me, 1_000);
    expect(answer.kind === 'broken' && answer.error.brokeOff).toBe('mayBeDone');
    expect(answer.kind === 'broken' && answer.error.userMessage).toMatch(
      /broke off during its answer, so it may have done this already. Please check before trying again/,
    );
  });

  it('an error answer that breaks is still its status (the body only explained it)', async () => {
    const answer = await readAnswer('getMe', 'GET', await answerOf(breaking('reset', 503)), me, 1_000);
    expect(answer).toMatchObject({ kind: 'status', status: 503, body: undefined });
  });
});

describe('retryStep: the retry policy’s decision carried out', () => {
  const context = (over: Partial<RetryContext> = {}) => {
    const budget = new RateBudget({ perWindow: 100 });
    const { kept, logger } = lines();
    return { budget, kept, ctx: { budget, logger, backoffBaseMs: 1, maxAttempts: 3, ...over } };
  };
  const failed = (error: Error) => {
    const made: Error[] = [];
    return {
      made,
      failed: () => {
        made.push(error);
        return error;
      },
    };
  };

  it('backs off and goes again after a GET’s network failure, and gives up on the last attempt', async () => {
    const { ctx } = context();
    const error = new PlatformNetworkError('getMe', 'connection', 'ECONNRESET');
    const f = failed(error);
    const failure = { kind: 'network', code: 'ECONNRESET' } as const;
    expect(
      await retryStep(ctx, 'getMe', { method: 'GET', attempt: 1, mayRenewToken: false }, failure, f.failed),
    ).toBe('again');
    expect(f.made).toEqual([]);
    const last = retryStep(
      ctx,
      'getMe',
      { method: 'GET', attempt: 3, mayRenewToken: false },
      failure,
      f.failed,
    );
    await expect(last).rejects.toBe(error);
    expect(f.made).toEqual([error]);
  });

  it('never goes again for a POST whose outcome is unknown', async () => {
    const { ctx } = context();
    const error = new PlatformNetworkError('createTicket', 'connection', 'ECONNRESET');
    const step = retryStep(
      ctx,
      'createTicket',
      { method: 'POST', attempt: 1, mayRenewToken: false },
      { kind: 'network', code: 'ECONNRESET' },
      () => error,
    );
    await expect(step).rejects.toBe(error);
  });

  it('pauses the shared budget for a 429 and goes again, or fails as rate limited when the caller may not wait', async () => {
    const { ctx, budget, kept } = context();
    const input = { method: 'POST', attempt: 1, mayRenewToken: false } as const;
    const limited = { kind: 'status', status: 429, waitMs: 5_000 } as const;
    expect(await retryStep(ctx, 'createTicket', input, limited, () => new Error('no'))).toBe('again');
    expect(budget.estimateWaitMs('interactive')).toBeGreaterThan(4_000);
    expect(kept.map((l) => `${l.level} ${l.msg}`)).toEqual(['warn platform rate limit hit']);
    const impatient = context({ maxWaitMs: 1_000 });
    const step = retryStep(impatient.ctx, 'createTicket', input, limited, () => new Error('no'));
    await expect(step).rejects.toBeInstanceOf(PlatformRateLimitedError);
    expect(impatient.budget.estimateWaitMs('interactive')).toBeGreaterThan(4_000);
  });

  it('asks for a new token after a 401 it may renew, and fails with the refusal otherwise', async () => {
    const { ctx } = context();
    const unauthorized = { kind: 'status', status: 401 } as const;
    expect(
      await retryStep(
        ctx,
        'getMe',
        { method: 'GET', attempt: 1, mayRenewToken: true },
        unauthorized,
        () => new Error(),
      ),
    ).toBe('renew-token');
    const refusal = new Error('401');
    const step = retryStep(
      ctx,
      'getMe',
      { method: 'GET', attempt: 1, mayRenewToken: false },
      unauthorized,
      () => refusal,
    );
    await expect(step).rejects.toBe(refusal);
  });

  it('logs a 5xx it retries, and stops waiting when the caller gives up', async () => {
    const stop = new AbortController();
    const { ctx, kept } = context({ backoffBaseMs: 60_000, signal: stop.signal });
    const step = retryStep(
      ctx,
      'getMe',
      { method: 'GET', attempt: 1, mayRenewToken: false },
      { kind: 'status', status: 503 },
      () => new Error('no'),
    );
    stop.abort(new Error('person left'));
    await expect(step).rejects.toThrow('person left');
    expect(kept).toEqual([
      {
        level: 'warn',
        obj: { op: 'getMe', status: 503, attempt: 1 },
        msg: 'platform server error, retrying',
      },
    ]);
  });
});
