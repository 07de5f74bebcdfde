import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { type Playground, runPlayground } from '../../src/playground/start.js';
import type { PlaygroundState } from '../../src/playground/state.js';

export type Json = Record<string, unknown>;

/**
 * The playground as the page drives it, for a test file: started as `npm start` starts it without
 * credentials (the bot, the Slack double and the simulator all real), stopped after the file, and its
 * JSON API (what the browser sends): `post` to a route, `state` as a person sees it.
 */
export function usePlaygroundApi() {
  let pg: Playground | undefined;
  beforeAll(async () => {
    pg = await runPlayground({ env: {}, port: 0, logger: createLogger('silent') });
  }, 30_000);
  afterAll(async () => {
    await pg?.stop();
  });
  const running = (): Playground => {
    if (!pg) throw new Error('the playground is not running (use it inside a test)');
    return pg;
  };
  return {
    get pg() {
      return running();
    },
    post: async (path: string, body: unknown): Promise<Json> => {
      const res = await fetch(`${running().url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Json;
    },
    state: async (as: string): Promise<PlaygroundState> =>
      (await (await fetch(`${running().url}/api/state?as=${as}`)).json()) as PlaygroundState,
  };
}
