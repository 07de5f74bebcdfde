import { z } from 'zod';
import { looseMap, recordId, timestamp } from './schemas.js';

/*
 * What a platform webhook delivery says (platform-facts.md): `{event, time, object, objectId,
 * props}`, confirmed. What a `conversationevent.create` carries in its `props` is NOT published: we
 * assume (INFERRED, endpoint table) the timeline event's ticket, name, time, source and data, under
 * these names or their snake_case forms, and that `objectId` is the event's id on the timeline. A
 * delivery that carries less is still useful: it names the ticket to read.
 */

/** A webhook body; empty `props` may come as `[]` (a PHP backend's empty object). */
export const webhookDelivery = z.looseObject({
  event: z.string(),
  object: z.string(),
  objectId: recordId,
  time: timestamp.nullish().catch(undefined),
  props: looseMap.nullish(),
});
export type WebhookDelivery = z.output<typeof webhookDelivery>;

/** A timeline event, told whole: it can be posted with no platform request. */
export interface EventSignal {
  kind: 'event';
  ticketId: string;
  eventId: string;
  eventName: string;
  timestamp: Date;
  source: string | undefined;
  data: Record<string, unknown> | undefined;
}

/** A delivery about a ticket that says too little to post from: the ticket's timeline is read. */
export interface PartialSignal {
  kind: 'partial';
  ticketId: string;
  /** Why it is partial, for the doctor (the names it missed). */
  missing: string[];
}

/** A ticket's own delivery (create/update/delete), with its `state` when it says it. */
export interface TicketSignal {
  kind: 'ticket';
  ticketId: string;
  event: string;
  state: string | undefined;
  /** The delivery's `time` (to the second): a card never goes back to an older one. */
  at: Date | undefined;
}

export type WebhookSignal = EventSignal | PartialSignal | TicketSignal | { kind: 'none' };

const firstOf = (props: Record<string, unknown>, names: string[]) => {
  for (const n of names) if (props[n] !== undefined && props[n] !== null && props[n] !== '') return props[n];
  return undefined;
};

/** What a delivery tells, tolerating every shape a real platform may send. */
export function readSignal(d: WebhookDelivery): WebhookSignal {
  const props = d.props ?? {};
  if (d.object === 'ticket') {
    const state = props.state;
    return {
      kind: 'ticket',
      ticketId: String(d.objectId),
      event: d.event,
      state: typeof state === 'string' && state ? state : undefined,
      at: d.time ?? undefined,
    };
  }
  if (d.object !== 'conversationevent') return { kind: 'none' };
  const ticket = firstOf(props, ['ticketId', 'ticket_id', 'ticket']);
  const ticketId = recordId.safeParse(
    typeof ticket === 'object' && ticket ? (ticket as { id?: unknown }).id : ticket,
  );
  if (!ticketId.success) return { kind: 'none' };
  const name = firstOf(props, ['eventName', 'event_name']);
  const at = timestamp.safeParse(firstOf(props, ['timestamp', 'created', 'created_at']));
  const missing = [...(typeof name === 'string' ? [] : ['eventName']), ...(at.success ? [] : ['timestamp'])];
  if (typeof name !== 'string' || !at.success)
    return { kind: 'partial', ticketId: String(ticketId.data), missing };
  const source = firstOf(props, ['source']);
  const data = looseMap.safeParse(props.data);
  return {
    kind: 'event',
    ticketId: String(ticketId.data),
    eventId: String(d.objectId),
    eventName: name,
    timestamp: at.data,
    source: typeof source === 'string' ? source : undefined,
    data: data.success ? data.data : undefined,
  };
}
