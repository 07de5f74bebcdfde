import { randomBytes } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { SimUser } from '../sim/model.js';
import type { Simulator } from '../sim/server.js';
import { slackErrorCode } from '../util/slack-errors.js';

/** SIM_ACCOUNTS, read: whether the workspace's people get accounts, and e-mails given a demo account. */
export interface SimAccountsConfig {
  auto: boolean;
  /** Slack e-mail (lower case) → username of a demo account (admin, alice, bob, carol). */
  map: Record<string, string>;
}

export interface SimAccountsResult {
  /** Usernames created for Slack people. */
  created: string[];
  /** E-mails given to demo accounts (SIM_ACCOUNTS). */
  mapped: string[];
  /** Sentences for what could not be done (the bot starts anyway). */
  problems: string[];
  /** The group the created agents joined. */
  group: string | undefined;
}

interface SlackMember {
  id?: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  profile?: { email?: string; real_name?: string };
}

/**
 * With the built-in simulator, lets the people of the Slack workspace use the bot: confdesk finds a
 * person's platform account by their Slack e-mail, and the demo data knows only `@acme.example`
 * people. Accounts are made through the in-process simulator (the composition root owns it), not
 * its HTTP API: `POST /users` cannot make an admin nor add to a group, and at the default 10 requests
 * a minute a workspace of 50 people would hold the platform's budget for five minutes.
 *
 * Workspace owners and admins become platform admins, the others agents; all join the first demo
 * group ("Level 1"), so tickets and group rights have someone to show.
 */
export async function provideSimAccounts(options: {
  slack: Pick<WebClient, 'users'>;
  sim: Simulator;
  config: SimAccountsConfig;
}): Promise<SimAccountsResult> {
  const { sim, config } = options;
  const state = sim.state;
  const live = () => [...state.users.values()].filter((u) => !u.deleted);
  const enterpriseId = live().find((u) => u.username === 'admin')?.enterpriseId ?? 1;
  const group = [...state.groups.values()]
    .filter((g) => g.enterpriseId === enterpriseId)
    .sort((a, b) => a.id - b.id)[0];
  const result: SimAccountsResult = { created: [], mapped: [], problems: [], group: group?.name };
  const byEmail = (email: string) => live().find((u) => u.email?.toLowerCase() === email);

  for (const [email, username] of Object.entries(config.map)) {
    const target = live().find((u) => u.username === username && u.enterpriseId === enterpriseId);
    const holder = byEmail(email);
    if (!target) {
      const names = live()
        .filter((u) => u.enterpriseId === enterpriseId)
        .map((u) => u.username);
      result.problems.push(
        `SIM_ACCOUNTS: the simulator has no account "${username}" (it has ${names.join(', ')}): fix the name after "${email}="`,
      );
    } else if (holder && holder !== target) {
      result.problems.push(
        `SIM_ACCOUNTS: ${email} already belongs to the demo account "${holder.username}": map it to that one, or give another e-mail`,
      );
    } else {
      target.email = email;
      result.mapped.push(email);
    }
  }
  if (!config.auto) return result;

  let members: SlackMember[];
  try {
    members = await listMembers(options.slack);
  } catch (error) {
    const code = slackErrorCode(error) ?? (error as Error).message;
    result.problems.push(
      `SIM_ACCOUNTS: Slack's users.list failed (${code}), so the workspace's people got no demo account: reinstall the app with the users:read and users:read.email scopes of manifest.yml, or map e-mails with SIM_ACCOUNTS=you@example.com=admin`,
    );
    return result;
  }
  const taken = new Set(live().map((u) => u.username));
  for (const m of members) {
    const email = m.profile?.email?.trim().toLowerCase();
    if (!email || m.deleted || m.is_bot || m.id === 'USLACKBOT' || byEmail(email)) continue;
    const username = uniqueName(m.name || email.split('@')[0] || 'person', taken);
    const [first = '', ...rest] = (m.profile?.real_name || m.real_name || username).split(' ');
    const user: SimUser = state.addUser({
      enterpriseId,
      username,
      password: randomBytes(12).toString('hex'),
      email,
      cellPhone: undefined,
      firstName: first,
      lastName: rest.join(' '),
      role: m.is_admin || m.is_owner || m.is_primary_owner ? 'admin' : 'agent',
      groups: group ? [group.id] : [],
    });
    result.created.push(user.username);
  }
  return result;
}

/** Every member of the workspace, page by page. */
async function listMembers(slack: Pick<WebClient, 'users'>): Promise<SlackMember[]> {
  const members: SlackMember[] = [];
  let cursor: string | undefined;
  do {
    const page = await slack.users.list({ limit: 200, ...(cursor ? { cursor } : {}) });
    members.push(...((page.members ?? []) as SlackMember[]));
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor);
  return members;
}

function uniqueName(wanted: string, taken: Set<string>): string {
  const base = wanted.toLowerCase().replace(/[^a-z0-9._-]/g, '') || 'person';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

/** The log line that says how people of the workspace reach the simulator. */
export function describeSimAccounts(r: SimAccountsResult, config: SimAccountsConfig): string {
  const auto = config.auto
    ? `${r.created.length} Slack ${r.created.length === 1 ? 'person' : 'people'} got a demo account by their e-mail (workspace admins and owners as platform admins, the others as agents${r.group ? ` in "${r.group}"` : ''})`
    : 'Slack people get no demo account (SIM_ACCOUNTS=off)';
  const mapped = r.mapped.length ? `; ${r.mapped.length} e-mail(s) mapped to demo accounts` : '';
  return `built-in simulator: ${auto}${mapped}. SIM_ACCOUNTS=you@example.com=alice maps a Slack e-mail to a demo account (admin, alice, bob, carol); SIM_ACCOUNTS=off turns the automatic accounts off`;
}
