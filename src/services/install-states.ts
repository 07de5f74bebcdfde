import { createHash } from 'node:crypto';
import oauth, { type InstallURLOptions, InvalidStateError, type StateStore } from '@slack/oauth';
import type { WorkspaceRepository } from '../store/store.js';

/**
 * The "Add to Slack" flow's `state`, usable once. `@slack/oauth`'s own store (`ClearStateStore`)
 * signs the state and lets it expire, but a state with its cookie works again until then: a redirect
 * seen once (a proxy's log, a browser's history, a shared link) could be played again. This one
 * verifies as it does, then records a digest of the state in the store (shared by every replica) and
 * refuses it the second time. The installer checks the state against the browser's cookie first.
 */
// Node's ESM loader does not see `ClearStateStore` among the CommonJS package's named exports (it is
// re-exported through a getter): taken from the package object, as a bundler-free start needs it.
const { ClearStateStore } = oauth;

export class OnceStateStore implements StateStore {
  private readonly signed: InstanceType<typeof ClearStateStore>;

  constructor(
    private readonly used: Pick<WorkspaceRepository, 'useInstallState'>,
    secret: string,
    private readonly expirySeconds = 600,
  ) {
    this.signed = new ClearStateStore(secret, expirySeconds);
  }

  generateStateParam(options: InstallURLOptions, now: Date): Promise<string> {
    return this.signed.generateStateParam(options, now);
  }

  async verifyStateParam(now: Date, state: string): Promise<InstallURLOptions> {
    // Forged and expired states are refused here, before anything is written for them.
    const options = await this.signed.verifyStateParam(now, state);
    const digest = createHash('sha256').update(state).digest('hex');
    const until = new Date(now.getTime() + this.expirySeconds * 1000);
    if (!(await this.used.useInstallState(digest, until, now)))
      throw new InvalidStateError('The state was used already: start again from the install page');
    return options;
  }
}
