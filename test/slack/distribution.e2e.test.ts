import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { loadConfig } from '../../src/config/config.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { type RunningWorkspaces, startWorkspaces } from '../../src/distribution/start.js';
import { createLogger } from '../../src/observability/logger.js';
import { createSimulator, type Simulator } from '../../src/sim/server.js';
import { eventually, formState, submission } from '../helpers/bot.js';
import { installThrough, type SettingsFields, settingsSubmission } from '../helpers/distribution.js';
import { clientAs } from '../helpers/platform.js';
import { sendSigned } from '../helpers/slack-requests.js';
import { optionsOf, suggestion } from '../helpers/suggest.js';

/*
 * Distribution mode (issue 23 §2), as outsiders would try it: two workspaces installed through "Add to
 * Slack" on one process, each set up by its Slack admin with its own platform (two simulators), and
 * nothing of one reachable from the other.
 */

const secret = 'dist-signing-secret';
const publicUrl = 'https://confdesk.example';
const defaultKey = 'd'.repeat(32);
const alpha = {
  team: 'TALPHA01',
  name: 'Alpha <Corp>',
  admin: 'UA_ADMIN',
  member: 'UA_MEMBER',
  channel: 'CA1',
};
const beta = { team: 'TBETA002', name: 'Beta', admin: 'UB_ADMIN', member: 'UB_MEMBER', channel: 'CB1' };
type Ws = typeof alpha;

let slack: SlackDouble;
let simA: Simulator;
let simB: Simulator;
let dataDir: string;
let running: RunningWorkspaces;
let url: string;
let config: ReturnType<typeof loadConfig>;
let env: Record<string, string>;
/** Every line the bot logs, at debug level: no secret may be among them. */
const logLines: string[] = [];
const silent = createLogger('debug', { write: (line: string) => void logLines.push(line) });

beforeAll(async () => {
  slack = await new SlackDouble().start();
  slack.oauthApp = { clientId: '111.222', clientSecret: 'client-secret' };
  // The Slack admins of each workspace carry the platform admin's e-mail of their simulator.
  slack.addUser({ id: alpha.admin, email: 'admin@acme.example', is_admin: true });
  slack.addUser({ id: alpha.member, email: 'alice@acme.example' });
  slack.addUser({ id: beta.admin, email: 'admin@acme.example', is_admin: true });
  slack.addUser({ id: beta.member, email: 'bob@acme.example' });
  simA = await createSimulator({ rateLimit: 0 });
  simB = await createSimulator({ rateLimit: 0 });
  // Someone only Beta's platform knows, for the type-ahead menus.
  await clientAs(simB, 'admin').createUser({
    username: 'zoltan',
    password: 'pw-zoltan-1',
    email: 'zoltan@beta.example',
    firstName: 'Zoltan',
    lastName: 'Betaonly',
  });
  dataDir = mkdtempSync(join(tmpdir(), 'confdesk-dist-'));
  env = {
    SLACK_SIGNING_SECRET: secret,
    SLACK_CLIENT_ID: '111.222',
    SLACK_CLIENT_SECRET: 'client-secret',
    SLACK_STATE_SECRET: 'state-secret-for-the-tests',
    CONFDESK_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: publicUrl,
    SLACK_API_URL: slack.apiUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    METRICS_TOKEN: 'metrics-token-for-the-tests',
    // The simulators count nothing: the bot's own budget would make the background reads wait.
    PLATFORM_RATE_LIMIT: '6000',
    // The simulators are plain http on loopback: allowed by name, as an operator would allow theirs.
    PLATFORM_HOSTS: '127.0.0.1',
  };
  config = loadConfig(env);
  running = await startWorkspaces(config, silent, {
    jobs: { deliverEveryMs: 50, paceMs: 20 },
  });
  await running.started;
  url = `http://127.0.0.1:${running.port}`;
});

