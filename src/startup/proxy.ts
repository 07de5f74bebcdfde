import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import { describeProxy, proxyEverything } from '../platform/proxy.js';

/** Behind a company's proxy, every outgoing request goes through it, from the first (auth.test) on. */
export function useProxy(config: Config, logger: Logger): void {
  if (!config.proxy) return;
  proxyEverything(config.proxy);
  logger.info({ proxy: describeProxy(config.proxy) }, 'outgoing requests go through the proxy');
}
