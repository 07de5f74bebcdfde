import { createHash } from 'node:crypto';
import type { Config, PlatformCredentials } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import {
  createPlatformClient,
  type PlatformClient,
  type PlatformClientOptions,
  type PlatformMemory,
} from '../platform/client.js';
import type { SettingsRepository } from '../store/store.js';

/**
 * A platform client with the configuration's rate limit, timeouts and proxy, for the start path, the
 * doctor and each workspace of distribution mode alike. `simulator`: the built-in simulator is local,
 * so only a real platform is reached through the proxy. `reach`: by default the operator named the
 * address (PLATFORM_URL) and the other hosts it may reach (PLATFORM_HOSTS).
 */
export function platformClientFor(
  config: Pick<Config, 'platform' | 'proxy'>,
  o: {
    baseUrl: string;
    credentials: PlatformCredentials;
    simulator?: boolean;
    reach?: PlatformClientOptions['reach'];
    logger?: Logger;
    /** Where the client keeps the account's grants and cached reads across a restart (the store). */
    memory?: MemoryStore;
  },
): PlatformClient {
  return createPlatformClient({
    baseUrl: o.baseUrl,
    credentials: o.credentials,
    rateLimitPerMinute: config.platform.rateLimitPerMinute,
    timeouts: config.platform.timeouts,
    ...(o.simulator ? {} : { proxy: config.proxy }),
    reach: o.reach ?? { allowedHosts: config.platform.hosts, operatorConfigured: true },
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.memory ? { memory: platformMemoryIn(o.memory, platformAccount(o.baseUrl, o.credentials)) } : {}),
  });
}

/** A store that keeps a platform client's memory (`SettingsRepository`). */
export type MemoryStore = Pick<SettingsRepository, 'recallPlatformMemory' | 'keepPlatformMemory'>;

/** The platform client's memory for `account`, kept in `store`. */
function platformMemoryIn(store: MemoryStore, account: string): PlatformMemory {
  return {
    grants: {
      recall: async () =>
        (await store.recallPlatformMemory(account, 'grants')).filter(
          (g): g is number => typeof g === 'number',
        ),
      keep: (grants) => store.keepPlatformMemory(account, 'grants', grants),
    },
    reads: {
      recall: () => store.recallPlatformMemory(account, 'reads'),
      keep: (entries) => store.keepPlatformMemory(account, 'reads', entries),
    },
  };
}

/**
 * Names the platform account whose rate window the grants count in: the address and the user (a
 * token only by a digest of it, never the token itself).
 */
export function platformAccount(baseUrl: string, credentials: PlatformCredentials): string {
  const who =
    credentials.kind === 'password'
      ? `user ${credentials.username}`
      : `token ${createHash('sha256').update(credentials.token).digest('hex').slice(0, 16)}`;
  return `${baseUrl.replace(/\/+$/, '')} ${who}`;
}
