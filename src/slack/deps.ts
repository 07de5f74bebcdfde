import type { TicketDeps } from './actions/ticket-card.js';
import type { ConferenceDeps } from './conference-flows.js';

/** What the listeners need, as `app.ts` builds it once: the services, the store, a logger, a clock. */
export type Deps = ConferenceDeps &
  TicketDeps & {
    /** About how long the platform's rate budget will hold the next interactive call, in ms. */
    waitMs: () => number;
  };
