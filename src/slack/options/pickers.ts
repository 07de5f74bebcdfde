import type { SlackOptionsMiddlewareArgs } from '@slack/bolt';
import type { PlainTextOption } from '@slack/types';
import { ids } from '../../blocks/ids.js';
import { limits } from '../../blocks/limits.js';
import { buildOptions, buildOptionsNotice, type OptionChoice } from '../../blocks/options.js';
import type { Asker } from '../../services/access.js';
import type { DirectoryGroup, DirectoryUser } from '../../services/directory.js';
import type { PickerDeps } from '../deps.js';
import { requestLog } from '../runtime/after-ack.js';
import type { Listeners } from '../runtime/listener-tables.js';

/** The type-ahead lists, by the menu's action id. */
export type PickerList = 'users' | 'agents' | 'groups' | 'moderators';

/**
 * Slack gives up on an options request after 3 s: the person's rights and a first directory load
 * get this long, what is not there by then answers as nothing (the load goes on for the next key).
 */
export const pickerWaitMs = 2_000;

const late = <T>(work: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]).finally(() => clearTimeout(timer));
};

/**
 * What a person may pick from each list. People and moderators: anyone of the enterprise (the form
 * that takes the choice checks the right to name someone else). Agents: an admin, anyone; others,
 * themselves and the people of their groups (the `ticket.assign` rule). Groups: an admin, every
 * group; others, their own.
 */
export function choicesFor(
  deps: PickerDeps,
  list: PickerList,
  asker: Asker,
  query: string,
): { choices: OptionChoice[]; loaded: boolean } {
  const account = asker.account;
  if (!account) return { choices: [], loaded: true };
  const admin = account.role === 'admin';
  const max = limits.selectOptions;
  const label = (e: DirectoryUser | DirectoryGroup) => ({ id: e.id, label: e.label });
  if (list === 'groups') {
    const r = deps.directory.searchGroups(query, max, (g) => admin || account.groupIds.includes(g.id));
    return { choices: r.groups.map(label), loaded: r.loaded };
  }
  const keep =
    list === 'agents' && !admin
      ? (u: DirectoryUser) => u.id === account.id || u.groupIds.some((g) => account.groupIds.includes(g))
      : undefined;
  const r = deps.directory.searchUsers(query, max, keep);
  return { choices: r.users.map(label), loaded: r.loaded };
}

/**
 * Answers a type-ahead menu from the directory in memory: within Slack's 3 s whatever the platform
 * does (never waiting on it more than `pickerWaitMs`), only to a person with a platform account
 * (`directory.search`), at most 100 options.
 */
export const handlePicker =
  (deps: PickerDeps, list: PickerList) =>
  async ({ ack, body }: SlackOptionsMiddlewareArgs<'block_suggestion'>): Promise<void> => {
    await ack(await answerPicker(deps, list, body));
  };

/** The options for one type-ahead request (the person's rights first). */
export async function answerPicker(
  deps: PickerDeps,
  list: PickerList,
  body: { user: { id: string }; team?: { id: string } | null; action_id: string; value?: string },
): Promise<{ options: PlainTextOption[] }> {
  const user = body.user.id;
  const log = requestLog(deps.logger, { user, team: body.team?.id, action: body.action_id });
  // The directory's first load starts now, beside the rights check, in the background lane.
  const directory = deps.directory.within(pickerWaitMs);
  const asker = await late(
    deps.access.asker(user).catch((error: unknown) => {
      log.warn({ err: error }, 'type-ahead: the person’s account could not be read');
      return undefined;
    }),
    pickerWaitMs,
  );
  if (!asker) return buildOptionsNotice('Still looking you up on the video platform: type again');
  if (!deps.access.may(asker, 'directory.search'))
    return buildOptionsNotice(
      asker.noAccount?.message.includes(' e-mail (')
        ? 'Your Slack e-mail has no account on the video platform'
        : 'Your Slack profile has no e-mail: confdesk cannot find your account',
    );
  await directory;
  const { choices, loaded } = choicesFor(deps, list, asker, body.value ?? '');
  if (!loaded) log.info('type-ahead answered before the directory was loaded');
  return buildOptions(choices);
}

/** Registers the type-ahead menus' options handlers (`ids.options`). */
export function registerPickers(app: Listeners, deps: PickerDeps): void {
  for (const list of Object.keys(ids.options) as PickerList[])
    app.options<'block_suggestion'>(ids.options[list], handlePicker(deps, list));
}
