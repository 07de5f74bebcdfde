import { phrase } from '../blocks/text.js';
import {
  type Count,
  type GroupSummary,
  type Holdings,
  isOpenTicketState,
  isOwnLogin,
  membersPageSize,
  type NewPerson,
  type PeoplePage,
  type PersonUpdate,
  type PlatformPerson,
  pageOfPeople,
} from '../domain/people.js';
import type { PlatformClient } from '../platform/client.js';
import { PlatformHttpError, PlatformInputError } from '../platform/errors.js';
import type { UserRecord } from '../platform/schemas.js';
import type { AccessService } from './access.js';
import { ConfdeskError } from './errors.js';

/**
 * Users asked per request: the spec shows no paging for the users list, so a platform may answer all
 * of them at once; asking 1,000 keeps a 2,000-user enterprise at two requests (not twenty) a minute.
 */
export const usersPageSize = 1_000;

/** Tickets and conferences read to tell what a person owns: one page each, so at most two requests. */
export const holdingsWalkLimit = 100;

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : undefined;
const int = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};
/** A group reference in a user record: an id, or an object with one (tolerated: not shown by the spec). */
const groupIdOf = (g: unknown): string | undefined =>
  typeof g === 'object' && g !== null ? str((g as { id?: unknown }).id) : str(g);

/** The create input's wire names, back to the form's names (a refusal names the wire name). */
const fieldNames: Record<string, keyof NewPerson> = { cell_phone: 'cellPhone' };

/**
 * The parameter an error body names, if any: `field` or `parameter`, or "Parameter x" in its text
 * (the spec shows no error shape: tolerated).
 */
function fieldOfBody(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  for (const k of ['field', 'parameter', 'param']) if (typeof b[k] === 'string') return b[k] as string;
  for (const k of ['details', 'message', 'error']) {
    const m = typeof b[k] === 'string' ? /\bParameter (\w+)/i.exec(b[k] as string) : null;
    if (m) return m[1];
  }
  return undefined;
}

/**
 * A platform refusal of a write, as a sentence without the password in it: a platform that echoes
 * its input in an error ("password 'x' is too short") must not get it into Slack or the log.
 */
function refusal(error: unknown, secret: string | undefined): unknown {
  const scrub = (s: string) => (secret ? s.split(secret).join('[redacted]') : s);
  if (error instanceof PlatformInputError)
    return new ConfdeskError(
      'user_refused',
      phrase('people.error.refusedField', { field: error.field, problem: scrub(error.problem) }),
      fieldNames[error.field] ?? error.field,
    );
  if (
    error instanceof PlatformHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429
  ) {
    const wire = fieldOfBody(error.body);
    const field = wire === undefined ? undefined : (fieldNames[wire] ?? wire);
    return new ConfdeskError(
      'user_refused',
      phrase('people.error.refused', { detail: scrub(error.detail ?? error.label) }),
      field,
    );
  }
  // Unexpected failures are logged by the surface: their text must not carry the secret either.
  if (secret && error instanceof Error && error.message.includes(secret))
    return new Error(scrub(error.message));
  return error;
}

/**
 * People and groups of the enterprise for the admin screens, and password resets. Every
 * method asks the policy first with the person's own platform account. The users list is read
 * through the platform client's cache (tag `users`, invalidated by the writes), so paging and
 * searching the browser costs no new request within the cache's minute.
 */
export class PeopleService {
  constructor(
    private readonly platform: PlatformClient,
    private readonly access: AccessService,
    private readonly now: () => Date = () => new Date(),
    /** Told after each create, edit and delete (the type-ahead directory reloads soon). */
    private readonly changed: () => void = () => undefined,
  ) {}

  private async enterpriseId(): Promise<number> {
    return (await this.platform.getMe()).enterprise_id;
  }

  private async groupNames(enterpriseId: number): Promise<Map<string, string | undefined>> {
    const names = new Map<string, string | undefined>();
    for await (const g of this.platform.paginate('listGroups', { enterpriseId }))
      names.set(String(g.id), g.name ?? undefined);
    return names;
  }

