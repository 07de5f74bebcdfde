import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { ids } from '../../../src/blocks/ids.js';
import { md } from '../../../src/blocks/mrkdwn.js';
import type { Locale } from '../../../src/i18n/locale.js';
import { handleConferenceCommand } from '../../../src/slack/commands/conference.js';
import type { Click } from '../../../src/slack/runtime/action-routes.js';
import type { SlashCommand } from '../../../src/slack/runtime/command-routes.js';
import type { Surfaces } from '../../../src/slack/runtime/surfaces.js';
import {
  type CheckedSettings,
  handleNotSetUp,
  handleSettingsCommand,
  handleSettingsOpen,
  handleSettingsSubmit,
  handleSetupHome,
  registerSetupOnly,
  type WorkspaceSetupDeps,
} from '../../../src/slack/setup/index.js';
import { settingsSubmission } from '../../helpers/distribution.js';
import {
  click,
  conferenceDeps,
  eventually,
  fakeSlack,
  notUsed,
  silent,
  slash,
  submitted,
  usePlatform,
  viewUpdates,
} from '../../helpers/listener-fakes.js';
import { people } from '../../helpers/people.js';

/**
 * Distribution mode's setup surface: the settings (the admin table's row, Home's button, the form)
 * for the workspace's Slack admins only, and, before set-up, every command's "not set up".
 */
const platform = usePlatform();

/** Slack's profiles of the test people, where `people.admin` administers the workspace and nobody else does. */
const slackOf = (locale?: string) =>
  fakeSlack({
    'users.info': (a) => {
      const p = Object.values(people).find((x) => x.id === a.user);
      const profile = p && { id: p.id, tz: p.tz, profile: p.email ? { email: p.email } : {} };
      return { user: { ...profile, is_admin: a.user === people.admin.id, ...(locale ? { locale } : {}) } };
    },
  });

function setupDeps(o: { notStarted?: string } = {}) {
  const saves: { settings: CheckedSettings; by: string }[] = [];
  const languages: { saved: Locale[]; notStarted: Locale[] } = { saved: [], notStarted: [] };
  let answer: Awaited<ReturnType<WorkspaceSetupDeps['save']>> = {
    ok: true,
    webhook: { url: 'https://confdesk.example/webhooks/platform/T1', header: 'X-Secret', secret: true },
  };
  const deps: WorkspaceSetupDeps = {
    teamName: 'Acme',
    notStarted: (locale) => {
      languages.notStarted.push(locale);
      return o.notStarted ? md`${o.notStarted}` : undefined;
    },
    summary: async () => undefined,
    save: async (settings, by, locale) => {
      saves.push({ settings, by });
      languages.saved.push(locale);
      return answer;
    },
    logger: silent,
  };
  return {
    deps,
    saves,
    languages,
    refuse: (problem: string) => (answer = { ok: false, problem: md`${problem}` }),
  };
}

/** What `registerSetupOnly` adds to the tables, by kind and id. */
function setupOnly(deps: WorkspaceSetupDeps) {
  const rows = new Map<string, (args: never) => Promise<void>>();
  const actions = new Map<string, (c: Click) => Promise<unknown>>();
  const add = (kind: string) => (id: string, handler: (args: never) => Promise<void>) =>
    rows.set(`${kind} ${id}`, handler);
  const on = {
    listeners: { command: add('command'), view: add('view'), event: add('event') },
    actions: { on: (id: string, run: (c: Click) => Promise<unknown>) => actions.set(id, run) },
  } as unknown as Surfaces;
  registerSetupOnly(on, deps);
  const command = rows.get.bind(rows) as (
    key: string,
  ) => (args: SlackCommandMiddlewareArgs & AllMiddlewareArgs) => Promise<void>;
  return { rows, actions, command };
}

const settingsValues = (fields: Parameters<typeof settingsSubmission>[3]) =>
  settingsSubmission('T1', people.admin.id, 'VSET', fields).view.state.values;

describe('/conference admin settings, the row distribution mode supplies', () => {
  /** `/conference <text>` by `user`; `oneWorkspace`: the row is not supplied. */
  const conference = (text: string, user: string, oneWorkspace = false) => {
    const workspaceSettings = oneWorkspace ? undefined : handleSettingsCommand(setupDeps().deps);
    const slack = slackOf();
    const { deps } = conferenceDeps(platform.client, slack);
    const c = slash(slack, { user, text });
    return {
      slack,
      ...c,
      run: () => handleConferenceCommand({ ...deps, links: notUsed('links'), workspaceSettings })(c.args),
    };
  };

  it('opens the settings form for a Slack admin, after an empty ack', async () => {
    const { run, acks, slack } = conference('admin settings', people.admin.id);
    await run();
    expect(acks.given).toEqual([undefined]);
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    expect(slack.callsOf('views.open')[0]).toMatchObject({
      trigger_id: 'trigger',
      view: { callback_id: ids.views.workspaceSettings },
    });
  });

  it('refuses anyone else in the ack, opening nothing', async () => {
    const { run, acks, slack } = conference('admin settings', people.alice.id);
    await run();
    expect(JSON.stringify(acks.given)).toContain('Only this workspace');
    expect(slack.callsOf('views.open')).toEqual([]);
  });

  it('with one workspace (no row supplied) says the settings come from the environment', async () => {
    const { run, acks, slack } = conference('admin settings', people.admin.id, true);
    await run();
    expect(JSON.stringify(acks.given)).toContain('its settings come from its environment');
    expect(slack.callsOf('users.info')).toEqual([]);
  });

  it('leaves `/conference settings` (no table lists it) to be read as a conference’s words: the form, not the settings', async () => {
    const { run, slack } = conference('settings', people.admin.id);
    await run();
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    const opened = JSON.stringify(slack.callsOf('views.open'));
    expect(opened).toContain(ids.views.conferenceForm);
    expect(opened).toContain('settings');
    expect(opened).not.toContain(ids.views.workspaceSettings);
  });
});

