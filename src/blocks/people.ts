import type { ModalView, Overflow } from '@slack/types';
import {
  type Count,
  type GroupSummary,
  groupsShown,
  type Holdings,
  type PeoplePage,
  type PersonUpdate,
  type PlatformPerson,
  peoplePageSize,
} from '../domain/people.js';
import type { Locale } from '../i18n/locale.js';
import { ids } from './ids.js';
import { input, numberInput, option, textInput } from './inputs.js';
import {
  actions,
  type Block,
  button,
  context,
  header,
  plain,
  section,
  type TextMessage,
  textMessage,
} from './kit.js';
import { limits } from './limits.js';
import { clipPlain, joinMd, type Mrkdwn, md } from './mrkdwn.js';
import { t, tPlain } from './text.js';

/*
 * The admin screens of the enterprise's people and groups, all modals: the People browser
 * (search, pages, a menu per person), a person's details, the create and edit forms, the delete
 * confirmation that says what the person still owns, the Groups browser and a group's members.
 * None of them ever holds a password: the create form's password input is always empty. Each is seen
 * by one admin: it is written in their language (`locale`).
 */

const p = ids.people;
const modalTitle = (title: string) => plain(title, limits.viewTitle);
const viewButton = (label: string) => plain(label, limits.viewButton);

/** What the browser carries between pages (its private_metadata and its paging buttons' values). */
export interface PeopleQuery {
  q: string;
  o: number;
}

const queryValue = (q: PeopleQuery) => JSON.stringify({ q: q.q.slice(0, 500), o: q.o });

/** A person's name: their names, else their login, else "user <id>" in `locale`. */
export function personNameIn(
  locale: Locale,
  person: Pick<PlatformPerson, 'firstName' | 'lastName' | 'username' | 'id'>,
): string {
  const full = [person.firstName, person.lastName].filter((x) => x?.trim()).join(' ');
  return full || person.username || tPlain(locale, 'people.userFallback', { id: person.id });
}

const groupName = (locale: Locale, g: { id: string; name?: string | undefined }) =>
  g.name ?? tPlain(locale, 'people.groupFallback', { id: g.id });

/** The platform roles the catalog names; any other is shown as the platform writes it. */
const roleKeys = {
  admin: 'people.role.admin',
  agent: 'people.role.agent',
  supervisor: 'people.role.supervisor',
  user: 'people.role.user',
} as const;

const roleLabel = (locale: Locale, role: string | undefined): string => {
  if (role === undefined) return tPlain(locale, 'people.noRole');
  return Object.hasOwn(roleKeys, role) ? tPlain(locale, roleKeys[role as keyof typeof roleKeys]) : role;
};

const groupsLine = (locale: Locale, person: PlatformPerson): Mrkdwn =>
  person.groups.length
    ? joinMd(
        person.groups.slice(0, 10).map((g) => md`${groupName(locale, g)}`),
        md`, `,
      )
    : t(locale, 'people.noGroup');

const personLine = (locale: Locale, person: PlatformPerson): Mrkdwn =>
  t(locale, 'people.browser.row', {
    name: personNameIn(locale, person),
    login: person.username ?? '?',
    contact: person.email ?? person.cellPhone ?? tPlain(locale, 'people.noEmail'),
    role: roleLabel(locale, person.role),
    groups: groupsLine(locale, person),
  });

const menu = (locale: Locale, person: PlatformPerson): Overflow => ({
  type: 'overflow',
  action_id: `${ids.actions.personMenu}:${person.id}`,
  options: [
    option(`show:${person.id}`, tPlain(locale, 'people.menu.show')),
    option(`edit:${person.id}`, tPlain(locale, 'people.menu.edit')),
    option(`reset:${person.id}`, tPlain(locale, 'people.menu.reset')),
    option(`delete:${person.id}`, tPlain(locale, 'people.menu.delete')),
  ],
});

/** "1–20 of 57 people", or what the search found; a group's "1–20 of 57 members". */
const rangeLine = (locale: Locale, page: PeoplePage, what: 'people' | 'members'): Mrkdwn => {
  if (what === 'members') {
    if (page.total === 0) return t(locale, 'people.range.noMembers');
    return t(locale, 'people.range.members', {
      first: page.offset + 1,
      last: page.offset + page.items.length,
      total: page.total,
    });
  }
  if (page.total === 0)
    return page.search
      ? t(locale, 'people.range.noPeopleMatching', { search: page.search })
      : t(locale, 'people.range.noPeople');
  const range = { first: page.offset + 1, last: page.offset + page.items.length, total: page.total };
  return page.search
    ? t(locale, 'people.range.peopleMatching', { ...range, search: page.search })
    : t(locale, 'people.range.people', range);
};

