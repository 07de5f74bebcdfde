/*
 * The enterprise's people and groups as the admin screens show them, and the pure rules of
 * those screens: search, pages, what a person still owns. No I/O: the service reads the platform.
 */

/** The fields the spec lets an update change (spec 4.2, PUT /api/v3/users), as the edit form holds them. */
export interface PersonUpdate {
  firstName?: string | undefined;
  lastName?: string | undefined;
  avatar?: string | undefined;
  phoneNumber?: string | undefined;
  jobTitle?: string | undefined;
  audioOnly?: number | undefined;
  clickToChat?: number | undefined;
  maxOngoingChat?: number | undefined;
}

/** A user of the enterprise, as the platform describes them (field names tolerated by the service). */
export interface PlatformPerson {
  id: string;
  username: string | undefined;
  email: string | undefined;
  cellPhone: string | undefined;
  firstName: string | undefined;
  lastName: string | undefined;
  role: string | undefined;
  /** Their groups, named when the group list names them. */
  groups: { id: string; name: string | undefined }[];
  /** The update fields the platform reports back (it may report none). */
  details: PersonUpdate;
}

/** What the create form sends: the password travels to the platform once and is never kept. */
export interface NewPerson {
  username: string;
  password: string;
  email?: string | undefined;
  cellPhone?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** A group of the enterprise. */
export interface GroupSummary {
  id: string;
  name: string | undefined;
  memberCount: number | undefined;
}

/** People per page of the browser: 20 rows, well within a modal's 100 blocks. */
export const peoplePageSize = 20;
/** Members per page of a group's member list. */
export const membersPageSize = 40;
/** Groups shown in the Groups browser (each takes one block). */
export const groupsShown = 90;

/** A page of people: the rows, where it starts, how many matched in all, and the search that made it. */
export interface PeoplePage {
  items: PlatformPerson[];
  offset: number;
  total: number;
  search: string;
}

/** A person's name as a line: "First Last", else their login, else their id. */
export function personName(p: Pick<PlatformPerson, 'firstName' | 'lastName' | 'username' | 'id'>): string {
  const full = [p.firstName, p.lastName].filter((x) => x?.trim()).join(' ');
  return full || p.username || `user ${p.id}`;
}

/**
 * Whether a person matches the search: every word is found (case-insensitively) in their first name,
 * last name, e-mail or login. An empty search matches everyone.
 */
export function matchesSearch(p: PlatformPerson, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const hay = [p.firstName, p.lastName, p.email, p.username]
    .filter((x): x is string => !!x)
    .map((x) => x.toLowerCase());
  return words.every((w) => hay.some((h) => h.includes(w)));
}

/** The page of `people` the browser shows for a search and an offset (clamped to the last page). */
export function pageOfPeople(
  people: readonly PlatformPerson[],
  search: string,
  offset: number,
  size: number = peoplePageSize,
): PeoplePage {
  const found = people.filter((p) => matchesSearch(p, search));
  const last = found.length ? Math.floor((found.length - 1) / size) * size : 0;
  const start = Math.max(0, Math.min(offset, last));
  return { items: found.slice(start, start + size), offset: start, total: found.length, search };
}

/** A count read from a capped walk: `atLeast` when the walk stopped before the end. */
export interface Count {
  count: number;
  atLeast: boolean;
}

/** What a person still owns on the platform, said before they are deleted. */
export interface Holdings {
  openTickets: Count;
  upcomingConferences: Count;
}

/** Ticket states after which a ticket needs no one (spec 3): the rest are open. */
const finishedStates = new Set(['done', 'closed', 'rejected', 'declined', 'expired', 'cancelled']);

/** Whether a ticket in this state still needs its agent (an unknown state counts as open). */
export const isOpenTicketState = (state: string | undefined): boolean =>
  !finishedStates.has((state ?? '').toLowerCase());

/** Whether the login a person typed is their own (their platform login or e-mail, any case). */
export function isOwnLogin(login: string, own: { username?: string | undefined; email: string }): boolean {
  const l = login.trim().toLowerCase();
  return l === own.email.toLowerCase() || (!!own.username && l === own.username.toLowerCase());
}
