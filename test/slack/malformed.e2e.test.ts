import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit, limits } from '../../src/blocks/limits.js';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { commandTextLimit } from '../../src/slack/runtime/clip-command-text.js';
import { type BotFixture, buttonClick, eventually, people, secret, useBot } from '../helpers/bot.js';
import { killAll, spawnBot } from '../helpers/child-bot.js';
import { sendSigned, slackSignature } from '../helpers/slack-requests.js';

type Json = Record<string, unknown>;
const f = {} as BotFixture;
useBot(f);

const form = (payload: unknown) =>
  `payload=${encodeURIComponent(typeof payload === 'string' ? payload : JSON.stringify(payload))}`;
const click = (over: Json = {}): Json => ({
  ...buttonClick(f.slack, {
    user: people.admin.id,
    actionId: ids.actions.ticketRefresh,
    value: '1',
    channel: 'C1',
  }),
  ...over,
});
const submission = (over: Json = {}, view: Json = {}): Json => ({
  type: 'view_submission',
  user: { id: people.admin.id },
  team: { id: 'T0000DBL' },
  view: { id: 'V1', callback_id: ids.views.conferenceForm, state: { values: {} }, ...view },
  ...over,
});
const command = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const json = 'application/json';

/** Signed bodies Slack would never send, each with what makes it malformed. */
const malformed: { name: string; body: () => string; type?: string }[] = [
  { name: 'a form whose payload is null', body: () => 'payload=null' },
  { name: 'a form whose payload is not JSON', body: () => 'payload=%7Bnot%20json' },
  { name: 'a form whose payload is a JSON number', body: () => form(42) },
  { name: 'a form whose payload is a JSON string', body: () => form('"block_actions"') },
  { name: 'a form whose payload is a JSON array', body: () => form([click()]) },
  { name: 'a form with two payload fields', body: () => `${form(click())}&${form(click())}` },
  { name: 'a JSON body that is null', body: () => 'null', type: json },
  { name: 'a JSON body that is not JSON', body: () => '{"type":', type: json },
  { name: 'an empty JSON object', body: () => '{}', type: json },
  { name: 'an event callback without its event', body: () => '{"type":"event_callback"}', type: json },
  { name: 'an event callback whose event is null', body: () => '{"event":null}', type: json },
  {
    name: 'an event whose channel is null',
    body: () => JSON.stringify({ event: { type: 'member_joined_channel', channel: null } }),
    type: json,
  },
  {
    name: 'an event whose user is null',
    body: () => JSON.stringify({ event: { type: 'app_home_opened', user: null, tab: 'home' } }),
    type: json,
  },
  { name: 'a click without a type', body: () => form(click({ type: undefined })) },
  { name: 'a click without a user', body: () => form(click({ user: undefined })) },
  { name: 'a click whose user has no id', body: () => form(click({ user: { name: 'x' } })) },
  { name: 'a click whose user is a string', body: () => form(click({ user: 'UADMIN' })) },
  { name: 'a click whose channel is null', body: () => form(click({ channel: null })) },
  { name: 'a click whose actions are not an array', body: () => form(click({ actions: { a: 1 } })) },
  { name: 'a click with no actions', body: () => form(click({ actions: [] })) },
  { name: 'a click whose action is null', body: () => form(click({ actions: [null] })) },
  {
    name: 'a click whose value is an object',
    body: () => form(click({ actions: [{ action_id: ids.actions.ticketRefresh, value: { id: 1 } }] })),
  },
  {
    name: 'a click whose action id is a number',
    body: () => form(click({ actions: [{ action_id: 7, value: '1' }] })),
  },
  { name: 'a submission without a view', body: () => form(submission({ view: undefined })) },
  { name: 'a submission without view.state.values', body: () => form(submission({}, { state: {} })) },
  {
    name: 'a submission whose values are a string',
    body: () => form(submission({}, { state: { values: 'x' } })),
  },
  { name: 'a submission without a user', body: () => form(submission({ user: undefined })) },
  {
    name: 'a shortcut without a user',
    body: () => form({ type: 'shortcut', callback_id: ids.shortcuts.conferenceNew }),
  },
  { name: 'a payload of an unknown type', body: () => form({ type: 'something_new', user: { id: 'U1' } }) },
  {
    name: 'a command without a user',
    body: () => command({ command: '/conference', channel_id: 'C1', text: 'help' }),
  },
  {
    name: 'a command without a channel',
    body: () => command({ command: '/ticket', user_id: 'U1', text: 'help' }),
  },
  {
    name: 'a command whose text is sent twice',
    body: () => 'command=%2Fticket&user_id=U1&channel_id=C1&text=list&text=help',
  },
];

const healthy = async () => (await fetch(`${f.url}/healthz`)).status;

