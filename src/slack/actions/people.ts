import { ids } from '../../blocks/ids.js';
import {
  buildGroupMembers,
  buildPeopleBrowser,
  buildPeopleOutcome,
  buildPeopleOutcomeMessage,
  buildPersonDeleteConfirm,
  buildPersonDetails,
  buildPersonForm,
  personNameIn,
} from '../../blocks/people.js';
import { phrase, tPlain } from '../../blocks/text.js';
import type { MessageKey } from '../../i18n/catalog.js';
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
 * reset e-mail (told in their DM with the bot when clicked on Home). All in the clicker's language.
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
  async (c) =>
    open(deps, {
      user: c.user,
      triggerId: c.triggerId,
      client: c.client,
      log: c.log,
      channel: c.channel,
      locale: await deps.locales.person(c.user),
    });

/** Home (or any) button: the People browser. */
export const handlePeopleOpen = opening(openPeopleBrowser);

/** Home (or any) button: the Groups browser. */
export const handleGroupsOpen = opening(openGroupsBrowser);

/** Home (or any) button: the reset e-mail for the clicker's own login, said privately. */
export const handlePasswordResetOwn =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const [sent, locale] = await Promise.all([
      deps.people.resetPassword(c.user),
      deps.locales.person(c.user),
    ]);
    await c.respond({
      response_type: 'ephemeral',
      ...buildPeopleOutcomeMessage(locale, { kind: 'reset', ...sent }),
    });
  };

/** The search box's Enter: the first page of what it finds, in place. */
export const handlePeopleSearch =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const view = modalOf(c);
    const [page, locale] = await Promise.all([
      deps.people.list(c.user, { search: c.value.trim().slice(0, 500), offset: 0 }),
      deps.locales.person(c.user),
    ]);
    await updateView(c.client, view.id)(buildPeopleBrowser(locale, page));
  };

/** Previous/Next of the browser, in place. */
export const handlePeoplePage =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const view = modalOf(c);
    const { q, o } = readJson(peopleQuery, c.value);
    const [page, locale] = await Promise.all([
      deps.people.list(c.user, { search: q, offset: o }),
      deps.locales.person(c.user),
    ]);
    await updateView(c.client, view.id)(buildPeopleBrowser(locale, page));
  };

/** A person's menu: Show, Edit, Send a password reset, Delete… — each pushed over the browser. */
export const handlePersonMenu =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const browser = browserOf(c);
    const { kind, userId } = readValue(personMenuValue, c.value);
    const locale = await deps.locales.person(c.user);
    const push = (title: MessageKey, working: MessageKey, load: Parameters<typeof pushThenLoad>[2]) =>
      pushThenLoad(
        c.client,
        {
          triggerId: c.triggerId,
          title: tPlain(locale, title),
          working: peopleWorking(deps, locale, working),
          log: c.log,
          locale,
        },
        load,
      );
    const metadata = JSON.stringify({ u: userId, ...(browser ? { b: browser } : {}) });
    switch (kind) {
      case 'show':
        return push('people.details.title', 'people.working.user', async () =>
          buildPersonDetails(locale, await deps.people.see(c.user, userId)),
        );
      case 'edit':
        return push('people.edit.title', 'people.working.user', async () => {
          const person = await deps.people.forEdit(c.user, userId);
          return buildPersonForm({
            locale,
            mode: 'edit',
            values: { firstName: person.firstName, lastName: person.lastName, ...person.details },
            metadata,
            who: personNameIn(locale, person),
          });
        });
      case 'reset':
        return push('people.outcome.resetTitle', 'people.working.reset', async () =>
          buildPeopleOutcome(locale, { kind: 'reset', ...(await deps.people.resetFor(c.user, userId)) }),
        );
      case 'delete':
        return push('people.delete.title', 'people.working.owns', async () => {
          const { person, holdings } = await deps.people.forDelete(c.user, userId);
          return buildPersonDeleteConfirm(locale, person, holdings, metadata);
        });
    }
  };

/** New user: the create form, pushed once the person is known to be an admin. */
export const handlePersonNew =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const locale = await deps.locales.person(c.user);
    return pushThenLoad(
      c.client,
      {
        triggerId: c.triggerId,
        title: tPlain(locale, 'people.create.title'),
        working: peopleWorking(deps, locale, 'people.working.form'),
        log: c.log,
        locale,
      },
      async () => {
        const browser = browserOf(c);
        await deps.people.mayCreate(c.user);
        return buildPersonForm({
          locale,
          mode: 'create',
          values: {},
          ...(browser ? { metadata: JSON.stringify({ b: browser }) } : {}),
        });
      },
    );
  };

/** A group's Members button: the first page of its members, pushed. */
export const handleGroupMembers =
  (deps: PeopleDeps): ClickHandler =>
  async (c) => {
    const groupId = readValue(idValue, c.value);
    if (c.surface !== 'modal') throw staleValue();
    const locale = await deps.locales.person(c.user);
    const open = async () => {
      const { group, page } = await deps.people.members(c.user, groupId, 0);
      return buildGroupMembers(locale, group, page);
    };
    return pushThenLoad(
      c.client,
      {
        triggerId: c.triggerId,
        title: tPlain(locale, 'people.members.title'),
        working: peopleWorking(deps, locale, 'people.working.members'),
        log: c.log,
        locale,
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
    const [{ group, page }, locale] = await Promise.all([
      deps.people.members(c.user, g, o),
      deps.locales.person(c.user),
    ]);
    await updateView(c.client, view.id)(buildGroupMembers(locale, group, page));
  };

/** Registers the People and Groups screens' clicks, and the Home's doors to them. */
export function registerPeopleActions(routes: ActionRoutes, deps: PeopleDeps): void {
  routes.on(ids.actions.peopleOpen, handlePeopleOpen(deps));
  routes.on(ids.actions.groupsOpen, handleGroupsOpen(deps));
  routes.on(ids.actions.passwordResetOwn, handlePasswordResetOwn(deps), {
    working: phrase('working.sendingPasswordReset'),
  });
  routes.on(ids.actions.peopleSearch, handlePeopleSearch(deps));
  routes.on(ids.actions.peoplePage, handlePeoplePage(deps));
  routes.on(ids.actions.personMenu, handlePersonMenu(deps));
  routes.on(ids.actions.personNew, handlePersonNew(deps));
  routes.on(ids.actions.groupMembers, handleGroupMembers(deps));
  routes.on(ids.actions.groupMembersPage, handleGroupMembersPage(deps));
}
