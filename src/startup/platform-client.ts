import { createHash } from 'node:crypto';
import type { Config, PlatformCredentials } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import { createPlatformClient, type PlatformClient, type PlatformClientOptions } from '../platform/client.js';
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
    memory?: Pick<SettingsRepository, 'platformMemory'>;
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
    ...(o.memory ? { memory: o.memory.platformMemory(platformAccount(o.baseUrl, o.credentials)) } : {}),
  });
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