  private toPerson(u: UserRecord, groups: Map<string, string | undefined>): PlatformPerson {
    const r = u as Record<string, unknown>;
    return {
      id: String(u.id),
      username: u.username ?? undefined,
      email: u.email ?? undefined,
      cellPhone: u.cell_phone ?? undefined,
      firstName: u.first_name ?? str(r.firstName),
      lastName: u.last_name ?? str(r.lastName),
      role: u.role ?? undefined,
      groups: (u.groups ?? [])
        .map(groupIdOf)
        .filter((id): id is string => id !== undefined)
        .map((id) => ({ id, name: groups.get(id) })),
      details: {
        avatar: str(r.avatar),
        phoneNumber: str(r.phoneNumber ?? r.phone_number),
        jobTitle: str(r.jobTitle ?? r.job_title),
        audioOnly: int(r.audioOnly ?? r.audio_only),
        clickToChat: int(r.clickToChat ?? r.click_to_chat),
        maxOngoingChat: int(r.maxOngoingChat ?? r.max_ongoing_chat),
      },
    };
  }

  /** Every user of the enterprise (cached pages), with their groups named. */
  private async everyone(): Promise<PlatformPerson[]> {
    const enterpriseId = await this.enterpriseId();
    const [groups, users] = await Promise.all([
      this.groupNames(enterpriseId),
      (async () => {
        const out: UserRecord[] = [];
        for await (const u of this.platform.paginate(
          'listEnterpriseUsers',
          { enterpriseId },
          { pageSize: usersPageSize },
        ))
          out.push(u);
        return out;
      })(),
    ]);
    return users.map((u) => this.toPerson(u, groups));
  }

  private async find(userId: string): Promise<PlatformPerson> {
    const person = (await this.everyone()).find((p) => p.id === userId);
    if (!person) throw new ConfdeskError('no_such_user', phrase('people.error.noSuchUser', { id: userId }));
    return person;
  }

  /** A page of the enterprise's users matching `search` (first name, last name, e-mail, login). */
  async list(slackId: string, q: { search: string; offset: number }): Promise<PeoplePage> {
    await this.access.require(slackId, 'people.list');
    return pageOfPeople(await this.everyone(), q.search, q.offset);
  }

  /** One user, for the detail view. */
  async see(slackId: string, userId: string): Promise<PlatformPerson> {
    await this.access.require(slackId, 'people.see');
    return this.find(userId);
  }

  /** One user, for the edit form (asked as an edit, so a plain user is refused before the form). */
  async forEdit(slackId: string, userId: string): Promise<PlatformPerson> {
    await this.access.require(slackId, 'people.edit');
    return this.find(userId);
  }

  /** Checks that the person may create users (before the form opens). */
  async mayCreate(slackId: string): Promise<void> {
    await this.access.require(slackId, 'people.create');
  }

  /**
   * Creates a user. The password goes to the platform in this one request and nowhere else: it is not
   * returned, not logged, and a refusal that quotes it is told without it.
   */
  async create(slackId: string, input: NewPerson): Promise<{ id: string; username: string }> {
    await this.access.require(slackId, 'people.create');
    try {
      const answer = await this.platform.createUser({
        username: input.username,
        password: input.password,
        ...(input.email ? { email: input.email } : {}),
        ...(input.cellPhone ? { cellPhone: input.cellPhone } : {}),
        ...(input.firstName ? { firstName: input.firstName } : {}),
        ...(input.lastName ? { lastName: input.lastName } : {}),
      });
      this.changed();
      return { id: String(answer.id), username: input.username };
    } catch (error) {
      throw refusal(error, input.password);
    }
  }

  /** Changes the update fields given (undefined ones are left as they are); answers the user after. */
  async update(slackId: string, userId: string, fields: PersonUpdate): Promise<PlatformPerson> {
    await this.access.require(slackId, 'people.edit');
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    try {
      await this.platform.updateUser({ userId: Number(userId), ...given });
      this.changed();
    } catch (error) {
      throw refusal(error, undefined);
    }
    return this.find(userId);
  }

