import { describe, expect, it } from 'vitest';
import { teamOf } from '../../src/distribution/receiver.js';

/*
 * Distribution mode hands each request to one workspace's confdesk (its bot token, platform and
 * store): it must pick the workspace Bolt itself would authorize (App.js buildSource), never another
 * team a payload names.
 */

describe('teamOf: the workspace a request is handed to', () => {
  it('a command: its team_id', () => {
    expect(teamOf({ command: '/ticket', team_id: 'TA', user_id: 'U1' })).toBe('TA');
  });

  it("an event: the installation in authorizations, not the outer team_id (a Slack Connect channel's other workspace)", () => {
    expect(
      teamOf({
        type: 'event_callback',
        team_id: 'TB',
        authorizations: [{ team_id: 'TA', enterprise_id: null, is_bot: true }],
        event: { type: 'member_joined_channel', channel: 'CSHARED', user: 'UB1' },
      }),
    ).toBe('TA');
    // An org-wide installation's authorization has no team: the outer team_id then.
    expect(
      teamOf({ type: 'event_callback', team_id: 'TB', authorizations: [{ team_id: null }], event: {} }),
    ).toBe('TB');
    expect(teamOf({ type: 'event_callback', team_id: 'TB', event: {} })).toBe('TB');
  });

  it('a view submission: the team that installed the app the view belongs to, first', () => {
    expect(
      teamOf({
        type: 'view_submission',
        team: { id: 'TB' },
        user: { id: 'UB1', team_id: 'TB' },
        view: { id: 'V1', app_installed_team_id: 'TA' },
      }),
    ).toBe('TA');
    expect(
      teamOf({ type: 'view_submission', team: { id: 'TB' }, user: { id: 'UB1', team_id: 'TB' }, view: {} }),
    ).toBe('TB');
  });

  it("other interactivity: team.id, else the user's team (a null team)", () => {
    expect(teamOf({ type: 'block_actions', team: { id: 'TA' }, user: { id: 'U', team_id: 'TB' } })).toBe(
      'TA',
    );
    expect(teamOf({ type: 'block_suggestion', team: null, user: { id: 'U', team_id: 'TB' } })).toBe('TB');
  });
});
