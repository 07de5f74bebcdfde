import { describe, expect, it } from 'vitest';
import { handleAppUninstalled } from '../../../src/slack/events/app-uninstalled.js';
import { keptLog } from '../../helpers/listener-fakes.js';

type Args = Parameters<ReturnType<typeof handleAppUninstalled>>[0];
const uninstalled = (eventTime?: unknown) =>
  ({ body: { team_id: 'T1', event_time: eventTime, event: { type: 'app_uninstalled' } } }) as unknown as Args;

describe('app_uninstalled', () => {
  it('forgets the workspace in distribution mode, as of when Slack says it happened', async () => {
    const forgot: [string, Date | undefined][] = [];
    const { log, lines } = keptLog();
    await handleAppUninstalled({
      logger: log,
      forgetWorkspace: async (team, at) => void forgot.push([team, at]),
    })(uninstalled(1_700_000_000));
    expect(forgot).toEqual([['T1', new Date(1_700_000_000_000)]]);
    expect(lines).toEqual([
      expect.objectContaining({ team: 'T1', msg: 'confdesk was uninstalled from the workspace' }),
    ]);
  });

  it('with one workspace only logs it; a time that is not a number is left out', async () => {
    const { log, lines } = keptLog();
    await handleAppUninstalled({ logger: log })(uninstalled());
    expect(lines).toHaveLength(1);
    const forgot: unknown[] = [];
    await handleAppUninstalled({ logger: log, forgetWorkspace: async (...a) => void forgot.push(a) })(
      uninstalled('soon'),
    );
    expect(forgot).toEqual([['T1', undefined]]);
  });
});