describe('malformed signed requests', () => {
  it.each(malformed)('refuses $name with 400, and the bot keeps serving', async ({ body, type }) => {
    const res = await sendSigned(f.url, secret, body(), type);
    expect(res.status).toBe(400);
    expect(await healthy()).toBe(200);
  });

  it('still refuses an unsigned payload=null with 401, as Bolt does for any unsigned request', async () => {
    const res = await fetch(`${f.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payload=null',
    });
    expect(res.status).toBe(401);
  });

  it('answers what Bolt answers itself (ssl_check, url_verification without a challenge) with 200', async () => {
    expect((await sendSigned(f.url, secret, 'ssl_check=1&token=x')).status).toBe(200);
    const verification = await sendSigned(f.url, secret, '{"type":"url_verification"}', json);
    expect(verification.status).toBe(200);
  });

  it('carries out well-formed requests that merely lack a team or an optional field', async () => {
    const noTeam = await sendSigned(f.url, secret, form(click({ team: undefined, channel: undefined })));
    expect(noTeam.status).toBe(200);
    const noText = await sendSigned(
      f.url,
      secret,
      command({ command: '/ticket', user_id: people.admin.id, channel_id: 'C1', team_id: 'T1' }),
    );
    expect(noText.status).toBe(200);
    const eventWithoutUser = await sendSigned(
      f.url,
      secret,
      JSON.stringify({ type: 'event_callback', event: { type: 'app_uninstalled' } }),
      json,
    );
    expect(eventWithoutUser.status).toBe(200);
  });

  it('answers unknown action ids, callback ids and event types with 200 or 404, never 5xx', async () => {
    const statuses = await Promise.all([
      sendSigned(f.url, secret, form(click({ actions: [{ action_id: 'no_such_action', value: '1' }] }))),
      sendSigned(f.url, secret, form(submission({}, { callback_id: 'no_such_view' }))),
      sendSigned(
        f.url,
        secret,
        form({ ...submission({}, { callback_id: 'no_such_view' }), type: 'view_closed' }),
      ),
      sendSigned(f.url, secret, form({ type: 'shortcut', callback_id: 'no_such', user: { id: 'U1' } })),
      sendSigned(
        f.url,
        secret,
        JSON.stringify({ type: 'event_callback', event: { type: 'reaction_added' } }),
        json,
      ),
    ]).then((all) => all.map((r) => r.status));
    for (const s of statuses) expect([200, 404]).toContain(s);
    expect(await healthy()).toBe(200);
  });
});

describe('40 KB of command text', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const long = words(5_000); // ~44,000 characters
  /** The sentence the person got privately (through the command's response_url) about the cut. */
  const toldCut = (responseUrl: string) =>
    eventually(() =>
      f.slack.responses
        .filter((r) => r.path === new URL(responseUrl).pathname)
        .map((r) => String(r.body.text))
        .find((t) => t.includes('characters long')),
    );

  it('/conference with 40 KB of words opens a form within Block Kit limits and says the text was cut', async () => {
    const before = f.slack.callsOf('views.open').length;
    const res = await f.command(long, people.admin.id, 'C1', '/conference');
    expect(res.status).toBe(200);
    const open = await eventually(() => f.slack.callsOf('views.open')[before]);
    const view = open.args.view as Json;
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    expect((view.blocks as unknown[]).length).toBeLessThan(limits.viewBlocks);
    const notice = JSON.stringify(view.blocks);
    expect(notice).toContain('I did not understand');
    expect(notice).toMatch(/and [\d,]+ more/);
    const said = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(res.responseUrl).pathname),
    );
    expect(said.body.text).toContain(`first ${commandTextLimit.toLocaleString('en-US')} characters`);
  });

  it('/ticket new with 40 KB of words opens the ticket form within Block Kit limits and says the text was cut', async () => {
    const before = f.slack.callsOf('views.open').length;
    const res = await f.command(`new alice@example.com ${long}`, people.admin.id, 'C1', '/ticket');
    expect(res.status).toBe(200);
    const open = await eventually(() => f.slack.callsOf('views.open')[before]);
    expect(checkBlockKit(open.args.view, 'modal')).toEqual([]);
    const said = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(res.responseUrl).pathname),
    );
    expect(said.body.text).toMatch(/cut|first/);
  });

  it('tells a French person, in French, that the text was cut (an English one is told in English above)', async () => {
    f.slack.addUser({ id: 'UAMELIE', email: 'amelie@example.com', locale: 'fr-FR' });
    const res = await f.command(`list ${long}`, 'UAMELIE', 'C1', '/ticket');
    expect(res.status).toBe(200);
    const said = await eventually(() =>
      f.slack.responses
        .filter((r) => r.path === new URL(res.responseUrl).pathname)
        .map((r) => String(r.body.text))
        .find((t) => t.includes('caractères')),
    );
    expect(said).toBe(
      `Le texte de votre commande faisait ${`list ${long}`.length.toLocaleString('fr-FR')}\u202fcaractères\u202f: je n’en ai lu que les ${commandTextLimit.toLocaleString('fr-FR')}\u202fpremiers.`,
    );
  });

  it.each([
    { what: '/conference list', name: '/conference', text: `list ${long}` },
    { what: '/conference show', name: '/conference', text: `show ${'x'.repeat(40_000)}` },
    { what: '/conference digest', name: '/conference', text: `digest ${long}` },
    { what: '/conference with a thousand bad e-mails', name: '/conference', text: 'a@ '.repeat(15_000) },
    { what: '/ticket list', name: '/ticket', text: `list ${long}` },
    { what: '/ticket show', name: '/ticket', text: `show ${'x'.repeat(40_000)}` },
    { what: '/ticket follow', name: '/ticket', text: `follow ${long}` },
    { what: '/ticket with an unknown verb', name: '/ticket', text: long },
  ])('$what with 40 KB answers within Block Kit limits', async ({ name, text }) => {
    const res = await f.command(text, people.admin.id, 'C1', name);
    expect(res.status).toBe(200);
    if (res.body) expect(checkBlockKit(res.body, 'message')).toEqual([]);
    // What went to Slack afterwards is checked by the double (useBot's afterEach); the notice comes last.
    await toldCut(res.responseUrl);
  });
});

describe('the bot as a process (dist/main.js)', () => {
  let slack: SlackDouble;
  let dataDir: string;
  beforeAll(async () => {
    slack = await new SlackDouble().start();
    dataDir = mkdtempSync(join(tmpdir(), 'confdesk-malformed-'));
  });
  afterAll(async () => {
    killAll();
    await slack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('survives a signed payload=null and still answers /healthz', async () => {
    const bot = spawnBot({
      SLACK_BOT_TOKEN: 'xoxb-malformed',
      SLACK_SIGNING_SECRET: 'child-secret',
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });
    const url = `http://127.0.0.1:${await bot.port}`;
    const ts = Math.floor(Date.now() / 1000);
    const res = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': slackSignature('child-secret', ts, 'payload=null'),
      },
      body: 'payload=null',
    });
    expect(res.status).toBe(400);
    // An unhandled rejection would end the process on the next turns: give it time to.
    await new Promise((r) => setTimeout(r, 300));
    expect(bot.child.exitCode).toBeNull();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(bot.output()).toContain('refused a malformed Slack request');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });
});