describe('Home’s Set up button', () => {
  it('opens the form for a Slack admin', async () => {
    const slack = slackOf();
    await handleSettingsOpen(setupDeps().deps)(click(slack, { user: people.admin.id }).c);
    expect(slack.callsOf('views.open')).toEqual([
      expect.objectContaining({
        view: expect.objectContaining({ callback_id: ids.views.workspaceSettings }),
      }),
    ]);
  });

  it('opens nothing for anyone else', async () => {
    const slack = slackOf();
    await handleSettingsOpen(setupDeps().deps)(click(slack, { user: people.alice.id }).c);
    expect(slack.callsOf('views.open')).toEqual([]);
  });
});

describe('the settings form', () => {
  it('says "signing in", saves what an admin gave and shows the webhook address', async () => {
    const slack = slackOf();
    const { deps, saves } = setupDeps();
    const { args, acks } = submitted(slack, {
      user: people.admin.id,
      viewId: 'VSET',
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'https://video.example', token: 'tok' }),
    });
    await handleSettingsSubmit(deps)(args);
    expect(acks.given).toEqual([expect.objectContaining({ response_action: 'update' })]);
    expect(JSON.stringify(acks.given)).toContain('Signing in to the platform');
    const [update] = await viewUpdates(slack, { viewId: 'VSET' });
    expect(JSON.stringify(update)).toContain('https://confdesk.example/webhooks/platform/T1');
    expect(saves).toEqual([
      {
        by: people.admin.id,
        settings: expect.objectContaining({ ok: true, platformUrl: 'https://video.example' }),
      },
    ]);
  });

  it('shows the form again with why the platform refused the settings', async () => {
    const slack = slackOf();
    const { deps, refuse } = setupDeps();
    refuse('Not saved: the platform refused the API token.');
    const { args } = submitted(slack, {
      user: people.admin.id,
      viewId: 'VSET',
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'https://video.example', token: 'wrong' }),
    });
    await handleSettingsSubmit(deps)(args);
    const [update] = await viewUpdates(slack, { viewId: 'VSET' });
    expect(update).toMatchObject({ view: { callback_id: ids.views.workspaceSettings } });
    expect(JSON.stringify(update)).toContain('refused the API token');
  });

  it('answers a form with mistakes, and anyone but an admin, inline, saving nothing', async () => {
    const slack = slackOf();
    const { deps, saves } = setupDeps();
    const bad = submitted(slack, {
      user: people.admin.id,
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'not a url', token: 'tok' }),
    });
    await handleSettingsSubmit(deps)(bad.args);
    expect(bad.acks.given).toEqual([
      { response_action: 'errors', errors: expect.objectContaining({ platform_url: expect.any(String) }) },
    ]);
    const forged = submitted(slack, {
      user: people.alice.id,
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'https://video.example', token: 'tok' }),
    });
    await handleSettingsSubmit(deps)(forged.args);
    expect(JSON.stringify(forged.acks.given)).toContain('Only this workspace');
    expect(saves).toEqual([]);
    expect(slack.callsOf('views.update')).toEqual([]);
  });
});

describe('the settings in a French admin’s language', () => {
  it('answers a form with mistakes inline in French, and asks the save to say why not in French', async () => {
    const slack = slackOf('fr-FR');
    const { deps, languages } = setupDeps();
    const bad = submitted(slack, {
      user: people.admin.id,
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'not a url', token: 'tok' }),
    });
    await handleSettingsSubmit(deps)(bad.args);
    expect(bad.acks.given).toEqual([
      {
        response_action: 'errors',
        errors: expect.objectContaining({
          platform_url: expect.stringMatching(/^Saisissez l’adresse de la plateforme/),
        }),
      },
    ]);
    const good = submitted(slack, {
      user: people.admin.id,
      viewId: 'VSET',
      callbackId: ids.views.workspaceSettings,
      values: settingsValues({ url: 'https://video.example', token: 'tok' }),
    });
    await handleSettingsSubmit(deps)(good.args);
    await eventually(() => expect(languages.saved).toEqual(['fr']));
  });

  it('a not-set-up workspace’s commands answer in French, the start’s failure asked in French', async () => {
    const { command } = setupOnly(setupDeps().deps);
    const slack = slackOf('fr-FR');
    const member = slash(slack, { user: people.alice.id, text: 'list', command: '/ticket' });
    await command(`command ${ids.commands.ticket}`)(member.args);
    expect(JSON.stringify(member.acks.given)).toContain('demandez à un administrateur');
    const failed = setupDeps({ notStarted: 'its store could not open' });
    const asked = slash(slack, { user: people.alice.id, text: 'list', command: '/ticket' });
    await setupOnly(failed.deps).command(`command ${ids.commands.ticket}`)(asked.args);
    expect(failed.languages.notStarted).toEqual(['fr']);
  });
});

