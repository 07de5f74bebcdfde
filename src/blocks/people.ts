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
  personName,
} from '../domain/people.js';
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

/*
 * The admin screens of the enterprise's people and groups, all modals: the People browser
 * (search, pages, a menu per person), a person's details, the create and edit forms, the delete
 * confirmation that says what the person still owns, the Groups browser and a group's members.
 * None of them ever holds a password: the create form's password input is always empty.
 */

const p = ids.people;
const modalTitle = (t: string) => plain(t, limits.viewTitle);
const viewButton = (t: string) => plain(t, limits.viewButton);

/** What the browser carries between pages (its private_metadata and its paging buttons' values). */
export interface PeopleQuery {
  q: string;
  o: number;
}

const queryValue = (q: PeopleQuery) => JSON.stringify({ q: q.q.slice(0, 500), o: q.o });

const groupsLine = (person: PlatformPerson): Mrkdwn =>
  person.groups.length
    ? joinMd(
        person.groups.slice(0, 10).map((g) => md`${g.name ?? `group ${g.id}`}`),
        md`, `,
      )
    : md`no group`;

const personLine = (person: PlatformPerson): Mrkdwn =>
  md`*${personName(person)}* · \`${person.username ?? '?'}\`\n${person.email ?? person.cellPhone ?? 'no e-mail'} · ${person.role ?? 'no role'} · ${groupsLine(person)}`;

const menu = (person: PlatformPerson): Overflow => ({
  type: 'overflow',
  action_id: `${ids.actions.personMenu}:${person.id}`,
  options: [
    option(`show:${person.id}`, 'Show'),
    option(`edit:${person.id}`, 'Edit'),
    option(`reset:${person.id}`, 'Send a password reset'),
    option(`delete:${person.id}`, 'Delete…'),
  ],
});

/** "1–20 of 57", or what the search found. */
const rangeLine = (page: PeoplePage, what: string): Mrkdwn => {
  if (page.total === 0)
    return page.search ? md`No ${what} matches “${page.search}”.` : md`No ${what} in this enterprise.`;
  const shown = md`${page.offset + 1}–${page.offset + page.items.length} of ${page.total} ${what}`;
  return page.search ? md`${shown} matching “${page.search}”` : shown;
};

const pager = (page: PeoplePage, actionId: string, value: (offset: number) => string, size: number) => {
  const prev = page.offset > 0;
  const next = page.offset + page.items.length < page.total;
  const buttons = [
    ...(prev
      ? [button('Previous', `${actionId}:prev`, { value: value(Math.max(0, page.offset - size)) })]
      : []),
    ...(next ? [button('Next', `${actionId}:next`, { value: value(page.offset + size) })] : []),
  ];
  return buttons.length ? [actions(buttons)] : [];
};

/**
 * The People browser: a search box (Enter, or the Search button, searches first name, last name,
 * e-mail and login), New user, one row per person with its menu, and Previous/Next. At most
 * `peoplePageSize` rows whatever the page holds: about 25 blocks.
 */
export function buildPeopleBrowser(page: PeoplePage, o: { notice?: Mrkdwn } = {}): ModalView {
  const rows = page.items.slice(0, peoplePageSize);
  const blocks: Block[] = [
    ...(o.notice ? [section(o.notice)] : []),
    {
      type: 'input',
      block_id: p.search,
      dispatch_action: true,
      optional: true,
      label: plain('Search by name, e-mail or login', limits.inputLabel),
      element: {
        type: 'plain_text_input',
        action_id: ids.actions.peopleSearch,
        dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
        placeholder: plain('Press Enter to search', limits.placeholder),
        ...(page.search ? { initial_value: clipPlain(page.search, 500) } : {}),
      },
    },
    actions([button('New user', ids.actions.personNew, { style: 'primary' })]),
    context(rangeLine({ ...page, items: rows }, 'people')),
    ...rows.map((person) => section(personLine(person), { accessory: menu(person) })),
    ...pager(
      page,
      ids.actions.peoplePage,
      (offset) => queryValue({ q: page.search, o: offset }),
      peoplePageSize,
    ),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.peopleBrowser,
    title: modalTitle('People'),
    submit: viewButton('Search'),
    close: viewButton('Close'),
    private_metadata: queryValue({ q: page.search, o: page.offset }),
    blocks: blocks.slice(0, limits.viewBlocks),
  };
}

const field = (label: string, value: string | number | undefined): Mrkdwn =>
  md`*${label}:* ${value === undefined || value === '' ? '—' : value}`;