const pager = (
  locale: Locale,
  page: PeoplePage,
  actionId: string,
  value: (offset: number) => string,
  size: number,
) => {
  const prev = page.offset > 0;
  const next = page.offset + page.items.length < page.total;
  const buttons = [
    ...(prev
      ? [
          button(tPlain(locale, 'people.pager.previous'), `${actionId}:prev`, {
            value: value(Math.max(0, page.offset - size)),
          }),
        ]
      : []),
    ...(next
      ? [
          button(tPlain(locale, 'people.pager.next'), `${actionId}:next`, {
            value: value(page.offset + size),
          }),
        ]
      : []),
  ];
  return buttons.length ? [actions(buttons)] : [];
};

/**
 * The People browser: a search box (Enter, or the Search button, searches first name, last name,
 * e-mail and login), New user, one row per person with its menu, and Previous/Next. At most
 * `peoplePageSize` rows whatever the page holds: about 25 blocks.
 */
export function buildPeopleBrowser(locale: Locale, page: PeoplePage, o: { notice?: Mrkdwn } = {}): ModalView {
  const rows = page.items.slice(0, peoplePageSize);
  const blocks: Block[] = [
    ...(o.notice ? [section(o.notice)] : []),
    {
      type: 'input',
      block_id: p.search,
      dispatch_action: true,
      optional: true,
      label: plain(tPlain(locale, 'people.browser.searchLabel'), limits.inputLabel),
      element: {
        type: 'plain_text_input',
        action_id: ids.actions.peopleSearch,
        dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
        placeholder: plain(tPlain(locale, 'people.browser.searchPlaceholder'), limits.placeholder),
        ...(page.search ? { initial_value: clipPlain(page.search, 500) } : {}),
      },
    },
    actions([button(tPlain(locale, 'people.browser.new'), ids.actions.personNew, { style: 'primary' })]),
    context(rangeLine(locale, { ...page, items: rows }, 'people')),
    ...rows.map((person) => section(personLine(locale, person), { accessory: menu(locale, person) })),
    ...pager(
      locale,
      page,
      ids.actions.peoplePage,
      (offset) => queryValue({ q: page.search, o: offset }),
      peoplePageSize,
    ),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.peopleBrowser,
    title: modalTitle(tPlain(locale, 'people.browser.title')),
    submit: viewButton(tPlain(locale, 'people.browser.submit')),
    close: viewButton(tPlain(locale, 'people.browser.close')),
    private_metadata: queryValue({ q: page.search, o: page.offset }),
    blocks: blocks.slice(0, limits.viewBlocks),
  };
}

type FieldKey =
  | 'people.field.login'
  | 'people.field.email'
  | 'people.field.cellPhone'
  | 'people.field.role'
  | 'people.field.jobTitle'
  | 'people.field.phoneNumber'
  | 'people.field.audioOnly'
  | 'people.field.clickToChat'
  | 'people.field.maxOngoingChat'
  | 'people.field.avatar';

const field = (locale: Locale, label: FieldKey, value: string | number | undefined): Mrkdwn =>
  t(locale, 'people.details.field', {
    label: tPlain(locale, label),
    value: value === undefined || value === '' ? '—' : value,
  });

/** A person's details (pushed over the browser). */
export function buildPersonDetails(locale: Locale, person: PlatformPerson): ModalView {
  const d = person.details;
  const fields = [
    field(locale, 'people.field.login', person.username),
    field(locale, 'people.field.email', person.email),
    field(locale, 'people.field.cellPhone', person.cellPhone),
    field(
      locale,
      'people.field.role',
      person.role === undefined ? undefined : roleLabel(locale, person.role),
    ),
    field(locale, 'people.field.jobTitle', d.jobTitle),
    field(locale, 'people.field.phoneNumber', d.phoneNumber),
    field(locale, 'people.field.audioOnly', d.audioOnly),
    field(locale, 'people.field.clickToChat', d.clickToChat),
    field(locale, 'people.field.maxOngoingChat', d.maxOngoingChat),
    field(locale, 'people.field.avatar', d.avatar),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle(tPlain(locale, 'people.details.title')),
    close: viewButton(tPlain(locale, 'people.details.back')),
    blocks: [
      header(personNameIn(locale, person)),
      section(joinMd(fields, md`\n`)),
      section(t(locale, 'people.details.groups', { groups: groupsLine(locale, person) })),
      context(t(locale, 'people.details.id', { id: person.id })),
    ],
  };
}

