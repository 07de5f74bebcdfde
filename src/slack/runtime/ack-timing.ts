import type { App, ReceiverEvent } from '@slack/bolt';
import { type WebClient, WebClientEvent } from '@slack/web-api';
import type { SlackSurface, WorkspaceMetrics } from '../../observability/metrics.js';

/** The surface a request body comes from, in the order Bolt tells them apart (helpers.js getTypeAndConversation). */
export function surfaceOf(body: Record<string, unknown>): SlackSurface | 'other' {
  if (body.event !== undefined) return 'event';
  if (body.command !== undefined) return 'command';
  if (body.name !== undefined || body.type === 'block_suggestion') return 'options';
  if (body.actions !== undefined || body.type === 'dialog_submission') return 'action';
  if (body.type === 'shortcut' || body.type === 'message_action') return 'shortcut';
  if (body.type === 'view_submission' || body.type === 'view_closed') return 'view';
  return 'other';
}

/**
 * Times every ack in one place, whichever listener (or Bolt itself, for events) acks: from the moment
 * the receiver hands the verified request to Bolt (`processEvent`, in both transports) to the end of
 * its first ack, by surface. A global middleware cannot do it: Bolt gives each middleware and
 * listener a copy of the arguments (middleware/process.js), so a wrapped `ack` would not reach them.
 * Answers how to watch the clients Bolt gives listeners (one per token, kept by Bolt) for the 429s
 * Slack answers them: the one global middleware (`request-scope.ts`) calls it with each request's.
 */
export function measureAcks(
  app: App,
  metrics: Pick<WorkspaceMetrics, 'ack' | 'rateLimited'>,
): (client: WebClient) => void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = (event: ReceiverEvent) => {
    const arrived = performance.now();
    const surface = surfaceOf(event.body);
    let timed = false;
    return processEvent({
      ...event,
      ack: async (response?: unknown) => {
        try {
          return await event.ack(response);
        } finally {
          if (!timed && surface !== 'other') metrics.ack(surface, (performance.now() - arrived) / 1000);
          timed = true;
        }
      },
    });
  };
  const watched = new WeakSet<WebClient>();
  return (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    client.on(WebClientEvent.RATE_LIMITED, () => metrics.rateLimited('slack'));
  };
}
