import { WebClient, WebClientEvent } from '@slack/web-api';

/** Where the bot's Web API calls go: its token, and Slack's API (or a local Slack in tests and the playground). */
export interface SlackTarget {
  token: string;
  apiUrl?: string | undefined;
  /** Told of each 429 Slack answers a client built for this target (the metrics count them). */
  onRateLimited?: (() => void) | undefined;
}

/** A client for `t`, whose 429s reach `t.onRateLimited` (@slack/web-api emits them before any retry). */
const clientFor = (t: SlackTarget, options: ConstructorParameters<typeof WebClient>[1]): WebClient => {
  const client = new WebClient(t.token, { ...(t.apiUrl ? { slackApiUrl: t.apiUrl } : {}), ...options });
  const told = t.onRateLimited;
  if (told) client.on(WebClientEvent.RATE_LIMITED, () => told());
  return client;
};

/**
 * The Web API client for idempotent writes a person waits for (a card's `chat.update`, a conference
 * card): @slack/web-api retries it on network errors and waits out 429s by itself.
 */
export const retryingClient = (t: SlackTarget): WebClient => clientFor(t, {});

/**
 * The Web API client for what the jobs post: it never retries by itself (a blind retry of
 * chat.postMessage can post twice) and reports 429s instead of waiting on them, so the outbox
 * decides (see `classifySlackError`).
 */
export const deliveryClient = (t: SlackTarget): WebClient =>
  clientFor(t, { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
