import { WebClient } from '@slack/web-api';

/** Where the bot's Web API calls go: its token, and Slack's API (or a local Slack in tests and the playground). */
export interface SlackTarget {
  token: string;
  apiUrl?: string | undefined;
}

/**
 * The Web API client for idempotent writes a person waits for (a card's `chat.update`, a conference
 * card): @slack/web-api retries it on network errors and waits out 429s by itself.
 */
export const retryingClient = (t: SlackTarget): WebClient =>
  new WebClient(t.token, t.apiUrl ? { slackApiUrl: t.apiUrl } : {});

/**
 * The Web API client for what the jobs post: it never retries by itself (a blind retry of
 * chat.postMessage can post twice) and reports 429s instead of waiting on them, so the outbox
 * decides (see `classifySlackError`).
 */
export const deliveryClient = (t: SlackTarget): WebClient =>
  new WebClient(t.token, {
    ...(t.apiUrl ? { slackApiUrl: t.apiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