/** The create form's values, as typed (never the password). */
export interface NewPersonValues {
  username?: string | undefined;
  email?: string | undefined;
  cellPhone?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

export type PersonFormOptions = {
  /** The admin's language. */
  locale: Locale;
  notices?: Mrkdwn[];
  /** Problems under the inputs they concern, by block id. */
  problems?: Record<string, Mrkdwn>;
} & (
  | { mode: 'create'; values: NewPersonValues; metadata?: string }
  | { mode: 'edit'; values: PersonUpdate; metadata: string; who: string }
);

/**
 * The create form (login, password, e-mail or cell phone, names) or the edit form (the spec's update
 * fields). The password input starts empty every time: the bot never sends a password back to Slack.
 */
export function buildPersonForm(o: PersonFormOptions): ModalView {
  const { locale } = o;
  const say = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  const problem = (blockId: string): Block[] => {
    const x = o.problems?.[blockId];
    return x ? [context(md`:warning: ${x}`)] : [];
  };
  const text = (
    blockId: string,
    label: string,
    initial: string | undefined,
    extra: { optional?: boolean; hint?: string } = {},
  ) => [input(blockId, label, textInput(initial), extra), ...problem(blockId)];
  const number = (blockId: string, label: string, initial: number | undefined, hint: string) => [
    input(blockId, label, numberInput(initial, 0), { hint }),
    ...problem(blockId),
  ];
  const notices = (o.notices ?? []).map((n) => section(md`:warning: ${n}`));
  if (o.mode === 'create') {
    const v = o.values;
    return {
      type: 'modal',
      callback_id: ids.views.personCreate,
      ...(o.metadata ? { private_metadata: o.metadata } : {}),
      title: modalTitle(say('people.create.title')),
      submit: viewButton(say('people.create.submit')),
      close: viewButton(say('people.create.close')),
      blocks: [
        ...notices,
        ...text(p.username, say('people.create.username'), v.username, { optional: false }),
        input(p.password, say('people.create.password'), textInput(undefined), {
          optional: false,
          hint: say('people.create.passwordHint'),
        }),
        ...problem(p.password),
        ...text(p.email, say('people.field.email'), v.email, { hint: say('people.create.emailHint') }),
        ...text(p.cellPhone, say('people.field.cellPhone'), v.cellPhone, {
          hint: say('people.create.cellPhoneHint'),
        }),
        ...text(p.firstName, say('people.field.firstName'), v.firstName),
        ...text(p.lastName, say('people.field.lastName'), v.lastName),
      ],
    };
  }
  const v = o.values;
  return {
    type: 'modal',
    callback_id: ids.views.personEdit,
    title: modalTitle(say('people.edit.title')),
    submit: viewButton(say('people.edit.submit')),
    close: viewButton(say('people.edit.close')),
    private_metadata: o.metadata,
    blocks: [
      ...notices,
      context(t(locale, 'people.edit.editing', { who: o.who })),
      ...text(p.firstName, say('people.field.firstName'), v.firstName),
      ...text(p.lastName, say('people.field.lastName'), v.lastName),
      ...text(p.jobTitle, say('people.field.jobTitle'), v.jobTitle),
      ...text(p.phoneNumber, say('people.field.phoneNumber'), v.phoneNumber),
      ...text(p.avatar, say('people.edit.avatar'), v.avatar),
      ...number(p.audioOnly, say('people.field.audioOnly'), v.audioOnly, say('people.edit.zeroOrOne')),
      ...number(p.clickToChat, say('people.field.clickToChat'), v.clickToChat, say('people.edit.zeroOrOne')),
      ...number(
        p.maxOngoingChat,
        say('people.field.maxOngoingChat'),
        v.maxOngoingChat,
        say('people.edit.wholeNumber'),
      ),
    ],
  };
}

/** The delete confirmation: who, and what they still own on the platform (open tickets, upcoming conferences). */
export function buildPersonDeleteConfirm(
  locale: Locale,
  person: PlatformPerson,
  holdings: Holdings,
  metadata: string,
): ModalView {
  const owns = holdings.openTickets.count + holdings.upcomingConferences.count > 0;
  const atLeast = (c: Count) => (c.atLeast ? 'yes' : 'no');
  return {
    type: 'modal',
    callback_id: ids.views.personDelete,
    title: modalTitle(tPlain(locale, 'people.delete.title')),
    submit: viewButton(tPlain(locale, 'people.delete.submit')),
    close: viewButton(tPlain(locale, 'people.delete.close')),
    private_metadata: metadata,
    blocks: [
      section(
        t(locale, 'people.delete.ask', {
          name: personNameIn(locale, person),
          login: person.username ?? person.id,
          email: person.email ?? tPlain(locale, 'people.noEmail'),
        }),
      ),
      section(
        owns
          ? t(locale, 'people.delete.owns', {
              tickets: holdings.openTickets.count,
              ticketsAtLeast: atLeast(holdings.openTickets),
              conferences: holdings.upcomingConferences.count,
              conferencesAtLeast: atLeast(holdings.upcomingConferences),
            })
          : t(locale, 'people.delete.ownsNothing'),
      ),
    ],
  };
}

/** The Groups browser: each group with its member count and a Members button. */
export function buildGroupsBrowser(locale: Locale, groups: readonly GroupSummary[]): ModalView {
  const shown = groups.slice(0, groupsShown);
  const blocks: Block[] = [
    context(
      groups.length > shown.length
        ? t(locale, 'people.groups.some', { total: groups.length, shown: shown.length })
        : t(locale, 'people.groups.all', { count: groups.length }),
    ),
    ...shown.map((g) =>
      section(
        g.memberCount === undefined
          ? t(locale, 'people.groups.row', { name: groupName(locale, g) })
          : t(locale, 'people.groups.rowMembers', { name: groupName(locale, g), members: g.memberCount }),
        {
          accessory: button(tPlain(locale, 'people.groups.members'), `${ids.actions.groupMembers}:${g.id}`, {
            value: g.id,
          }),
        },
      ),
    ),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.groupsBrowser,
    title: modalTitle(tPlain(locale, 'people.groups.title')),
    close: viewButton(tPlain(locale, 'people.groups.close')),
    blocks: blocks.slice(0, limits.viewBlocks),
  };
}

/** A group's members, a page at a time (Previous/Next update it in place). */
export function buildGroupMembers(locale: Locale, group: GroupSummary, page: PeoplePage): ModalView {
  const name = groupName(locale, group);
  const value = (offset: number) => JSON.stringify({ g: group.id, o: offset });
  const blocks: Block[] = [
    header(name),
    context(rangeLine(locale, page, 'members')),
    ...(page.items.length
      ? [
          section(
            joinMd(
              page.items.map((m) =>
                t(locale, 'people.members.row', {
                  name: personNameIn(locale, m),
                  login: m.username ?? '?',
                  contact: m.email ?? m.cellPhone ?? '',
                }),
              ),
              md`\n`,
            ),
          ),
        ]
      : []),
    ...pager(locale, page, ids.actions.groupMembersPage, value, page.items.length || 1),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle(tPlain(locale, 'people.members.title')),
    close: viewButton(tPlain(locale, 'people.members.back')),
    blocks,
  };
}

/** What the admin screens say when they are done (shown in the modal). */
export type PeopleOutcome =
  | { kind: 'created'; username: string; id: string }
  | { kind: 'updated'; person: PlatformPerson }
  | { kind: 'deleted'; person: PlatformPerson }
  | { kind: 'reset'; login: string; own: boolean };

/** The sentence of an outcome. */
function outcomeText(locale: Locale, o: PeopleOutcome): Mrkdwn {
  switch (o.kind) {
    case 'created':
      return t(locale, 'people.outcome.created', { username: o.username, id: o.id });
    case 'updated':
      return t(locale, 'people.outcome.updated', { name: personNameIn(locale, o.person) });
    case 'deleted':
      return t(locale, 'people.outcome.deleted', {
        name: personNameIn(locale, o.person),
        login: o.person.username ?? o.person.id,
      });
    case 'reset':
      return t(locale, o.own ? 'people.outcome.resetOwn' : 'people.outcome.resetOther', { login: o.login });
  }
}

/** An outcome as a modal. */
export function buildPeopleOutcome(locale: Locale, o: PeopleOutcome): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle(
      tPlain(locale, o.kind === 'reset' ? 'people.outcome.resetTitle' : 'people.outcome.title'),
    ),
    close: viewButton(tPlain(locale, 'people.outcome.done')),
    blocks: [section(outcomeText(locale, o))],
  };
}

/** An outcome as a private message (`/conference password`, a Home click's DM). */
export function buildPeopleOutcomeMessage(locale: Locale, o: PeopleOutcome): TextMessage {
  return textMessage(outcomeText(locale, o));
}
