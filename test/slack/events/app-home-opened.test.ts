import { describe, expect, it } from 'vitest';
import type { HomeDeps } from '../../../src/slack/deps.js';
import { handleHome } from '../../../src/slack/events/app-home-opened.js';
import { silent } from '../../helpers/listener-fakes.js';

type Args = Parameters<ReturnType<typeof handleHome>>[0];

/** Opening App Home publishes the person's Home; opening the Messages tab publishes nothing. */
describe('app_home_opened', () => {
  const opened: string[] = [];
  const deps = {
    homes: { opened: async (user: string) => void opened.push(user), refresh: async () => undefined },
    logger: silent,
  } as unknown as HomeDeps;
  const event = (tab: string) =>
    ({ event: { type: 'app_home_opened', user: 'UALICE', tab } }) as unknown as Args;

  it('publishes the Home of the person who opened it', async () => {
    await handleHome(deps)(event('home'));
    expect(opened).toEqual(['UALICE']);
  });

  it('publishes nothing when the Messages tab was opened', async () => {
    opened.length = 0;
    await handleHome(deps)(event('messages'));
    expect(opened).toEqual([]);
  });
});
