import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import { ProbedCheck } from '../observability/readiness.js';
import { openStore, type Store, type StoreOptions } from '../store/store.js';
import { storeProblem } from './checks.js';
import { StartupError } from './startup-error.js';

/** The store the configuration names (DATABASE_URL, DATA_DIR, DATABASE_SCHEMA), migrated; or a StartupError. */
export async function openConfiguredStore(config: Config): Promise<Store> {
  try {
    return await openStore(storeOptionsOf(config));
  } catch (error) {
    throw new StartupError(storeProblem(error, config.store), error);
  }
}

/** The store's options, as the configuration names it. */
export const storeOptionsOf = (config: Config): StoreOptions => ({
  databaseUrl: config.store.databaseUrl,
  dataDir: config.store.dataDir,
  ...(config.store.schema ? { schema: config.store.schema } : {}),
  poolSize: config.store.poolSize,
});

/** `/readyz`'s store check: pinged in the background, its failure said as the fix. */
export function storeReadiness(store: Store, config: Config, logger: Logger): ProbedCheck {
  const check = new ProbedCheck(
    () => store.ping(),
    (error) => `store: ${storeProblem(error, config.store)}`,
    logger.child({ component: 'readiness' }),
  );
  check.start();
  return check;
}
