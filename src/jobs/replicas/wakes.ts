import type { Store } from '../../store/store.js';

/**
 * What a write to the store gives the jobs to do: which job, and from when (epoch ms; none: now).
 * `poll`: something is watched now (a subscription, a card): the scans go back to their pace.
 */
export interface Wake {
  job: 'deliver' | 'poll' | 'digest';
  at?: number;
}

/** The store as the bot's writers use it, and the jobs' way to hear what they wrote. */
export interface StoreWakes {
  store: Store;
  /** Calls `listener` after each write that gives a job something to do; answers how to stop. */
  listen(listener: (wake: Wake) => void): () => void;
}

/*
 * A held item is claimable once the store's clock passes its `available_at`; the wake comes a few
 * milliseconds later, so the claim it starts never finds it a hair too early.
 */
const holdSlackMs = 5;

/**
 * Idle jobs sleep; the writes that give them work wake them. Every writer of this process (a
 * person's line, a webhook, a scan, a subscription, a digest schedule, the bot back in a channel)
 * goes through the store given to `createConfdesk`, so wrapping its few writing methods hears all of
 * them, with no writer knowing about the jobs. The read backlog is not among them: a scan triggers
 * its reads, and a webhook's check read must wait for the scan it asked for (a read before it would
 * cost a request per new ticket). Another replica's writes are not heard: its own jobs
 * take them, and the jobs' slow heartbeat catches what is left (a crashed replica's leases).
 */
export function wakeOnWrites(store: Store): StoreWakes {
  const listeners = new Set<(wake: Wake) => void>();
  const tell = (wake: Wake) => {
    for (const l of listeners) l(wake);
  };
  return {
    store: {
      ...store,
      async advance(items, seen) {
        const fresh = await store.advance(items, seen);
        if (fresh > 0) {
          const now = Date.now();
          for (const hold of new Set(items.map((i) => i.holdMs ?? 0)))
            tell({ job: 'deliver', ...(hold > 0 ? { at: now + hold + holdSlackMs } : {}) });
        }
        return fresh;
      },
      async requeueDead(channel) {
        const n = await store.requeueDead(channel);
        if (n > 0) tell({ job: 'deliver' });
        return n;
      },
      async backInChannel(channel) {
        const n = await store.backInChannel(channel);
        if (n) tell({ job: 'deliver' });
        return n;
      },
      async addSubscription(s) {
        await store.addSubscription(s);
        tell({ job: 'poll' });
      },
      async save(link) {
        await store.save(link);
        tell({ job: 'poll' });
      },
      async addDigestSchedule(s) {
        await store.addDigestSchedule(s);
        tell({ job: 'digest' });
      },
      async replaceDigestSchedule(s) {
        await store.replaceDigestSchedule(s);
        tell({ job: 'digest' });
      },
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
