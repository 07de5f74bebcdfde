import type { PlatformControls } from './web/contract.js';

/** One platform-side change the page asks for (`POST /api/platform`). */
export interface PlatformOp {
  op: 'state' | 'event' | 'media' | 'guest-join' | 'session-end' | 'webhooks';
  ticketId?: number;
  state?: string;
  name?: string;
  on?: boolean;
}

/**
 * The platform as its people would change it, through the built-in simulator: a ticket's state as
 * the platform admin through the platform's own API, the rest (a timeline event, a snapshot, the
 * guest joining or leaving, webhooks on or off) through the simulator's admin routes (`/_sim`).
 */
export class PlatformSide {
  constructor(
    private readonly o: {
      simUrl: string;
      adminToken: string;
      /** Where the simulator posts its webhooks: the bot's route, with the secret it was given. */
      webhook: { url: string; header: string; secret: string } | undefined;
      /** The bot's ticket events backlog, in a sentence (its jobs look at it every few seconds). */
      backlog?: () => string | undefined;
    },
  ) {}

  /** The tickets of the admin's enterprise, the states a ticket can be put in, and whether webhooks go out. */
  async controls(): Promise<PlatformControls> {
    const [list, webhook] = await Promise.all([
      this.call<{ tickets: PlatformControls['tickets']; states: string[] }>('GET', '/_sim/tickets'),
      this.call<{ on: boolean }>('GET', '/_sim/webhook'),
    ]);
    return { tickets: list.tickets, states: list.states, webhooks: webhook.on, backlog: this.o.backlog?.() };
  }

  /** Applies one change; throws an Error with the platform's words when it refuses. */
  async apply(change: PlatformOp): Promise<void> {
    if (change.op === 'webhooks') return this.webhooks(change.on === true);
    const id = change.ticketId;
    if (!Number.isInteger(id)) throw new Error('Pick a ticket first.');
    const ticket = `/tickets/${id}`;
    switch (change.op) {
      case 'state':
        if (!change.state) throw new Error('Pick a state first.');
        await this.call('PUT', `/api/v3${ticket}`, { state: change.state });
        return;
      case 'event':
        if (!change.name?.trim()) throw new Error('Give the event a name.');
        await this.call('POST', `/_sim${ticket}/events`, { name: change.name.trim() });
        return;
      case 'media':
        await this.call('POST', `/_sim${ticket}/picture`);
        return;
      case 'guest-join':
        await this.call('POST', `/_sim${ticket}/guest-join`);
        return;
      case 'session-end':
        await this.call('POST', `/_sim${ticket}/session-end`);
        return;
    }
  }

  /** On: the simulator posts every change to the bot's webhook route; off: it posts nothing. */
  async webhooks(on: boolean): Promise<void> {
    const target = this.o.webhook;
    if (on && !target) throw new Error('The bot has no webhook secret (PLATFORM_WEBHOOK_SECRET).');
    if (on && target) await this.call('PUT', '/_sim/webhook', target);
    else await this.call('DELETE', '/_sim/webhook');
  }

  private async call<T>(method: string, path: string, query: Record<string, string> = {}): Promise<T> {
    const url = new URL(path, this.o.simUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${this.o.adminToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const said = (body as { message?: string; error?: string } | undefined) ?? {};
      throw new Error(`The platform answered ${res.status}: ${said.message ?? said.error ?? res.statusText}`);
    }
    return body as T;
  }
}
