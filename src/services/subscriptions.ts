import { randomUUID } from 'node:crypto';
import type {
  ChannelRepository,
  Subscription,
  SubscriptionRepository,
  TicketCardRepository,
} from '../store/store.js';

/**
 * What channels follow: a ticket (`watch`), or new tickets and events matching a filter (`follow`).
 * The listeners check who may do what; this writes and reads the subscriptions.
 */
export class SubscriptionService {
  constructor(
    private readonly store: SubscriptionRepository &
      Pick<TicketCardRepository, 'find'> &
      Pick<ChannelRepository, 'backInChannel'>,
  ) {}

  list(channel: string): Promise<Subscription[]> {
    return this.store.subscriptionsOf(channel);
  }

  /**
   * Makes a channel watch a ticket: its events will go in the card's thread there, so `postCard` is
   * called first when the channel has no card of it. The reference is kept with the subscription, so
   * listing a channel's subscriptions reads nothing on the platform. Answers false (and changes
   * nothing) when the channel already watches the ticket.
   */
  async watch(
    channel: string,
    ticket: { id: string; reference?: string | undefined },
    user: string,
    postCard?: () => Promise<void>,
  ): Promise<boolean> {
    if ((await this.watching(channel, ticket.id)).length) return false;
    if (postCard && !(await this.store.find(ticket.id, channel))) await postCard();
    await this.store.addSubscription({
      id: randomUUID(),
      channel,
      kind: 'watch',
      ticketId: ticket.id,
      filter: ticket.reference ? { reference: ticket.reference } : {},
      createdBy: user,
    });
    return true;
  }

  /** Stops a channel watching a ticket; answers whether it was watching it. */
  async unwatch(channel: string, ticketId: string): Promise<boolean> {
    const watching = await this.watching(channel, ticketId);
    for (const s of watching) await this.store.removeSubscription(s.id);
    return watching.length > 0;
  }

  /** Makes a channel follow new tickets and their events matching `filter` (checked by the caller). */
  async follow(channel: string, filter: Record<string, unknown>, user: string): Promise<void> {
    await this.store.addSubscription({
      id: randomUUID(),
      channel,
      kind: 'follow',
      ticketId: undefined,
      filter,
      createdBy: user,
    });
  }

  /**
   * Turns a channel's emoji reactions on (checked by the caller): they then act on tickets there
   * (`slack/events/reaction-added.ts`). Answers false (and changes nothing) when they already were.
   */
  async reactionsOn(channel: string, user: string): Promise<boolean> {
    if (await this.reactsIn(channel)) return false;
    await this.store.addSubscription({
      id: randomUUID(),
      channel,
      kind: 'reactions',
      ticketId: undefined,
      filter: {},
      createdBy: user,
    });
    return true;
  }

  /** Whether a channel's reactions act on tickets (a store read; no platform request). */
  async reactsIn(channel: string): Promise<boolean> {
    return (await this.list(channel)).some((s) => s.kind === 'reactions');
  }

  /**
   * Turns a channel's reactions off once `allowed` accepts the subscription that turned them on (it
   * throws when not); answers whether they were on.
   */
  async reactionsOff(channel: string, allowed: (s: Subscription) => Promise<void> | void): Promise<boolean> {
    const on = (await this.list(channel)).filter((s) => s.kind === 'reactions');
    for (const s of on) await allowed(s);
    for (const s of on) await this.store.removeSubscription(s.id);
    return on.length > 0;
  }

  /**
   * Removes a subscription of `channel` (only of that channel: the list it was shown in) once
   * `allowed` accepts it (it throws when not); answers the channel's subscriptions left, or undefined
   * when the channel has no such subscription.
   */
  async remove(
    channel: string,
    id: string,
    allowed: (s: Subscription) => Promise<void> | void,
  ): Promise<Subscription[] | undefined> {
    const sub = (await this.list(channel)).find((s) => s.id === id);
    if (!sub) return undefined;
    await allowed(sub);
    await this.store.removeSubscription(id);
    return this.list(channel);
  }

  /**
   * The bot was invited back into a channel: when it had been removed from it, its kept ticket
   * events go out again. Answers how many, or undefined when the channel was not marked gone.
   */
  backInChannel(channel: string): Promise<number | undefined> {
    return this.store.backInChannel(channel);
  }

  private async watching(channel: string, ticketId: string): Promise<Subscription[]> {
    return (await this.list(channel)).filter((s) => s.kind === 'watch' && s.ticketId === ticketId);
  }
}