afterAll(async () => {
  await running?.stop();
  await slack?.stop();
  await simA?.close();
  await simB?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: string, contentType: string) {
  const res = await sendSigned(url, secret, body, contentType);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

async function command(ws: Ws, user: string, name: string, text: string) {
  const trigger = `trigger-${Math.random()}`;
  slack.registerTrigger(trigger, user);
  const responseUrl = slack.responseUrl();
  const r = await post(
    new URLSearchParams({
      command: name,
      text,
      user_id: user,
      channel_id: ws.channel,
      team_id: ws.team,
      response_url: responseUrl,
      trigger_id: trigger,
    }).toString(),
    'application/x-www-form-urlencoded',
  );
  return { ...r, responseUrl };
}

const interact = (payload: Record<string, unknown>) =>
  post(
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    'application/x-www-form-urlencoded',
  );

const event = (ws: Ws, e: Record<string, unknown>) =>
  post(
    JSON.stringify({
      type: 'event_callback',
      team_id: ws.team,
      api_app_id: 'ADOUBLE01',
      event_id: `Ev${Math.random().toString(36).slice(2)}`,
      event_time: Math.floor(Date.now() / 1000),
      event: e,
    }),
    'application/json',
  );

/** An uninstall as Slack makes it: the installation's tokens stop working, then the event comes. */
function uninstall(ws: Ws) {
  slack.revokedTokens.add(slack.tokenOf(ws.team) ?? '');
  return event(ws, { type: 'app_uninstalled' });
}

/** What the double answered at a response_url (the bot's replies after its ack). */
const repliesAt = (responseUrl: string) =>
  slack.responses.filter((r) => responseUrl.endsWith(r.path.replace(/^\/response\//, ''))).map((r) => r.body);

/** Runs `/conference admin settings` as `user`; answers the command's ack and the modal it opened, if any. */
async function openSettings(ws: Ws, user: string) {
  const before = slack.views.size;
  const r = await command(ws, user, '/conference', 'admin settings');
  const opened = await eventually(() => slack.views.size > before, 1_000).catch(() => false);
  const modal = opened ? [...slack.views.values()].at(-1) : undefined;
  return { ack: r.body, modal: modal?.view.callback_id === 'workspace_settings' ? modal : undefined };
}

const submitSettings = (ws: Ws, user: string, viewId: string, fields: SettingsFields) =>
  interact(settingsSubmission(ws.team, user, viewId, fields));

/** "Add to Slack" as a workspace admin goes through it: the install page, Slack's Allow, the redirect. */
/** "Add to Slack" as a workspace admin goes through it; the page links to Slack with our app's request. */
async function install(ws: Ws) {
  const done = await installThrough(url, slack, ws);
  expect(done.pageStatus).toBe(200);
  expect(done.authorize.searchParams.get('client_id')).toBe('111.222');
  expect(done.authorize.searchParams.get('scope')).toContain('chat:write');
  expect(done.authorize.searchParams.get('redirect_uri')).toBe(`${publicUrl}/slack/oauth_redirect`);
  return done;
}

async function setUp(ws: Ws, sim: Simulator) {
  const { modal } = await openSettings(ws, ws.admin);
  if (!modal) throw new Error('no settings modal');
  const r = await submitSettings(ws, ws.admin, modal.id, {
    url: sim.url,
    token: sim.adminToken,
    webhook: `webhook-secret-of-${ws.team}`,
  });
  expect(r.body).toMatchObject({ response_action: 'update' });
  return eventually(() => {
    const v = slack.views.get(modal.id)?.view as { blocks?: unknown[] } | undefined;
    const text = JSON.stringify(v?.blocks ?? []);
    return text.includes('Saved: the platform took') ? text : undefined;
  });
}

describe('distribution mode: two workspaces on one process', () => {
  it('installs through "Add to Slack": the success page names the workspace (escaped), the token is kept sealed', async () => {
    const a = await install(alpha);
    expect(a.status).toBe(200);
    expect(a.html).toContain('confdesk is installed in Alpha &#60;Corp&#62;');
    expect(a.html).not.toContain('<Corp>');
    const b = await install(beta);
    expect(b.status).toBe(200);
    expect(await running.registry.teams()).toEqual([alpha.team, beta.team]);
    const raw = await running.store.installation(alpha.team);
    expect(raw).toMatch(/^v2\./);
    expect(raw).not.toContain(slack.tokenOf(alpha.team) ?? 'no token');
    // A redirect with a state that did not come from our install page is refused.
    const forged = await fetch(
      `${url}/slack/oauth_redirect?code=${slack.grantInstall({ teamId: 'TEVIL', teamName: 'Evil', user: 'U1' })}&state=forged`,
    );
    expect(forged.status).toBe(400);
    expect(await running.registry.teams()).not.toContain('TEVIL');
  });

  it('before set-up, a command says how to set confdesk up, and Home shows the settings button to admins only', async () => {
    const r = await command(alpha, alpha.member, '/ticket', 'list');
    expect(JSON.stringify(r.body)).toContain('not set up in this workspace yet');
    await event(alpha, { type: 'app_home_opened', user: alpha.admin, tab: 'home' });
    await event(alpha, { type: 'app_home_opened', user: alpha.member, tab: 'home' });
    const adminHome = await eventually(() => slack.homes.get(alpha.admin));
    const memberHome = await eventually(() => slack.homes.get(alpha.member));
    expect(JSON.stringify(adminHome)).toContain('workspace_settings_open');
    expect(JSON.stringify(memberHome)).not.toContain('workspace_settings_open');
    expect(JSON.stringify(memberHome)).toContain('Alpha &lt;Corp&gt;');
  });

  it('only a Slack admin opens or saves the settings; a forged submission saves nothing', async () => {
    const r = await openSettings(alpha, alpha.member);
    expect(JSON.stringify(r.ack)).toContain('Only this workspace');
    expect(r.modal).toBeUndefined();
    const forged = await submitSettings(alpha, alpha.member, 'V_FORGED', {
      url: simA.url,
      token: simA.adminToken,
    });
    expect(forged.body).toMatchObject({ response_action: 'errors' });
    expect(await running.registry.settings(alpha.team)).toBeUndefined();
  });

  it('a bad form is answered inline; credentials the platform refuses are not saved', async () => {
    const { modal } = await openSettings(alpha, alpha.admin);
    if (!modal) throw new Error('no settings modal');
    const bad = await submitSettings(alpha, alpha.admin, modal.id, { url: 'not a url', serviceKey: 'short' });
    expect(bad.body).toMatchObject({
      response_action: 'errors',
      errors: { platform_url: expect.stringContaining('address'), service_key: expect.any(String) },
    });
    const wrong = await submitSettings(alpha, alpha.admin, modal.id, { url: simA.url, token: 'wrong-token' });
    expect(wrong.body).toMatchObject({ response_action: 'update' });
    const shown = await eventually(() => {
      const text = JSON.stringify(slack.views.get(modal.id)?.view ?? {});
      return text.includes('Not saved') ? text : undefined;
    });
    expect(shown).not.toContain('wrong-token');
    // An address inside this host's network (the cloud's metadata service) is refused before any request.
    const inside = await submitSettings(alpha, alpha.admin, modal.id, {
      url: 'http://169.254.169.254/latest',
      token: 'any-token',
    });
    expect(inside.body).toMatchObject({ response_action: 'update' });
    await eventually(() =>
      JSON.stringify(slack.views.get(modal.id)?.view ?? {}).includes('reaches only the platform hosts'),
    );
    // Said in the form's words, not the environment's.
    expect(shown).toContain('API token: the platform refused the token');
    expect(shown).not.toContain('PLATFORM_');
    expect(await running.registry.settings(alpha.team)).toBeUndefined();
  });

  it('each admin sets up their workspace with their own platform; the credentials are sealed and never shown back', async () => {
    const savedA = await setUp(alpha, simA);
    expect(savedA).toContain(`${publicUrl}/webhooks/platform/${alpha.team}`);
    expect(savedA).not.toContain(`webhook-secret-of-${alpha.team}`);
    await setUp(beta, simB);
    const a = running.workspaces().get(alpha.team);
    const b = running.workspaces().get(beta.team);
    expect(a?.confdesk).toBeDefined();
    expect(b?.confdesk).toBeDefined();
    const raw = (await running.store.workspaceSettings(alpha.team)) ?? '';
    expect(raw).not.toContain(simA.adminToken);
    // The form shows which kind is saved, never the token itself.
    const again = (await openSettings(alpha, alpha.admin)).modal;
    expect(JSON.stringify(again?.view)).toContain(simA.url);
    expect(JSON.stringify(again?.view)).not.toContain(simA.adminToken);
  });

  it('a set-up workspace serves no Workflow Builder step: custom steps cannot be distributed', async () => {
    const before = simA.state.tickets.size;
    const { run, event: step } = slack.startStep({
      callbackId: 'open_ticket',
      inputs: {
        run_as: { id: alpha.admin, secret: 'slack-checked' },
        requestor: 'x@alpha.example',
        subject: 'Distributed step',
        channel: alpha.channel,
      },
    });
    await event(alpha, step);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(run.ended).toBeUndefined();
    expect(slack.calls.filter((c) => c.method.startsWith('functions.'))).toEqual([]);
    expect(simA.state.tickets.size).toBe(before);
  });

  it('a workspace reads only its own platform: a ticket of the other workspace is not found, even by its id', async () => {
    const only = await clientAs(simB, 'admin').createTicket({
      subject: 'Beta-only ticket',
      emails: ['x@beta.example'],
    } as never);
    const id = String((only as { id: number | string }).id);
    const before = simB.requests.length;
    const inAlpha = await command(alpha, alpha.admin, '/ticket', `show ${id}`);
    const told = await eventually(() =>
      repliesAt(inAlpha.responseUrl).find((b) => JSON.stringify(b).includes('no such item')),
    );
    expect(JSON.stringify(told)).not.toContain('Beta-only ticket');
    expect(simB.requests.slice(before).length).toBe(0);
    const inBeta = await command(beta, beta.admin, '/ticket', `show ${id}`);
    // Beta's card is posted in Beta's channel with Beta's token.
    const betaToken = slack.tokenOf(beta.team);
    await eventually(() =>
      slack.calls.some(
        (c) =>
          c.token === betaToken &&
          c.method === 'chat.postMessage' &&
          c.args.channel === beta.channel &&
          JSON.stringify(c.args).includes('Beta-only ticket'),
      ),
    );
    expect(repliesAt(inBeta.responseUrl).some((b) => JSON.stringify(b).includes('no such item'))).toBe(false);
  });

  it('subscriptions and cards stay in their workspace’s store', async () => {
    await command(alpha, alpha.admin, '/ticket', 'watch 82001');
    const storeA = running.workspaces().get(alpha.team)?.store;
    const storeB = running.workspaces().get(beta.team)?.store;
    await eventually(async () => ((await storeA?.subscriptionsBy(alpha.admin))?.length ?? 0) > 0);
    expect(await storeB?.subscriptionsBy(alpha.admin)).toEqual([]);
    const list = await command(beta, beta.admin, '/ticket', 'subscriptions');
    const reply = await eventually(() => repliesAt(list.responseUrl).at(-1));
    expect(JSON.stringify(reply)).not.toContain(alpha.channel);
  });

  it('Home and the type-ahead menus show only their own workspace', async () => {
    await event(beta, { type: 'app_home_opened', user: beta.admin, tab: 'home' });
    const betaToken = slack.tokenOf(beta.team);
    const published = await eventually(() =>
      slack.calls.find(
        (c) => c.method === 'views.publish' && c.token === betaToken && c.args.user_id === beta.admin,
      ),
    );
    expect(JSON.stringify(published.args)).not.toContain(alpha.channel);
    const ask = async (ws: Ws) =>
      optionsOf((await interact(suggestion(ws.admin, ids.options.users, 'zoltan', ws.team))).body);
    expect(
      (await eventually(async () => ((await ask(beta)).length > 0 ? ask(beta) : undefined)))[0]?.text.text,
    ).toContain('Betaonly');
    expect(await ask(alpha)).toEqual([]);
  });

  it("an id from the other workspace means nothing here: Beta's admin cannot remove Alpha's subscription", async () => {
    const storeA = running.workspaces().get(alpha.team)?.store;
    const [sub] = (await storeA?.subscriptionsBy(alpha.admin)) ?? [];
    expect(sub).toBeDefined();
    await interact({
      type: 'block_actions',
      team: { id: beta.team, domain: 'beta' },
      user: { id: beta.admin, team_id: beta.team },
      api_app_id: 'ADOUBLE01',
      trigger_id: `trigger-${Math.random()}`,
      container: { type: 'view', view_id: 'VHOME' },
      view: { id: 'VHOME', type: 'home', hash: 'h', callback_id: '', private_metadata: '' },
      actions: [
        {
          type: 'button',
          action_id: 'home_subscription_remove',
          block_id: 'b',
          value: sub?.id,
          action_ts: '1',
        },
      ],
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await storeA?.subscriptionsBy(alpha.admin))?.map((x) => x.id)).toContain(sub?.id);
  });

  it('a workspace’s own settings apply: there, only platform admins may create tickets, with its service key, and its channels’ language', async () => {
    const channelLocaleOf = (ws: Ws) => running.workspaces().get(ws.team)?.confdesk?.deps.locales.channel;
    expect(channelLocaleOf(alpha)).toBe('en');
    const { modal } = await openSettings(alpha, alpha.admin);
    if (!modal) throw new Error('no settings modal');
    // The two languages are two fields: the platform's e-mails and SMS, and confdesk's channel messages.
    const shown = JSON.stringify(modal.view);
    expect(shown).toContain('Default notification language (the platform’s e-mails and SMS)');
    expect(shown).toContain('Language of channel messages');
    // The credentials left empty: the saved ones are kept (same platform).
    await submitSettings(alpha, alpha.admin, modal.id, {
      url: simA.url,
      creators: 'admin',
      serviceKey: defaultKey,
      language: 'en',
      channelLanguage: 'fr',
    });
    await eventually(() =>
      JSON.stringify(slack.views.get(modal.id)?.view ?? {}).includes('Saved: the platform took'),
    );
    expect((await running.registry.settings(alpha.team))?.ticketCreators).toBe('admin');
    expect((await running.registry.settings(alpha.team))?.channelLanguage).toBe('fr');
    // Alpha's restarted confdesk writes its channels in French; Beta's, never set, in English.
    await eventually(() => channelLocaleOf(alpha) === 'fr');
    expect(channelLocaleOf(beta)).toBe('en');
    // The form shows the saved choice when opened again.
    const again = await openSettings(alpha, alpha.admin);
    const blocks = (again.modal?.view as { blocks?: { block_id?: string; element?: unknown }[] } | undefined)
      ?.blocks;
    expect(blocks?.find((b) => b.block_id === 'channel_language')?.element).toMatchObject({
      initial_option: { value: 'fr' },
    });
    const alphaToken = slack.tokenOf(alpha.team);
    const said = () =>
      JSON.stringify([slack.responses, slack.calls.filter((c) => c.token === alphaToken).map((c) => c.args)]);
    await command(alpha, alpha.member, '/ticket', '');
    await eventually(() => said().includes('in this workspace only video platform admins can'));
    // Its admin creates one: the form left the service key empty, the workspace's default is sent.
    const before = slack.views.size;
    await command(alpha, alpha.admin, '/ticket', '');
    await eventually(() =>
      [...slack.views.values()].slice(before).some((v) => v.view.callback_id === 'ticket_form'),
    );
    const form = [...slack.views.values()].filter((v) => v.view.callback_id === 'ticket_form').at(-1);
    const values = formState(form?.view as Record<string, unknown>, {
      emails: 'jane.doe@example.com',
      subject: 'With the default key',
    });
    await interact({
      ...submission({ ...(form?.view as Record<string, unknown>), id: form?.id }, alpha.admin, values),
      team: { id: alpha.team },
      user: { id: alpha.admin, team_id: alpha.team },
    });
    const created = await eventually(() =>
      [...simA.state.tickets.values()].find((t) => t.subject === 'With the default key'),
    );
    expect(created.serviceKey).toBe(defaultKey);
    // Beta kept the default: its agent opens the ticket form.
    const betaToken = slack.tokenOf(beta.team);
    await command(beta, beta.member, '/ticket', '');
    await eventually(() =>
      slack.calls.some(
        (c) =>
          c.token === betaToken &&
          (c.method === 'views.update' || c.method === 'views.open') &&
          JSON.stringify(c.args).includes('"callback_id":"ticket_form"'),
      ),
    );
    // Back to English channels for the tests after this one (the rest of the settings kept).
    const last = await openSettings(alpha, alpha.admin);
    if (!last.modal) throw new Error('no settings modal');
    await submitSettings(alpha, alpha.admin, last.modal.id, {
      url: simA.url,
      creators: 'admin',
      serviceKey: defaultKey,
      language: 'en',
      channelLanguage: 'en',
    });
    await eventually(() => channelLocaleOf(alpha) === 'en');
  });

  it('each workspace has its own webhook address and secret', async () => {
    const a = await running.registry.settings(alpha.team);
    const b = await running.registry.settings(beta.team);
    expect(a?.webhookSecret).not.toBe(b?.webhookSecret);
    const send = (team: string, s: string) =>
      fetch(`${url}/webhooks/platform/${team}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': s },
        body: JSON.stringify({ event: 'ticket.updated', object: 'ticket', objectId: 1 }),
      });
    expect((await send(alpha.team, a?.webhookSecret ?? '')).status).toBeLessThan(300);
    expect((await send(alpha.team, b?.webhookSecret ?? '')).status).toBe(401);
    expect((await send('TNOWHERE', a?.webhookSecret ?? '')).status).toBe(404);
  });

  it('/metrics (behind its token) reports each workspace under its own label', async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const text = await (
      await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer metrics-token-for-the-tests' } })
    ).text();
    expect(text).toMatch(
      new RegExp(`confdesk_slack_ack_duration_seconds_count\\{[^}]*workspace="${alpha.team}"`),
    );
    expect(text).toMatch(
      new RegExp(`confdesk_slack_ack_duration_seconds_count\\{[^}]*workspace="${beta.team}"`),
    );
  });

  it('/readyz tells the workspaces', async () => {
    const r = (await (await fetch(`${url}/readyz`)).json()) as {
      ok: boolean;
      checks: Record<string, { detail?: string }>;
    };
    expect(r.ok).toBe(true);
    expect(r.checks.workspaces?.detail).toBe('2 workspace(s): 2 running');
  });

  it('uninstall forgets exactly that workspace: its tokens, settings and store; the other goes on', async () => {
    const folder = join(dataDir, 'workspaces', alpha.team);
    expect(existsSync(folder)).toBe(true);
    await uninstall(alpha);
    await eventually(async () => !(await running.registry.teams()).includes(alpha.team));
    expect(existsSync(folder)).toBe(false);
    expect(await running.store.workspaceSettings(alpha.team)).toBeUndefined();
    expect(running.workspaces().has(alpha.team)).toBe(false);
    // Alpha's requests now go nowhere; Beta still answers.
    const gone = await command(alpha, alpha.admin, '/ticket', 'list');
    expect(gone.body).toBeNull();
    const still = await command(beta, beta.admin, '/ticket', 'help');
    expect(JSON.stringify(still.body)).toContain('/ticket');
    expect(existsSync(join(dataDir, 'workspaces', beta.team))).toBe(true);
  });

  it('a revoked bot token forgets only that workspace; a revoked user token changes nothing', async () => {
    await event(beta, { type: 'tokens_revoked', tokens: { oauth: ['UB_ADMIN'] } });
    await new Promise((r) => setTimeout(r, 100));
    expect(await running.registry.teams()).toContain(beta.team);
    slack.revokedTokens.add(slack.tokenOf(beta.team) ?? '');
    await event(beta, { type: 'tokens_revoked', tokens: { bot: ['UBOTBETA002'] } });
    await eventually(async () => !(await running.registry.teams()).includes(beta.team));
    expect(running.workspaces().size).toBe(0);
  });

  it('a reinstall starts afresh, and a restart finds the workspace set up from the sealed store', async () => {
    expect((await install(alpha)).status).toBe(200);
    expect(running.workspaces().get(alpha.team)?.confdesk).toBeUndefined();
    await setUp(alpha, simA);
    await running.stop();
    running = await startWorkspaces(config, silent, { jobs: { deliverEveryMs: 50, paceMs: 20 } });
    await running.started;
    url = `http://127.0.0.1:${running.port}`;
    expect(running.workspaces().get(alpha.team)?.confdesk).toBeDefined();
    const r = await command(alpha, alpha.admin, '/ticket', 'list');
    expect(JSON.stringify(r.body)).not.toContain('not set up');
  });

  it('a workspace whose saved address is no longer allowed waits for new settings, and says so', async () => {
    await running.stop();
    running = await startWorkspaces(loadConfig({ ...env, PLATFORM_HOSTS: 'cloud.apizee.com' }), silent, {
      jobs: { deliverEveryMs: 50, paceMs: 20 },
    });
    await running.started;
    url = `http://127.0.0.1:${running.port}`;
    try {
      expect(running.workspaces().get(alpha.team)?.confdesk).toBeUndefined();
      const r = (await (await fetch(`${url}/readyz`)).json()) as {
        checks: Record<string, { detail?: string }>;
      };
      expect(r.checks.workspaces?.detail).toContain(
        `1 failed: ${alpha.team} (its platform address is refused`,
      );
      // Not silent: its people are told, and its admins can save new settings.
      const told = await command(alpha, alpha.member, '/ticket', 'list');
      expect(JSON.stringify(told.body)).toContain('not set up in this workspace yet');
    } finally {
      await running.stop();
      running = await startWorkspaces(config, silent, { jobs: { deliverEveryMs: 50, paceMs: 20 } });
      await running.started;
      url = `http://127.0.0.1:${running.port}`;
    }
    expect(running.workspaces().get(alpha.team)?.confdesk).toBeDefined();
  });

  it('a second replica on the same store follows the saves and the uninstalls made on the first', async () => {
    const second = await startWorkspaces(config, silent, {
      jobs: { deliverEveryMs: 50, paceMs: 20 },
      syncEveryMs: 100,
    });
    await second.started;
    try {
      const before = second.workspaces().get(alpha.team)?.confdesk;
      expect(before).toBeDefined();
      // Saved again on the first replica: the second restarts the workspace with the new settings.
      await setUp(alpha, simA);
      await eventually(() => {
        const now = second.workspaces().get(alpha.team)?.confdesk;
        return now !== undefined && now !== before;
      });
      // Uninstalled through the first: the second stops it too.
      await uninstall(alpha);
      await eventually(() => !second.workspaces().has(alpha.team));
    } finally {
      await second.stop();
    }
  });

  it('no secret ever reached the log: bot tokens, platform tokens, webhook secrets, the key', async () => {
    const all = logLines.join('\n');
    expect(all.length).toBeGreaterThan(10_000);
    const secrets = [
      ...slack.installed.keys(),
      simA.adminToken,
      simB.adminToken,
      config.distribution?.keys[0] ?? 'no key',
      config.distribution?.clientSecret ?? 'no secret',
      (await running.registry.settings(alpha.team))?.webhookSecret ?? 'no webhook secret',
    ];
    for (const secret of secrets) expect(all).not.toContain(secret);
  });
});
