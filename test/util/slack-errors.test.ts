import { ErrorCode } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  classifySlackError,
  isCannotPost,
  isWebApiErrorCode,
  slackAnswerOf,
  slackErrorCode,
} from '../../src/util/slack-errors.js';

/** A failed Web API call as @slack/web-api throws it. */
const refusal = (error: string) => ({ code: ErrorCode.PlatformError, data: { ok: false, error } });

describe('the one reader of Slack refusals', () => {
  it.each([
    [refusal('not_in_channel'), 'gone'],
    [refusal('channel_not_found'), 'gone'],
    [refusal('is_archived'), 'gone'],
    [refusal('missing_scope'), 'gone'],
    [refusal('no_permission'), 'gone'],
    [refusal('thread_not_found'), 'thread'],
    [refusal('cannot_reply_to_message'), 'thread'],
    [refusal('invalid_blocks'), 'refused'],
    [refusal('restricted_action'), 'refused'],
    [refusal('ratelimited'), 'rate_limited'],
    [refusal('message_limit_exceeded'), 'rate_limited'],
    [{ code: ErrorCode.RateLimitedError, retryAfter: 7 }, 'rate_limited'],
    [refusal('invalid_auth'), 'token'],
    [refusal('token_revoked'), 'token'],
    [refusal('account_inactive'), 'token'],
    [refusal('not_authed'), 'token'],
    [refusal('team_access_not_granted'), 'token'],
    [refusal('ekm_access_denied'), 'token'],
    [refusal('internal_error'), 'unknown'],
    [{ code: ErrorCode.RequestError }, 'unknown'],
    [new Error('socket hang up'), 'unknown'],
  ])('%o is %s', (error, kind) => {
    expect(classifySlackError(error).kind).toBe(kind);
  });

  it('waits as long as Slack says, and only a gone channel is one a person can fix by inviting the bot', () => {
    expect(classifySlackError({ code: ErrorCode.RateLimitedError, retryAfter: 7 })).toMatchObject({
      retryAfterMs: 7_000,
    });
    expect(isCannotPost(refusal('not_in_channel'))).toBe(true);
    expect(isCannotPost(refusal('token_revoked'))).toBe(false);
    expect(isCannotPost(refusal('invalid_blocks'))).toBe(false);
  });

  it('says what answer a failed call had: a refusal, a 429, another HTTP status, or none', () => {
    expect(slackAnswerOf(refusal('user_not_found'))).toEqual({ kind: 'refusal', code: 'user_not_found' });
    expect(slackAnswerOf({ code: ErrorCode.PlatformError, data: { ok: false } })).toEqual({
      kind: 'refusal',
      code: undefined,
    });
    expect(slackAnswerOf({ code: ErrorCode.RateLimitedError, retryAfter: 3 })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 3_000,
    });
    expect(slackAnswerOf({ code: ErrorCode.RateLimitedError })).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 1_000,
    });
    expect(slackAnswerOf({ code: ErrorCode.HTTPError, statusCode: 503 })).toEqual({
      kind: 'http',
      status: 503,
    });
    expect(slackAnswerOf({ code: ErrorCode.RequestError, original: new Error('ECONNREFUSED') })).toEqual({
      kind: 'no_answer',
    });
    for (const other of [new Error('boom'), { code: 'ECONNRESET' }, undefined, null, 'text'])
      expect(slackAnswerOf(other)).toBeUndefined();
  });

  it('names Slack’s own code only when Slack answered one, and tells its library’s codes from the system’s', () => {
    expect(slackErrorCode(refusal('invalid_auth'))).toBe('invalid_auth');
    // Read from a refusal only: another error's `data.error` is not Slack's answer.
    expect(slackErrorCode({ data: { error: 'user_not_found' } })).toBeUndefined();
    expect(slackErrorCode({ code: ErrorCode.HTTPError, statusCode: 500 })).toBeUndefined();
    expect(isWebApiErrorCode(ErrorCode.RequestError)).toBe(true);
    expect(isWebApiErrorCode(ErrorCode.PlatformError)).toBe(true);
    expect(isWebApiErrorCode('ECONNREFUSED')).toBe(false);
  });
});