  /**
   * The user and what they still own: their open tickets (as agent) and their upcoming conferences
   * (as moderator), each from one page of at most `holdingsWalkLimit`; a full page says "at least".
   */
  async forDelete(slackId: string, userId: string): Promise<{ person: PlatformPerson; holdings: Holdings }> {
    await this.access.require(slackId, 'people.delete');
    const person = await this.find(userId);
    const limit = holdingsWalkLimit;
    const [tickets, conferences] = await Promise.all([
      this.platform.listTickets({ user: userId, limit }),
      this.platform.listConferences({ moderator: userId, since: this.now(), limit }),
    ]);
    const count = (
      items: readonly unknown[],
      matching: number,
      page: { nextOffset?: number | undefined; total?: number | undefined },
    ): Count => {
      const more = page.nextOffset !== undefined || (page.total ?? 0) > items.length || items.length >= limit;
      return { count: matching, atLeast: more };
    };
    const open = tickets.items.filter((t) => {
      const agent = t.agent;
      const agentId = typeof agent === 'object' && agent !== null ? str(agent.id) : str(agent);
      return isOpenTicketState(t.state ?? undefined) && (agentId === undefined || agentId === userId);
    });
    const upcoming = conferences.items.filter((c) => {
      const m = (c as Record<string, unknown>).moderator;
      const id = typeof m === 'object' && m !== null ? str((m as { id?: unknown }).id) : str(m);
      return id === undefined || id === userId;
    });
    return {
      person,
      holdings: {
        openTickets: count(tickets.items, open.length, tickets),
        upcomingConferences: count(conferences.items, upcoming.length, conferences),
      },
    };
  }

  /** Deletes a user; answers who it was. */
  async remove(slackId: string, userId: string): Promise<PlatformPerson> {
    const account = await this.access.require(slackId, 'people.delete');
    const person = await this.find(userId);
    if (person.id === account.id) throw new ConfdeskError('delete_self', phrase('people.error.deleteSelf'));
    try {
      await this.platform.deleteUser({ userId: Number(userId) });
      this.changed();
    } catch (error) {
      throw refusal(error, undefined);
    }
    return person;
  }

  /** The enterprise's groups, with their member counts when the platform gives them. */
  async groups(slackId: string): Promise<GroupSummary[]> {
    await this.access.require(slackId, 'groups.list');
    const enterpriseId = await this.enterpriseId();
    const out: GroupSummary[] = [];
    for await (const g of this.platform.paginate('listGroups', { enterpriseId })) {
      const r = g as Record<string, unknown>;
      out.push({
        id: String(g.id),
        name: g.name ?? undefined,
        memberCount: int(r.member_count ?? r.memberCount),
      });
    }
    return out;
  }

  /** A page of one group's members. */
  async members(
    slackId: string,
    groupId: string,
    offset: number,
  ): Promise<{ group: GroupSummary; page: PeoplePage }> {
    await this.access.require(slackId, 'groups.list');
    const enterpriseId = await this.enterpriseId();
    const names = await this.groupNames(enterpriseId);
    if (!names.has(groupId))
      throw new ConfdeskError('no_such_group', phrase('people.error.noSuchGroup', { id: groupId }));
    const members: PlatformPerson[] = [];
    for await (const u of this.platform.paginate('listGroupMembers', {
      enterpriseId,
      groupId: Number(groupId),
    }))
      members.push(this.toPerson(u, names));
    return {
      group: { id: groupId, name: names.get(groupId), memberCount: members.length },
      page: pageOfPeople(members, '', offset, membersPageSize),
    };
  }

  /**
   * Sends the platform's password reset e-mail. Without `login`, or with the person's own login
   * (platform login or e-mail), for themselves (any account); for anyone else's login, admins only,
   * and only for a user of the enterprise. The endpoint needs no token, so this check is the only one.
   */
  async resetPassword(slackId: string, login?: string): Promise<{ login: string; own: boolean }> {
    const asker = await this.access.asker(slackId);
    const account = asker.account;
    if (login === undefined || (account && isOwnLogin(login, account))) {
      this.access.check(asker, 'password.reset-own');
      const own =
        (account as NonNullable<typeof account>).username ?? (account as NonNullable<typeof account>).email;
      await this.platform.resetPassword({ login: own });
      return { login: own, own: true };
    }
    this.access.check(asker, 'password.reset-any');
    const wanted = login.trim().toLowerCase();
    const person = (await this.everyone()).find(
      (p) => p.username?.toLowerCase() === wanted || p.email?.toLowerCase() === wanted,
    );
    if (!person) throw new ConfdeskError('no_such_login', phrase('people.error.noSuchLogin', { login }));
    const target = person.username ?? person.email ?? login;
    await this.platform.resetPassword({ login: target });
    return { login: target, own: false };
  }

  /** Sends the reset e-mail to a user picked in the People browser (admins). */
  async resetFor(slackId: string, userId: string): Promise<{ login: string; own: boolean }> {
    await this.access.require(slackId, 'password.reset-any');
    const person = await this.find(userId);
    const login = person.username ?? person.email;
    if (!login) throw new ConfdeskError('no_login', phrase('people.error.noLogin'));
    await this.platform.resetPassword({ login });
    return { login, own: false };
  }
}
