import { ErrorCode } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { causeCode, slackProblem, slackTransient } from '../../src/startup/checks.js';

/* How the start-up check reads a failed auth.test: what may pass if tried again, and its sentence. */

const refused = (error: string) => ({ code: ErrorCode.PlatformError, data: { ok: false, error } });
const http = (statusCode: number) => ({ code: ErrorCode.HTTPError, statusCode });
const unreached = {
  code: ErrorCode.RequestError,
  original: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
};

describe('a failed auth.test', () => {
  it('may pass if tried again only without an answer, or with Slack’s 5xx or its rate limit', () => {
    expect(slackTransient(unreached)).toBe(true);
    expect(slackTransient({ code: ErrorCode.RateLimitedError, retryAfter: 1 })).toBe(true);
    expect(slackTransient(http(503))).toBe(true);
    expect(slackTransient(http(429))).toBe(true);
    expect(slackTransient(http(404))).toBe(false);
    expect(slackTransient(refused('invalid_auth'))).toBe(false);
    expect(slackTransient(new Error('boom'))).toBe(false);
  });

  it('names the variable at fault and its fix', () => {
    expect(slackProblem(refused('token_revoked'), undefined)).toMatch(
      /^SLACK_BOT_TOKEN: Slack refused the bot token \(token_revoked\)/,
    );
    expect(slackProblem(refused('team_not_found'), undefined)).toMatch(
      /^SLACK_BOT_TOKEN: Slack's auth\.test answered team_not_found/,
    );
    expect(slackProblem({ code: ErrorCode.PlatformError, data: { ok: false } }, undefined)).toMatch(
      /answered unknown_error/,
    );
    expect(slackProblem(http(404), 'http://127.0.0.1:9/api/')).toBe(
      "SLACK_API_URL: http://127.0.0.1:9/api/auth.test answered HTTP 404: fix the URL (it ends in /api/) or unset SLACK_API_URL to use Slack's own API",
    );
    expect(slackProblem(http(502), undefined)).toMatch(/^Slack's Web API answered HTTP 502 to auth\.test/);
    expect(slackProblem(unreached, undefined)).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it('says a 5xx or a rate limit is Slack’s trouble, not a wrong URL or this host’s network', () => {
    // SLACK_API_URL's 5xx is tried again: not "fix the URL" as for its 404.
    expect(slackProblem(http(503), 'http://127.0.0.1:9/api/')).toBe(
      'SLACK_API_URL: http://127.0.0.1:9/api/auth.test answered HTTP 503: Slack, or what SLACK_API_URL points at, may be having trouble',
    );
    // A 429 the WebClient waited out and retried ends as a request error; the check heard the 429.
    const limitedAndRetried = {
      code: ErrorCode.RequestError,
      original: new Error('A rate limit was exceeded (url: https://slack.com/api/auth.test, retry-after: 3)'),
    };
    expect(slackProblem(limitedAndRetried, undefined, { rateLimitedSec: 3 })).toBe(
      "Slack's Web API answered HTTP 429 to auth.test (rate limited, retry after 3 s)",
    );
    expect(slackProblem({ code: ErrorCode.RateLimitedError, retryAfter: 5 }, 'http://127.0.0.1:9/api/')).toBe(
      'SLACK_API_URL: http://127.0.0.1:9/api/auth.test answered HTTP 429 (rate limited, retry after 5 s)',
    );
    // A refusal after a 429 on the way is the refusal.
    expect(slackProblem(refused('invalid_auth'), undefined, { rateLimitedSec: 3 })).toMatch(
      /^SLACK_BOT_TOKEN/,
    );
  });

  it('finds the system code under the Web API’s own', () => {
    expect(causeCode(unreached)).toBe('ECONNREFUSED');
    expect(causeCode({ code: ErrorCode.RequestError, original: new Error('bad port') })).toBeUndefined();
  });
});
