import { describe, expect, it } from 'vitest';
import { handleTokensRevoked } from '../../../src/slack/events/tokens-revoked.js';
import { keptLog } from '../../helpers/listener-fakes.js';

type Args = Parameters<ReturnType<typeof handleTokensRevoked>>[0];
const revoked = (tokens: { bot?: string[]; oauth?: string[] }) =>
  ({
    event: { type: 'tokens_revoked', tokens },
    body: { team_id: 'T1', event_time: 1_700_000_000 },
  }) as unknown as Args;

describe('tokens_revoked', () => {
  it('forgets the workspace when the bot’s token is among them, logging which tokens (never a value)', async () => {
    const forgot: unknown[] = [];
    const { log, lines } = keptLog();
    await handleTokensRevoked({ logger: log, forgetWorkspace: async (...a) => void forgot.push(a) })(
      revoked({ bot: ['UBOT'] }),
    );
    expect(forgot).toEqual([['T1', new Date(1_700_000_000_000)]]);
    expect(lines).toEqual([expect.objectContaining({ team: 'T1', revoked: { bot: ['UBOT'] } })]);
  });

  it('keeps the workspace when only people’s tokens were revoked', async () => {
    const forgot: unknown[] = [];
    const { log, lines } = keptLog();
    await handleTokensRevoked({ logger: log, forgetWorkspace: async (...a) => void forgot.push(a) })(
      revoked({ oauth: ['UALICE'] }),
    );
    expect(forgot).toEqual([]);
    expect(lines).toHaveLength(1);
  });
});