/** A person's details (pushed over the browser). */
export function buildPersonDetails(person: PlatformPerson): ModalView {
  const d = person.details;
  const fields = [
    field('Login', person.username),
    field('E-mail', person.email),
    field('Cell phone', person.cellPhone),
    field('Role', person.role),
    field('Job title', d.jobTitle),
    field('Phone number', d.phoneNumber),
    field('Audio only', d.audioOnly),
    field('Click to chat', d.clickToChat),
    field('Max ongoing chats', d.maxOngoingChat),
    field('Avatar', d.avatar),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle('User'),
    close: viewButton('Back'),
    blocks: [
      header(personName(person)),
      section(joinMd(fields, md`\n`)),
      section(md`*Groups:* ${groupsLine(person)}`),
      context(md`Platform user id ${person.id}`),
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
      title: modalTitle('New user'),
      submit: viewButton('Create'),
      close: viewButton('Cancel'),
      blocks: [
        ...notices,
        ...text(p.username, 'Login (username)', v.username, { optional: false }),
        input(p.password, 'Password', textInput(undefined), {
          optional: false,
          hint: 'Sent to the video platform once. confdesk keeps no copy and never shows it again.',
        }),
        ...problem(p.password),
        ...text(p.email, 'E-mail', v.email, { hint: 'An e-mail or a cell phone: at least one.' }),
        ...text(p.cellPhone, 'Cell phone', v.cellPhone, { hint: 'International format: +33612345678' }),
        ...text(p.firstName, 'First name', v.firstName),
        ...text(p.lastName, 'Last name', v.lastName),
      ],
    };
  }
  const v = o.values;
  return {
    type: 'modal',
    callback_id: ids.views.personEdit,
    title: modalTitle('Edit user'),
    submit: viewButton('Save'),
    close: viewButton('Back'),
    private_metadata: o.metadata,
    blocks: [
      ...notices,
      context(md`Editing *${o.who}*. Empty fields are left as they are.`),
      ...text(p.firstName, 'First name', v.firstName),
      ...text(p.lastName, 'Last name', v.lastName),
      ...text(p.jobTitle, 'Job title', v.jobTitle),
      ...text(p.phoneNumber, 'Phone number', v.phoneNumber),
      ...text(p.avatar, 'Avatar (URL)', v.avatar),
      ...number(p.audioOnly, 'Audio only', v.audioOnly, '0 or 1'),
      ...number(p.clickToChat, 'Click to chat', v.clickToChat, '0 or 1'),
      ...number(p.maxOngoingChat, 'Max ongoing chats', v.maxOngoingChat, 'A whole number'),
    ],
  };
}

const countText = (c: Count, one: string, many: string): Mrkdwn =>
  md`${c.atLeast ? 'at least ' : ''}${c.count} ${c.count === 1 && !c.atLeast ? one : many}`;

/** The delete confirmation: who, and what they still own on the platform (open tickets, upcoming conferences). */
export function buildPersonDeleteConfirm(
  person: PlatformPerson,
  holdings: Holdings,
  metadata: string,
): ModalView {
  const owns = holdings.openTickets.count + holdings.upcomingConferences.count > 0;
  return {
    type: 'modal',
    callback_id: ids.views.personDelete,
    title: modalTitle('Delete user'),
    submit: viewButton('Delete'),
    close: viewButton('Back'),
    private_metadata: metadata,
    blocks: [
      section(
        md`Delete *${personName(person)}* (\`${person.username ?? person.id}\`, ${person.email ?? 'no e-mail'}) from the video platform? This cannot be undone.`,
      ),
      section(
        owns
          ? md`:warning: They still have ${countText(holdings.openTickets, 'open ticket', 'open tickets')} as agent and ${countText(holdings.upcomingConferences, 'upcoming conference', 'upcoming conferences')} as moderator. Give them to someone else first, or they keep the deleted account’s name.`
          : md`They have no open ticket and no upcoming conference.`,
      ),
    ],
  };
}

/** The Groups browser: each group with its member count and a Members button. */
export function buildGroupsBrowser(groups: readonly GroupSummary[]): ModalView {
  const shown = groups.slice(0, groupsShown);
  const blocks: Block[] = [
    context(
      groups.length > shown.length
        ? md`${groups.length} groups; the first ${shown.length} are shown.`
        : md`${groups.length} group${groups.length === 1 ? '' : 's'} in this enterprise.`,
    ),
    ...shown.map((g) =>
      section(
        md`*${g.name ?? `group ${g.id}`}*${g.memberCount === undefined ? '' : md` · ${g.memberCount} member${g.memberCount === 1 ? '' : 's'}`}`,
        { accessory: button('Members', `${ids.actions.groupMembers}:${g.id}`, { value: g.id }) },
      ),
    ),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.groupsBrowser,
    title: modalTitle('Groups'),
    close: viewButton('Close'),
    blocks: blocks.slice(0, limits.viewBlocks),
  };
}

/** A group's members, a page at a time (Previous/Next update it in place). */
export function buildGroupMembers(group: GroupSummary, page: PeoplePage): ModalView {
  const name = group.name ?? `group ${group.id}`;
  const value = (offset: number) => JSON.stringify({ g: group.id, o: offset });
  const blocks: Block[] = [
    header(name),
    context(rangeLine(page, 'members')),
    ...(page.items.length
      ? [
          section(
            joinMd(
              page.items.map(
                (m) => md`• *${personName(m)}* · \`${m.username ?? '?'}\` · ${m.email ?? m.cellPhone ?? ''}`,
              ),
              md`\n`,
            ),
          ),
        ]
      : []),
    ...pager(page, ids.actions.groupMembersPage, value, page.items.length || 1),
  ];
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle('Members'),
    close: viewButton('Back'),
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
function outcomeText(o: PeopleOutcome): Mrkdwn {
  switch (o.kind) {
    case 'created':
      return md`:white_check_mark: The user \`${o.username}\` was created (id ${o.id}). The password you typed went to the video platform only.`;
    case 'updated':
      return md`:white_check_mark: *${personName(o.person)}* was saved.`;
    case 'deleted':
      return md`:wastebasket: *${personName(o.person)}* (\`${o.person.username ?? o.person.id}\`) was deleted from the video platform.`;
    case 'reset':
      return o.own
        ? md`:email: The video platform is sending a password reset link to your login’s e-mail (\`${o.login}\`).`
        : md`:email: The video platform is sending a password reset link to \`${o.login}\`’s e-mail.`;
  }
}

/** An outcome as a modal. */
export function buildPeopleOutcome(o: PeopleOutcome): ModalView {
  return {
    type: 'modal',
    callback_id: ids.views.working,
    title: modalTitle(o.kind === 'reset' ? 'Password reset' : 'People'),
    close: viewButton('Done'),
    blocks: [section(outcomeText(o))],
  };
}

/** An outcome as a private message (`/conference password`, a Home click's DM). */
export function buildPeopleOutcomeMessage(o: PeopleOutcome): TextMessage {
  return textMessage(outcomeText(o));
}
