import type { SimFaults } from '../faults.js';
import type { SimHostility } from '../hostile.js';
import type { Handler, RequestLogEntry, SimSettings } from '../http.js';
import type { SimUser } from '../model.js';
import type { SimQuirks } from '../quirks.js';
import type { SimChange, SimState } from '../state.js';
import type { WebhookDelivery } from '../webhooks.js';
import type { Lookups } from './lookups.js';

/** What each resource's registrar (`routes/<resource>.ts`) is given: the state, the switches, the shared lookups. */
export interface RouteContext extends Lookups {
  state: SimState;
  quirks: SimQuirks;
  now: () => number;
  /** Registers an `/api/v3` route; a public one needs no token. */
  route: (method: string, path: string, handler: Handler, isPublic?: boolean) => void;
  sendWebhook: (change: SimChange) => void;
  issueToken: (user: SimUser, ttl?: number) => string;
  tokens: Map<string, { userId: number; expiresAt: number }>;
  settings: SimSettings;
  /** Known once the server listens; read when a route answers. */
  publicUrl: () => string;
}

/** The admin routes (`/_sim`) also reach the simulator's controls and records. */
export interface AdminContext extends RouteContext {
  admin: (method: string, path: string, handler: Handler) => void;
  faults: SimFaults;
  hostility: SimHostility;
  requests: RequestLogEntry[];
  webhookDeliveries: WebhookDelivery[];
  adminUser: SimUser;
}