describe('a workspace not set up yet', () => {
  it('answers every command but the settings with how to set confdesk up, said to an admin as to one', async () => {
    const { command } = setupOnly(setupDeps().deps);
    const slack = slackOf();
    const member = slash(slack, { user: people.alice.id, text: 'list', command: '/ticket' });
    await command(`command ${ids.commands.ticket}`)(member.args);
    expect(JSON.stringify(member.acks.given)).toContain('ask a workspace admin');
    const admin = slash(slack, { user: people.admin.id, text: 'help' });
    await command(`command ${ids.commands.conference}`)(admin.args);
    expect(JSON.stringify(admin.acks.given)).toContain('run `/conference admin settings`');
    expect(slack.callsOf('views.open')).toEqual([]);
  });

  it('opens the settings for `/conference admin settings` only, not `/conference settings`', async () => {
    const { command } = setupOnly(setupDeps().deps);
    const slack = slackOf();
    const settings = slash(slack, { user: people.admin.id, text: ' Admin  settings ' });
    await command(`command ${ids.commands.conference}`)(settings.args);
    expect(settings.acks.given).toEqual([undefined]);
    await eventually(() => expect(slack.callsOf('views.open')).toHaveLength(1));
    const bare = slash(slack, { user: people.admin.id, text: 'settings' });
    await command(`command ${ids.commands.conference}`)(bare.args);
    expect(JSON.stringify(bare.acks.given)).toContain('not set up in this workspace yet');
    expect(slack.callsOf('views.open')).toHaveLength(1);
  });

  it('says why a set-up workspace does not run when its start failed, not that it is not set up', async () => {
    const { command } = setupOnly(
      setupDeps({ notStarted: 'confdesk could not start: its store could not open' }).deps,
    );
    const slack = slackOf();
    const { args, acks } = slash(slack, { user: people.alice.id, text: 'list', command: '/ticket' });
    await command(`command ${ids.commands.ticket}`)(args);
    expect(JSON.stringify(acks.given)).toContain('its store could not open');
    expect(JSON.stringify(acks.given)).not.toContain('not set up');
  });

  it('"not set up" tells an admin to run the settings, anyone else to ask one, in the ack', async () => {
    const slack = slackOf();
    const asked = (user: string) =>
      ({ user, team: 'T1', channel: 'C1', text: '', triggerId: 't', client: slack.client }) as SlashCommand;
    const answer = handleNotSetUp({});
    expect(await answer(undefined, asked(people.admin.id), undefined)).toEqual({
      say: expect.objectContaining({ text: expect.stringContaining('run `/conference admin settings`') }),
    });
    expect(await answer(undefined, asked(people.alice.id), undefined)).toEqual({
      say: expect.objectContaining({ text: expect.stringContaining('ask a workspace admin') }),
    });
    // A users.info that fails is no reason to fail the answer: the sentence for non-admins.
    const down = fakeSlack({
      'users.info': () => {
        throw new Error('slack is down');
      },
    });
    const c = { ...asked(people.admin.id), client: down.client };
    expect(JSON.stringify(await answer(undefined, c, undefined))).toContain('ask a workspace admin');
  });

  it('registers its Home, the settings button and the form on the same tables', () => {
    const { rows, actions } = setupOnly(setupDeps().deps);
    expect([...rows.keys()].sort()).toEqual([
      `command ${ids.commands.conference}`,
      `command ${ids.commands.ticket}`,
      'event app_home_opened',
      `view ${ids.views.workspaceSettings}`,
    ]);
    expect([...actions.keys()]).toEqual([ids.actions.workspaceSettingsOpen]);
  });

  it('shows Home with the settings button to an admin, without it to anyone else', async () => {
    const slack = slackOf();
    const home = (user: string) =>
      handleSetupHome({ teamName: 'Acme' })({
        event: { type: 'app_home_opened', user, tab: 'home' },
        client: slack.client,
      } as unknown as Parameters<ReturnType<typeof handleSetupHome>>[0]);
    await home(people.admin.id);
    await home(people.alice.id);
    const [admin, member] = slack.callsOf('views.publish');
    expect(JSON.stringify(admin)).toContain(ids.actions.workspaceSettingsOpen);
    expect(JSON.stringify(member)).not.toContain(ids.actions.workspaceSettingsOpen);
    expect(JSON.stringify(member)).toContain('Acme');
  });
});