/** Every path to a value in `o` (objects and arrays), outermost first. */
function pathsOf(o: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof o !== 'object' || o === null) return [];
  const entries = Array.isArray(o) ? o.map((v, i) => [i, v] as const) : Object.entries(o);
  return entries.flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k])]);
}

/** A deep copy of `o` with the value at `path` replaced (or removed, for undefined). */
function mutate(o: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(o) as Json;
  let parent: Json = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Json;
  const last = path.at(-1) as string;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

describe('every single-field corruption of a real payload', () => {
  const replacements = [undefined, null, 0, 'x', true, [], {}, [null]];

  it('gets 200 or a 4xx, never a 5xx or a dropped connection, and the bot keeps serving', async () => {
    const bases: Json[] = [
      click(),
      submission({}, { private_metadata: '{"mode":"create"}', blocks: [] }),
      {
        type: 'shortcut',
        callback_id: ids.shortcuts.conferenceNew,
        user: { id: people.admin.id },
        trigger_id: 't',
      },
      {
        type: 'event_callback',
        team_id: f.slack.teamId,
        event: { type: 'app_home_opened', user: people.admin.id, tab: 'home', channel: 'D1' },
      },
    ];
    const bodies: { body: string; type?: string }[] = [];
    for (const base of bases) {
      const isEvent = base.type === 'event_callback';
      for (const path of pathsOf(base))
        for (const value of replacements) {
          const m = mutate(base, path, value);
          bodies.push(isEvent ? { body: JSON.stringify(m), type: json } : { body: form(m) });
        }
    }
    const fields = { command: '/ticket', text: 'list', user_id: 'U1', channel_id: 'C1', team_id: 'T1' };
    for (const k of Object.keys(fields)) {
      bodies.push({ body: command(Object.fromEntries(Object.entries(fields).filter(([x]) => x !== k))) });
      bodies.push({ body: `${command(fields)}&${k}=again` });
    }
    const statuses: number[] = [];
    for (let i = 0; i < bodies.length; i += 100) {
      const batch = bodies.slice(i, i + 100).map(({ body, type }) => sendSigned(f.url, secret, body, type));
      statuses.push(...(await Promise.all(batch)).map((r) => r.status));
    }
    expect(statuses.length).toBeGreaterThan(300);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 404]));
    expect(await healthy()).toBe(200);
  }, 60_000);
});
