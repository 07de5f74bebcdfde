import type { Logger } from '../observability/logger.js';
import { WorkspaceRegistry } from '../services/workspaces.js';
import type { Store } from '../store/store.js';
import { parseKey, SecretBox } from '../util/secret-box.js';

/**
 * The registry of installations and settings, sealed with CONFDESK_ENCRYPTION_KEY (`keys`: the key,
 * then the previous one). What the previous key sealed, or an earlier confdesk sealed without binding
 * it to its workspace, is sealed again at once (a key rotation, an upgrade).
 */
export async function openRegistry(
  keys: readonly string[],
  store: Store,
  logger: Logger,
  now?: () => Date,
): Promise<WorkspaceRegistry> {
  const box = new SecretBox(keys.map(parseKey).filter((k): k is Buffer => k !== undefined));
  const registry = new WorkspaceRegistry(store, box, now);
  const resealed = await registry.reseal((team, error) =>
    logger.error(
      { team, err: error },
      'could not seal a workspace’s secrets again (with the new key, bound to it)',
    ),
  );
  if (resealed)
    logger.info(
      { resealed },
      'sealed the workspaces’ secrets again: with the new CONFDESK_ENCRYPTION_KEY, and bound to their workspace',
    );
  return registry;
}
