import type { SlackDouble, SlackMessage } from '../../src/dev/slack-double.js';
import { eventMetadataType } from '../../src/jobs/delivery.js';
import type { SimTicket } from '../../src/sim/model.js';
import type { Simulator } from '../../src/sim/server.js';
import type { Store } from '../../src/store/store.js';

/** A channel watching a ticket since a moment: what it must end up with in Slack. */
export interface Watch {
  ticket: SimTicket;
  channel: string;
  since: number;
}

/** Two channels watch each of the simulator's first `tickets` tickets. */
export async function watchTickets(store: Store, sim: Simulator, tickets = 5): Promise<Watch[]> {
  const watches: Watch[] = [];
  for (const [i, ticket] of [...sim.state.tickets.values()].slice(0, tickets).entries())
    for (const side of ['a', 'b']) {
      const channel = `CK${i}${side}`;
      watches.push({ ticket, channel, since: Date.now() });
      await store.addSubscription({
        id: `w-${channel}`,
        channel,
        kind: 'watch',
        ticketId: String(ticket.id),
        filter: {},
        createdBy: 'UADMIN',
      });
    }
  return watches;
}

/** The environment of a bot child process against this simulator and Slack double. */
export const botEnv = (sim: Simulator, slack: SlackDouble, more: Record<string, string>) => ({
  SLACK_BOT_TOKEN: 'xoxb-child-bot',
  SLACK_SIGNING_SECRET: 'child-secret',
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  PLATFORM_URL: sim.url,
  PLATFORM_TOKEN: sim.adminToken,
  PLATFORM_RATE_LIMIT: '100000',
  PLATFORM_WEBHOOK_SECRET: 'child-hook',
  POLL_INTERVAL: '5',
  LOG_LEVEL: 'info', // "listening on port N" tells the test its port
  ...more,
});

/** Points the simulator's webhooks at a bot child listening on `port`. */
export const hookTo = (sim: Simulator, port: number) =>
  sim.setWebhook({
    url: `http://127.0.0.1:${port}/webhooks/platform`,
    header: 'X-Webhook-Secret',
    secret: 'child-hook',
  });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(20);
  }
  return check();
}

/**
 * The ticket events (or `card`) a message delivered, from its metadata: one, or every line a
 * gathered message holds (`event_ids`, space-separated, beside the first's `event_id`).
 */
export function idsOf(m: SlackMessage): string[] {
  const meta = m.metadata as
    | { event_type?: string; event_payload?: { event_id?: string; event_ids?: string } }
    | undefined;
  if (meta?.event_type !== eventMetadataType) return [];
  const { event_id: id, event_ids: ids } = meta.event_payload ?? {};
  return typeof ids === 'string' ? ids.split(' ') : id ? [id] : [];
}

/** Each channel's card and the events from a minute before its watch on (sorted ids). */
export const expectedIds = (watches: Watch[]) =>
  watches.map(({ ticket, channel, since }) => ({
    channel,
    ids: ['card', ...ticket.events.filter((e) => e.timestamp >= since - 60_000).map((e) => e.id)].sort(),
  }));

/** Whether every channel has at least as many distinct deliveries as it should. */
export const allDelivered = (slack: SlackDouble, watches: Watch[]) =>
  expectedIds(watches).every(
    ({ channel, ids }) =>
      new Set(slack.messages.filter((m) => m.channel === channel).flatMap(idsOf)).size >= ids.length,
  );

/** Asserts each channel holds exactly its expected deliveries, the card first and the events in its thread. */
export function exactlyOnce(slack: SlackDouble, watches: Watch[]): { channel: string; problem: string }[] {
  const problems: { channel: string; problem: string }[] = [];
  for (const { channel, ids } of expectedIds(watches)) {
    const posts = slack.messages.filter((m) => m.channel === channel);
    const got = posts.flatMap((m) => (idsOf(m).length ? idsOf(m) : ['(no metadata)'])).sort();
    if (JSON.stringify(got) !== JSON.stringify(ids))
      problems.push({ channel, problem: `expected ${ids.join(' ')} got ${got.join(' ')}` });
    const card = posts.find((m) => idsOf(m).includes('card'));
    if (!card || card.thread_ts) problems.push({ channel, problem: 'no card at the top of the channel' });
    else if (posts.some((m) => m !== card && m.thread_ts !== card.ts))
      problems.push({ channel, problem: 'an event outside the card’s thread' });
  }
  return problems;
}
