import { ids } from '../../blocks/ids.js';
import {
  buildGroupMembers,
  buildPeopleBrowser,
  buildPeopleOutcome,
  buildPeopleOutcomeMessage,
  buildPersonDeleteConfirm,
  buildPersonDetails,
  buildPersonForm,
} from '../../blocks/people.js';
import { personName } from '../../domain/people.js';
import type { PeopleDeps } from '../deps.js';
import {
  type BrowserRef,
  browserRef,
  idValue,
  membersPage,
  parseJson,
  peopleQuery,
  personMenuValue,
  readJson,
  readValue,
  staleValue,
} from '../input/payloads.js';
import { openGroupsBrowser, openPeopleBrowser, peopleWorking } from '../openers/people-browsers.js';
import { pushThenLoad } from '../openers/working-modal.js';
import { updateView } from '../replies/reply-error.js';
import type { ActionRoutes, Click, ClickHandler } from '../runtime/action-routes.js';

/*
 * The buttons and menus of the People and Groups screens, and the App Home's doors to
 * them: `peopleOpen` and `groupsOpen` open the browsers, `passwordResetOwn` sends the clicker's own
 * reset e-mail (told in their DM with the bot when clicked on Home).
 */

/** The modal the click came from; a click claiming to be in a modal without one is stale. */
const modalOf = (click: Click) => {
  if (!click.view) throw staleValue();
  return click.view;
};

/** The People browser clicked in, as a pushed modal carries it (absent if its metadata is not the bot's). */
function browserOf(click: Click): BrowserRef | undefined {
  const view = modalOf(click);
  const query = peopleQuery.safeParse(parseJson(view.privateMetadata));
  const ref = browserRef.safeParse({ id: view.id, ...(query.success ? query.data : {}) });
  return ref.success ? ref.data : undefined;
}

/** A Home (or any) button that opens a browser for the person who clicked. */
const opening =
  (open: typeof openGroupsBrowser) =>
  (deps: PeopleDeps): ClickHandler =>
  (c) =>
    open(deps, { user: c.user, triggerId: c.triggerId, client: c.client, log: c.log, channel: c.channel });

/** Home (or any) button: the People browser. */
export const handlePeopleOpen = opening(openPeopleBrowser);

/** Home (or any) button: the Groups browser. */
export const handleGroupsOpen = opening(openGroupsBrowser);

/** Home (or any) button: the reset e-mail for the clicker's own login, said privately. */
export const handlePasswordResetOwn =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const sent = await deps.people.resetPassword(c.user);
    await c.respond({ response_type: 'ephemeral', ...buildPeopleOutcomeMessage({ kind: 'reset', ...sent }) });
  };

/** The search box's Enter: the first page of what it finds, in place. */
export const handlePeopleSearch =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const view = modalOf(c);
    const page = await deps.people.list(c.user, { search: c.value.trim().slice(0, 500), offset: 0 });
    await updateView(c.client, view.id)(buildPeopleBrowser(page));
  };

/** Previous/Next of the browser, in place. */
export const handlePeoplePage =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const view = modalOf(c);
    const { q, o } = readJson(peopleQuery, c.value);
    await updateView(
      c.client,
      view.id,
    )(buildPeopleBrowser(await deps.people.list(c.user, { search: q, offset: o })));
  };

/** A person's menu: Show, Edit, Send a password reset, Delete… — each pushed over the browser. */
export const handlePersonMenu =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const browser = browserOf(c);
    const { kind, userId } = readValue(personMenuValue, c.value);
    const push = (title: string, working: string, load: Parameters<typeof pushThenLoad>[2]) =>
      pushThenLoad(
        c.client,
        { triggerId: c.triggerId, title, working: peopleWorking(deps, working), log: c.log },
        load,
      );
    const metadata = JSON.stringify({ u: userId, ...(browser ? { b: browser } : {}) });
    switch (kind) {
      case 'show':
        return push('User', 'Looking up the user', async () =>
          buildPersonDetails(await deps.people.see(c.user, userId)),
        );
      case 'edit':
        return push('Edit user', 'Looking up the user', async () => {
          const person = await deps.people.forEdit(c.user, userId);
          return buildPersonForm({
            mode: 'edit',
            values: { firstName: person.firstName, lastName: person.lastName, ...person.details },
            metadata,
            who: personName(person),
          });
        });
      case 'reset':
        return push('Password reset', 'Sending the password reset', async () =>
          buildPeopleOutcome({ kind: 'reset', ...(await deps.people.resetFor(c.user, userId)) }),
        );
      case 'delete':
        return push('Delete user', 'Looking up what they own', async () => {
          const { person, holdings } = await deps.people.forDelete(c.user, userId);
          return buildPersonDeleteConfirm(person, holdings, metadata);
        });
    }
  };

/** New user: the create form, pushed once the person is known to be an admin. */
export const handlePersonNew =
  (deps: PeopleDeps): ClickHandler =>
  (c) =>
    pushThenLoad(
      c.client,
      {
        triggerId: c.triggerId,
        title: 'New user',
        working: peopleWorking(deps, 'Opening the form'),
        log: c.log,
      },
      async () => {
        const browser = browserOf(c);
        await deps.people.mayCreate(c.user);
        return buildPersonForm({
          mode: 'create',
          values: {},
          ...(browser ? { metadata: JSON.stringify({ b: browser }) } : {}),
        });
      },
    );

/** A group's Members button: the first page of its members, pushed. */
export const handleGroupMembers =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const groupId = readValue(idValue, c.value);
    const open = async () => {
      const { group, page } = await deps.people.members(c.user, groupId, 0);
      return buildGroupMembers(group, page);
    };
    if (c.surface !== 'modal') throw staleValue();
    return pushThenLoad(
      c.client,
      {
        triggerId: c.triggerId,
        title: 'Members',
        working: peopleWorking(deps, 'Looking up the members'),
        log: c.log,
      },
      open,
    );
  };

/** Previous/Next of a group's members, in place. */
export const handleGroupMembersPage =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const view = modalOf(c);
    const { g, o } = readJson(membersPage, c.value);
    const { group, page } = await deps.people.members(c.user, g, o);
    await updateView(c.client, view.id)(buildGroupMembers(group, page));
  };

/** Registers the People and Groups screens' clicks, and the Home's doors to them. */
export function registerPeopleActions(routes: ActionRoutes, deps: PeopleDeps): void {
  routes.on(ids.actions.peopleOpen, handlePeopleOpen(deps));
  routes.on(ids.actions.groupsOpen, handleGroupsOpen(deps));
  routes.on(ids.actions.passwordResetOwn, handlePasswordResetOwn(deps), {
    working: 'Sending the password reset',
  });
  routes.on(ids.actions.peopleSearch, handlePeopleSearch(deps));
  routes.on(ids.actions.peoplePage, handlePeoplePage(deps));
  routes.on(ids.actions.personMenu, handlePersonMenu(deps));
  routes.on(ids.actions.personNew, handlePersonNew(deps));
  routes.on(ids.actions.groupMembers, handleGroupMembers(deps));
  routes.on(ids.actions.groupMembersPage, handleGroupMembersPage(deps));
}
