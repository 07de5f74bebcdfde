import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SimUser } from '../../src/sim/model.js';
import {
  type BotFixture,
  botNow,
  buttonClick,
  eventually,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';

/*
 * The People and Groups screens and the password reset (issue 22), through the real receiver, the
 * Slack double and the simulator. The bot logs at debug (Bolt then logs whole request bodies), so
 * the password checks cover the noisiest configuration.
 */

type Json = Record<string, unknown>;

/** Every line the bot logged, raw. */
const logged: string[] = [];
const logger = createLogger('debug', { write: (line: string) => void logged.push(line) });

const f = {} as BotFixture;
useBot(f, { logger });

/** 45 more users, so the browser has three pages (48 + the 4 seeded = 49 people, with oscar elsewhere). */
beforeAll(() => {
  for (let i = 1; i <= 45; i++)
    f.platform.sim.state.addUser({
      enterpriseId: 1,
      username: `user${String(i).padStart(2, '0')}`,
      password: 'x',
      email: `user${i}@acme.example`,
      cellPhone: undefined,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      role: 'agent',
      groups: [],
    });
});

const simUser = (username: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === username && !u.deleted) as
    | SimUser
    | undefined;
const liveUsers = () => JSON.stringify([...f.platform.sim.state.users.values()]);
const text = (v: unknown) => JSON.stringify(v);

/** Runs `act`, then waits for a new view (opened or pushed) whose content passes `ready`. */
async function viewAfter(act: () => Promise<unknown>, ready: (v: Json) => boolean): Promise<Json> {
  const before = new Set(f.slack.views.keys());
  await act();
  return eventually(() => {
    for (const [id, { view }] of f.slack.views) if (!before.has(id) && ready(view)) return view;
    return undefined;
  }, 8_000);
}

/** Waits until the view `id` passes `ready` (an update in place). */
const viewNow = (id: string, ready: (v: Json) => boolean) =>
  eventually(() => {
    const v = f.slack.views.get(id)?.view;
    return v && ready(v) ? v : undefined;
  }, 8_000);

const notWorking = (v: Json) => v.callback_id !== ids.views.working || !text(v).includes('hourglass');

/** An element of a view by action id (a button or a menu of a section or an actions block). */
function elementOf(view: Json, actionId: string): Json {
  for (const b of view.blocks as Json[]) {
    const els = [b.accessory, ...((b.elements as Json[]) ?? [])] as (Json | undefined)[];
    const found = els.find((e) => e?.action_id === actionId);
    if (found) return found;
  }
  throw new Error(`no ${actionId} in the view`);
}

/** A click inside a modal (Slack sends the view's id, hash, metadata and callback id). */
function clickIn(view: Json, user: string, action: Json) {
  const payload = buttonClick(f.slack, {
    user,
    actionId: String(action.action_id),
    value: '',
    channel: 'CPEO',
  });
  (payload as Json).view = {
    id: view.id,
    type: 'modal',
    hash: 'h',
    private_metadata: view.private_metadata ?? '',
    callback_id: view.callback_id,
  };
  (payload as Json).actions = [{ block_id: 'b', action_ts: '1', ...action }];
  return f.interact(payload);
}
const pressButton = (view: Json, user: string, actionId: string) => {
  const b = elementOf(view, actionId);
  return clickIn(view, user, { type: 'button', action_id: actionId, value: b.value ?? '' });
};
const pickInMenu = (view: Json, user: string, userId: number, entry: string) =>
  clickIn(view, user, {
    type: 'overflow',
    action_id: `${ids.actions.personMenu}:${userId}`,
    selected_option: { value: `${entry}:${userId}`, text: { type: 'plain_text', text: entry } },
  });
const typed = (value: string) => ({ value: { type: 'plain_text_input', value } });

/** `/conference admin people` as `user`: the browser once loaded. */
const openBrowser = (user: string = people.admin.id, words = '') =>
  viewAfter(
    () => f.command(`admin people${words ? ` ${words}` : ''}`, user, 'CPEO'),
    (v) => v.callback_id === ids.views.peopleBrowser,
  );

const rangeOf = (view: Json) => /(\d+)–(\d+) of (\d+) people/.exec(text(view))?.slice(1).map(Number);

describe('the People browser', () => {
  it('opens with the enterprise’s users, 20 a page, each with login, e-mail, role and groups, and pages in place', async () => {
    const view = await openBrowser();
    expect(rangeOf(view)).toEqual([1, 20, 49]);
    const userReads = () =>
      f.platform.sim.requests.filter((r) => r.path === '/api/v3/enterprises/1/users').length;
    const reads = userReads();
    expect(text(view)).toContain('*Alice Martin* · `alice`');
    expect(text(view)).toContain('alice@acme.example · agent · Level 1');
    expect(text(view)).not.toContain('oscar'); // another enterprise's admin
    await pressButton(view, people.admin.id, `${ids.actions.peoplePage}:next`);
    const second = await viewNow(String(view.id), (v) => rangeOf(v)?.[0] === 21);
    expect(rangeOf(second)).toEqual([21, 40, 49]);
    await pressButton(second, people.admin.id, `${ids.actions.peoplePage}:next`);
    const third = await viewNow(String(view.id), (v) => rangeOf(v)?.[0] === 41);
    expect(rangeOf(third)).toEqual([41, 49, 49]);
    expect(() => elementOf(third, `${ids.actions.peoplePage}:next`)).toThrow();
    await pressButton(third, people.admin.id, `${ids.actions.peoplePage}:prev`);
    expect(rangeOf(await viewNow(String(view.id), (v) => rangeOf(v)?.[0] === 21))).toEqual([21, 40, 49]);
    // Paging reads the cached list: no platform request.
    expect(userReads()).toBe(reads);
  });

  it('finds a person by last name when Enter is pressed in the search box', async () => {
    const view = await openBrowser();
    await clickIn(view, people.admin.id, {
      type: 'plain_text_input',
      action_id: ids.actions.peopleSearch,
      value: 'DURAND',
    });
    const found = await viewNow(String(view.id), (v) => text(v).includes('matching'));
    expect(text(found)).toContain('1–1 of 1 people matching “DURAND”');
    expect(text(found)).toContain('*Bob Durand*');
  });

  it('finds a person by e-mail with the Search button, and by a search given with the command', async () => {
    const view = await openBrowser();
    const values = {
      [ids.people.search]: { [ids.actions.peopleSearch]: { type: 'plain_text_input', value: 'carol@acme' } },
    };
    const res = await f.interact(submission(view, people.admin.id, values));
    expect((res.body as Json).response_action).toBe('update');
    const found = await viewNow(String(view.id), (v) => text(v).includes('matching'));
    expect(text(found)).toContain('1–1 of 1 people matching “carol@acme”');
    expect(text(found)).toContain('*Carol Petit*');
    const direct = await openBrowser(people.admin.id, 'last4');
    expect(text(direct)).toContain('matching “last4”');
    expect(text(direct)).toContain('First4 Last4');
    expect(text(direct)).toContain('First45 Last45');
  });

  it('shows a person’s details pushed over the browser', async () => {
    const view = await openBrowser();
    const carol = simUser('carol') as SimUser;
    const details = await viewAfter(
      () => pickInMenu(view, people.admin.id, carol.id, 'show'),
      (v) => v.callback_id === ids.views.working && text(v).includes('Platform user id'),
    );
    expect(text(details)).toContain('carol@acme.example');
    expect(text(details)).toContain('Level 2');
  });
});

describe('creating a user', () => {
  const password = `Pw-${Math.random().toString(36).slice(2)}-{"}x`;

  async function createForm(user: string = people.admin.id) {
    const view = await openBrowser();
    return viewAfter(
      () => pressButton(view, user, ids.actions.personNew),
      (v) => v.callback_id === ids.views.personCreate,
    );
  }

  it('creates the user on the platform with good input, and the password is nowhere but there', async () => {
    const form = await createForm();
    const values = {
      username: typed('dave'),
      [ids.people.password]: typed(password),
      email: typed('dave@acme.example'),
      firstName: typed('Dave'),
      lastName: typed('Lefebvre'),
    };
    const res = await f.interact(submission(form, people.admin.id, values));
    expect((res.body as Json).response_action).toBe('update');
    const done = await viewNow(String(form.id), (v) => text(v).includes('was created'));
    expect(text(done)).toContain('The user `dave` was created');
    const dave = simUser('dave') as SimUser;
    expect(dave).toMatchObject({ email: 'dave@acme.example', firstName: 'Dave', lastName: 'Lefebvre' });
    expect(dave.password).toBe(password); // it reached the platform…
    // …and nothing else: no log line (Bolt logged the submission's body at debug), no Slack call,
    // response or view, not the simulator's request log, not the store's files.
    expect(logged.some((l) => l.includes('"level":20'))).toBe(true);
    const escaped = JSON.stringify(password).slice(1, -1);
    for (const where of [
      logged.join('\n'),
      text(f.slack.calls),
      text(f.slack.responses),
      text([...f.slack.views.values()]),
      text(f.slack.messages),
      text(f.platform.sim.requests),
    ]) {
      expect(where).not.toContain(password);
      expect(where).not.toContain(escaped);
      expect(where).not.toContain(encodeURIComponent(password));
    }
    const create = f.platform.sim.requests.find((r) => r.method === 'POST' && r.path === '/api/v3/users');
    expect(create?.query.password).toBe('[redacted]');
    for (const file of storeFiles()) expect(readFileSync(file).includes(password), file).toBe(false);
  });

  it('shows a rule break under its input and creates nothing', async () => {
    const form = await createForm();
    const before = liveUsers();
    const res = await f.interact(
      submission(form, people.admin.id, {
        username: typed('erin'),
        [ids.people.password]: typed(password),
        email: typed('not an e-mail'),
      }),
    );
    expect(res.body).toMatchObject({ response_action: 'errors', errors: { email: expect.any(String) } });
    const none = await f.interact(
      submission(form, people.admin.id, { username: typed('erin'), [ids.people.password]: typed(password) }),
    );
    expect(none.body).toMatchObject({
      response_action: 'errors',
      errors: { email: 'Give an e-mail or a cell phone number.' },
    });
    expect(liveUsers()).toBe(before);
    expect(simUser('erin')).toBeUndefined();
  });

  it('brings the form back with the platform’s refusal under the login, without the password, and creates nothing', async () => {
    const form = await createForm();
    const before = liveUsers();
    await f.interact(
      submission(form, people.admin.id, {
        username: typed('alice'),
        [ids.people.password]: typed(password),
        email: typed('other.alice@acme.example'),
      }),
    );
    const again = await viewNow(String(form.id), (v) => text(v).includes('Nothing was created'));
    expect(again.callback_id).toBe(ids.views.personCreate);
    const blocks = again.blocks as Json[];
    const under = blocks[blocks.findIndex((b) => b.block_id === 'username') + 1];
    expect(text(under)).toMatch(/taken/);
    expect(text(again)).toContain('other.alice@acme.example');
    expect(text(again)).not.toContain(password);
    expect(liveUsers()).toBe(before);
  });
});

describe('editing and deleting a user', () => {
  it('saves the spec’s update fields on the platform', async () => {
    const view = await openBrowser();
    const bob = simUser('bob') as SimUser;
    const form = await viewAfter(
      () => pickInMenu(view, people.admin.id, bob.id, 'edit'),
      (v) => v.callback_id === ids.views.personEdit,
    );
    expect(text(form)).toContain('"initial_value":"Bob"');
    await f.interact(
      submission(form, people.admin.id, {
        jobTitle: typed('Team lead'),
        maxOngoingChat: { value: { type: 'number_input', value: '3' } },
        audioOnly: { value: { type: 'number_input', value: '1' } },
      }),
    );
    await viewNow(String(form.id), (v) => text(v).includes('was saved'));
    expect(bob.extra).toMatchObject({ jobTitle: 'Team lead', maxOngoingChat: 3, audioOnly: 1 });
    expect(bob.firstName).toBe('Bob');
  });

  it('refuses 0/1 fields with another value inline, saving nothing', async () => {
    const view = f.slack.views.get([...f.slack.views.keys()].at(-1) as string)?.view as Json;
    const form = { ...view, callback_id: ids.views.personEdit, private_metadata: '{"u":"3"}' };
    const res = await f.interact(
      submission(form, people.admin.id, { clickToChat: { value: { type: 'number_input', value: '7' } } }),
    );
    expect(res.body).toMatchObject({
      response_action: 'errors',
      errors: { clickToChat: 'Give 0 (no) or 1 (yes).' },
    });
  });

  it('says what the person still owns before deleting them, then deletes them', async () => {
    const view = await openBrowser();
    const carol = simUser('carol') as SimUser;
    const confirm = await viewAfter(
      () => pickInMenu(view, people.admin.id, carol.id, 'delete'),
      (v) => v.callback_id === ids.views.personDelete,
    );
    expect(text(confirm)).toMatch(/They still have \d+ open tickets? as agent/);
    f.platform.sim.state.createConference(carol, {
      name: 'Carol’s review',
      participants: ['alice@acme.example'],
      startTime: botNow.getTime() + 86_400_000,
      invite: false,
    });
    const again = await viewAfter(
      () => pickInMenu(view, people.admin.id, carol.id, 'delete'),
      (v) => v.callback_id === ids.views.personDelete,
    );
    expect(text(again)).toMatch(/and 1 upcoming conference as moderator/);
    await f.interact(submission(again, people.admin.id, {}));
    await viewNow(String(again.id), (v) => text(v).includes('was deleted'));
    expect(f.platform.sim.state.users.get(carol.id)?.deleted).toBe(true);
    // The browser under the confirmation is shown again without her.
    const refreshed = await viewNow(
      String(view.id),
      (v) => rangeOf(v)?.[2] === 49 && !text(v).includes('Carol'),
    );
    expect(text(refreshed)).toContain('*Bob Durand*');
  });
});

describe('admin-only doors, refused to a plain agent and to a person without an account', () => {
  const refusedTo = [
    { who: people.alice, why: /You cannot [a-z ]+platform users: that is for video platform admins/ },
    { who: people.nobody, why: /has no account on the video platform/ },
  ];
  const userId = () => String((simUser('bob') as SimUser).id);
  /** A modal of the People screens the double knows, as a forged submission would name it. */
  const modal = (callbackId: string, metadata = '') => {
    const id = `VPEO${Math.random().toString(36).slice(2, 8)}`;
    const view = { id, type: 'modal', callback_id: callbackId, private_metadata: metadata, blocks: [] };
    f.slack.views.set(id, { id, view });
    return view;
  };

  for (const { who, why } of refusedTo) {
    it(`refuses the browser, create, edit, delete and another’s reset to ${who.id}, changing nothing`, async () => {
      const users = liveUsers();
      const resets = f.platform.sim.state.passwordResets.length;
      const browser = await viewAfter(
        () => f.command('admin people', who.id, 'CPEO'),
        (v) => notWorking(v) && /You cannot|no account/.test(text(v)),
      );
      expect(text(browser)).toMatch(
        why.source.includes('no account') ? why : /You cannot list the platform’s users/,
      );
      const groups = await viewAfter(
        () => f.command('admin groups', who.id, 'CPEO'),
        (v) => notWorking(v) && /You cannot|no account/.test(text(v)),
      );
      expect(text(groups)).toMatch(
        why.source.includes('no account') ? why : /You cannot list the platform’s groups/,
      );
      const writes: [Json, Json][] = [
        [
          modal(ids.views.personCreate),
          {
            username: typed('mallory'),
            [ids.people.password]: typed('pw-1'),
            email: typed('m@acme.example'),
          },
        ],
        [modal(ids.views.personEdit, JSON.stringify({ u: userId() })), { jobTitle: typed('Hacked') }],
        [modal(ids.views.personDelete, JSON.stringify({ u: userId() })), {}],
      ];
      for (const [view, values] of writes) {
        await f.interact(submission(view, who.id, values));
        // Told in the modal: the outcome view, or the create form again with the reason on top.
        const told = await viewNow(String(view.id), (v) => notWorking(v) && why.test(text(v)));
        expect(text(told)).not.toContain('pw-1');
      }
      const res = await f.command('password carol', who.id, 'CPEO');
      const reply = await eventually(() =>
        f.slack.responses.find(
          (r) => r.path === new URL(res.responseUrl).pathname && !/Working/.test(text(r.body)),
        ),
      );
      expect(text(reply.body)).toMatch(
        who === people.alice ? /You cannot send a password reset to someone else/ : why,
      );
      expect(liveUsers()).toBe(users);
      expect(f.platform.sim.state.passwordResets.length).toBe(resets);
    });
  }
});

describe('password reset', () => {
  const answerTo = async (words: string, who: string) => {
    const res = await f.command(words, who, 'CPEO');
    return eventually(() =>
      f.slack.responses.find(
        (r) => r.path === new URL(res.responseUrl).pathname && !/Working/.test(text(r.body)),
      ),
    );
  };
  const resetsOf = (login: string) =>
    f.platform.sim.state.passwordResets.filter((r) => r.login === login).length;

  it('sends alice’s own reset for `/conference password`, and for her own login named', async () => {
    const before = resetsOf('alice');
    const reply = await answerTo('password', people.alice.id);
    expect(text(reply.body)).toContain('password reset link to your login’s e-mail (`alice`)');
    expect(resetsOf('alice')).toBe(before + 1);
    await answerTo('password alice@ACME.example', people.alice.id);
    expect(resetsOf('alice')).toBe(before + 2);
  });

  it('lets an admin send anyone of the enterprise a reset, and no one outside it', async () => {
    const before = resetsOf('bob');
    const reply = await answerTo('password bob', people.admin.id);
    expect(text(reply.body)).toContain('password reset link to `bob`’s e-mail');
    expect(resetsOf('bob')).toBe(before + 1);
    const outside = await answerTo('password oscar', people.admin.id);
    expect(text(outside.body)).toContain('No user of this enterprise has the login oscar');
    expect(resetsOf('oscar')).toBe(0);
  });

  it('sends the own reset from an App Home button, told in the person’s DM', async () => {
    const before = resetsOf('alice');
    const click = buttonClick(f.slack, {
      user: people.alice.id,
      actionId: ids.actions.passwordResetOwn,
      value: '',
      channel: 'D1',
    });
    (click as Json).view = { id: 'VHOMEUALICE', type: 'home', hash: 'h' };
    delete (click as Json).response_url;
    await f.interact(click);
    const dm = await eventually(() =>
      f.slack
        .callsOf('chat.postMessage')
        .find((c) => c.args.channel === people.alice.id && /password reset link/.test(String(c.args.text))),
    );
    expect(String(dm.args.text)).toContain('`alice`');
    expect(resetsOf('alice')).toBe(before + 1);
  });

  it('opens the People browser from an App Home button', async () => {
    const click = buttonClick(f.slack, {
      user: people.admin.id,
      actionId: ids.actions.peopleOpen,
      value: '',
      channel: 'D1',
    });
    (click as Json).view = { id: 'VHOMEUADMIN', type: 'home', hash: 'h' };
    const view = await viewAfter(
      () => f.interact(click),
      (v) => v.callback_id === ids.views.peopleBrowser,
    );
    expect(rangeOf(view)?.[0]).toBe(1);
  });
});

describe('the Groups browser', () => {
  it('lists the groups and pushes a group’s members', async () => {
    const view = await viewAfter(
      () => f.command('admin groups', people.admin.id, 'CPEO'),
      (v) => v.callback_id === ids.views.groupsBrowser,
    );
    expect(text(view)).toContain('*Level 1*');
    const level1 = [...f.platform.sim.state.groups.values()].find((g) => g.name === 'Level 1');
    const members = await viewAfter(
      () => pressButton(view, people.admin.id, `${ids.actions.groupMembers}:${level1?.id}`),
      (v) => text(v).includes('members') && text(v).includes('Alice Martin'),
    );
    expect(text(members)).toContain('Bob Durand');
    expect(text(members)).not.toContain('Carol Petit');
  });
});

/** Every file of the bots' embedded stores (temp dirs `confdesk-bot-*`). */
function storeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('confdesk-bot-')))
    walk(join(tmpdir(), name));
  expect(out.length).toBeGreaterThan(0);
  return out;
}
