import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Action, decide, type Person, policy, standingsOf } from '../../src/domain/policy.js';

const account = (id: string, role: string, groupIds: string[], email = `${id}@acme.example`) => ({
  id,
  role,
  email,
  groupIds,
});
const admin: Person = { slackId: 'UA', account: account('100', 'admin', []) };
const agent: Person = { slackId: 'UB', account: account('101', 'agent', ['10']) };
const stranger: Person = { slackId: 'UC', account: account('103', 'agent', ['11']) };
const nobody: Person = { slackId: 'UN' };
const ticket = { kind: 'ticket', agentId: '102', groupId: '10' } as const;

describe('the policy', () => {
  it('gives each person the standings their account and the object say, and no other', () => {
    expect([...standingsOf(nobody, ticket)]).toEqual(['anyone']);
    expect([...standingsOf(stranger, ticket)].sort()).toEqual(['account', 'anyone']);
    expect([...standingsOf(agent, ticket)].sort()).toEqual(['account', 'anyone', 'member']);
    expect([...standingsOf(admin, ticket)].sort()).toEqual(['account', 'admin', 'anyone']);
    const own = { kind: 'ticket', agentId: '103', groupId: undefined } as const;
    expect(standingsOf(stranger, own).has('owner')).toBe(true);
    const conference = { kind: 'conference', moderatorId: '100', participants: ['UB@ACME.example'] } as const;
    expect(
      standingsOf({ slackId: 'UB', account: account('101', 'agent', [], 'ub@acme.example') }, conference).has(
        'participant',
      ),
    ).toBe(true);
    expect(standingsOf(admin, conference).has('owner')).toBe(true);
    // A subscription's author owns it even without a platform account.
    expect(standingsOf(nobody, { kind: 'subscription', createdBy: 'UN' }).has('owner')).toBe(true);
  });

  it('allows what a row names and refuses the rest with the row’s sentence', () => {
    expect(decide('ticket.move', agent, ticket)).toEqual({ allowed: true });
    expect(decide('ticket.move', admin, ticket)).toEqual({ allowed: true });
    expect(decide('ticket.move', stranger, ticket)).toEqual({
      allowed: false,
      why: `You cannot ${policy['ticket.move'].refusal}.`,
      refusal: 'ticket.move',
    });
    expect(decide('ticket.list-all', agent).allowed).toBe(false);
    expect(decide('digest.set', agent).allowed).toBe(false);
    expect(decide('digest.set', admin).allowed).toBe(true);
    expect(decide('help', nobody).allowed).toBe(true);
    expect(decide('conference.create', nobody).allowed).toBe(false);
    expect(decide('ticket.follow-group', stranger, { kind: 'group', groupId: '10' }).allowed).toBe(false);
  });

  // issue 22: people
  it('keeps the people and groups tools for admins, and one’s own password reset for any account', () => {
    for (const action of [
      'people.list',
      'people.see',
      'people.create',
      'people.edit',
      'people.delete',
      'groups.list',
      'password.reset-any',
    ] as const) {
      expect(decide(action, admin).allowed, action).toBe(true);
      const refused = decide(action, agent);
      expect(refused.allowed, action).toBe(false);
      expect((refused as { why: string }).why, action).toMatch(/^You cannot .+ video platform admins/);
      expect(decide(action, nobody).allowed, action).toBe(false);
    }
    expect(decide('password.reset-own', agent).allowed).toBe(true);
    expect(decide('password.reset-own', admin).allowed).toBe(true);
    expect(decide('password.reset-own', nobody)).toEqual({
      allowed: false,
      why: 'You cannot reset a video platform password without a platform account.',
      refusal: 'password.reset-own',
    });
  });

  it('is the table docs/permissions.md shows, row for row', () => {
    const page = readFileSync(new URL('../../docs/permissions.md', import.meta.url), 'utf8');
    const columns = ['anyone', 'account', 'member', 'owner', 'participant', 'admin'];
    const rows = new Map<string, string[]>();
    for (const m of page.matchAll(/^\| `([a-z.-]+)` \|(.*)\|$/gm)) {
      const cells = (m[2] as string).split('|').map((c) => c.trim());
      rows.set(
        m[1] as string,
        columns.filter((_, i) => cells[i] === '✓'),
      );
    }
    for (const [action, rule] of Object.entries(policy))
      expect([action, rows.get(action)]).toEqual([
        action,
        [...rule.who].sort((a, b) => columns.indexOf(a) - columns.indexOf(b)),
      ]);
    expect([...rows.keys()].sort()).toEqual((Object.keys(policy) as Action[]).sort());
  });
});
