import { type ChangeCover, coverOf, hides, stateEvents } from '../domain/change-cover.js';
import type { OutboxItem, OutboxRepository } from '../store/store.js';

/** Why an item was settled without a post (kept with it: the operator sees it). */
export const toldByLine = 'told by a line already in the thread';

/**
 * Settles the pending platform events of a ticket that a line in the same thread already tells (a
 * person's line, or a state line): a webhook's event waits a moment (`holdMs`) before it may go out,
 * so the line a person's click writes a few milliseconds later still tells it once. Both writers call
 * this after writing, so whichever comes second sees the other. Answers how many it settled.
 */
export async function settleTold(
  store: Pick<OutboxRepository, 'outboxOf' | 'settle'>,
  ticketId: string,
): Promise<number> {
  const items = await store.outboxOf(ticketId);
  const covers = new Map<string, ChangeCover[]>();
  for (const i of items) {
    const cover = coverOf(i.payload);
    if (cover) covers.set(i.channel, [...(covers.get(i.channel) ?? []), cover]);
  }
  let settled = 0;
  for (const i of items) {
    const event = toldAs(i.payload);
    if (i.status !== 'pending' || !event) continue;
    // A state line is told by a person's line (never by itself, nor by another state line).
    const by = (covers.get(i.channel) ?? []).filter((c) => !(i.payload.stateLine && c.only === 'state'));
    if (by.some((c) => hides(c, event)) || (i.payload.stateLine === true && stateEventOut(items, i)))
      settled += Number(await store.settle(i, { status: 'delivered', reason: toldByLine }));
  }
  return settled;
}

/**
 * Whether a state line's move went out already as the platform's own state event (a timeline read
 * that ran beside the scan): then the line is the one left out. (While both wait, the event is.)
 */
function stateEventOut(items: OutboxItem[], line: OutboxItem): boolean {
  const cover = coverOf(line.payload);
  return (
    !!cover &&
    items.some((i) => {
      const event = toldAs(i.payload);
      return (
        i.channel === line.channel &&
        // Posted, or on its way (not one settled here without a post: it has no ts).
        (i.slackTs !== undefined || i.status === 'unknown') &&
        typeof i.payload.eventName === 'string' &&
        !!event &&
        hides(cover, event)
      );
    })
  );
}

/** The platform event an outbox item tells (a platform event's line, or a state line's version). */
function toldAs(p: Record<string, unknown>) {
  if (typeof p.eventName === 'string' && typeof p.timestamp === 'string')
    return {
      eventName: p.eventName,
      timestamp: new Date(p.timestamp),
      source: typeof p.source === 'string' ? p.source : null,
    };
  const at = coverOf(p)?.at;
  if (p.stateLine === true && at)
    return { eventName: stateEvents[String(p.to)] ?? 'ticket.state', timestamp: new Date(at), source: null };
  return undefined;
}
