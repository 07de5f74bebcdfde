import { buildIndex, type DirectoryEntry, type DirectoryIndex, search } from '../domain/directory-index.js';
import type { PlatformClient } from '../platform/client.js';
import { runInLane } from '../platform/lane.js';
import type { UserRecord } from '../platform/schemas.js';

/** A platform user as the pickers know them. */
export interface DirectoryUser extends DirectoryEntry {
  username: string | undefined;
  email: string | undefined;
  role: string | undefined;
  /** Ids of their user groups ("agents of a group" without one members request per group). */
  groupIds: readonly string[];
}

/** A user group of the enterprise. */
export type DirectoryGroup = DirectoryEntry;

/** One load of the directory: both lists indexed, and when it was read. */
export interface DirectorySnapshot {
  users: DirectoryIndex<DirectoryUser>;
  groups: DirectoryIndex<DirectoryGroup>;
  byId: ReadonlyMap<string, DirectoryUser>;
  groupById: ReadonlyMap<string, DirectoryGroup>;
  loadedAt: number;
}

/** Users are read this many to a page: 2,000 people cost 4 pages, not 20 (the client learns a lower cap). */
export const directoryPageSize = 500;

/**
 * Platform requests one refresh costs at most for `users` people: the user pages (the last one,
 * short or empty, tells the end), the groups, and `/users/me` (the enterprise id) when the client's
 * 5-minute cache of it has expired. 2,000 people: 5 + 1 + 1 = 7.
 */
export const directoryRefreshCost = (users: number): number =>
  Math.floor(users / directoryPageSize) + 1 + 1 + 1;

/** "First Last (login)", or what there is of it. */
export function personLabel(u: Pick<UserRecord, 'id' | 'first_name' | 'last_name' | 'username'>): string {
  const name = [u.first_name, u.last_name].filter(Boolean).join(' ');
  if (name && u.username) return `${name} (${u.username})`;
  return name || u.username || `user ${u.id}`;
}

const groupIdsOf = (u: UserRecord): string[] =>
  (u.groups ?? []).map((g) => String(typeof g === 'object' && g !== null ? (g as { id?: unknown }).id : g));

/**
 * The enterprise's people and groups, read in the background lane and kept in memory for the
 * type-ahead pickers, which must answer within Slack's 3 s at every keystroke and cannot spend the
 * ~10 platform requests a minute on each. A job refreshes it (`jobs/starters.ts`); `invalidate()` asks
 * for a refresh soon after the bot itself changes a user; a picker asked before the first load
 * answers with nothing yet and starts it.
 */
export class Directory {
  private current: DirectorySnapshot | undefined;
  private loading: Promise<DirectorySnapshot> | undefined;
  private onStale: (() => void) | undefined;

  constructor(
    private readonly platform: PlatformClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last load, if any (never waits). */
  snapshot(): DirectorySnapshot | undefined {
    return this.current;
  }

  /**
   * Reads the users (paged) and the groups, in the backfill lane whoever asks: a person's reserve
   * of the rate budget is not spent on a list, nor a scan's turn. One load at a time; a second caller shares it.
   */
  refresh(): Promise<DirectorySnapshot> {
    this.loading ??= runInLane('backfill', () => this.load()).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /**
   * The directory, waiting at most `waitMs` for a first load (which starts if none has): the options
   * handler answers from what there is rather than miss Slack's 3 s.
   */
  async within(waitMs: number): Promise<DirectorySnapshot | undefined> {
    if (this.current) return this.current;
    const load = this.refresh();
    load.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), waitMs);
    });
    try {
      return await Promise.race([load.catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The bot changed a user (create, update, delete): the next refresh comes soon instead of at the
   * job's next tick (the job's runner spaces such triggers). Without a job, the next load is a refresh.
   */
  invalidate(): void {
    if (this.onStale) this.onStale();
    else void this.refresh().catch(() => undefined);
  }

  /** What `invalidate` calls (the refresh job's trigger, set when the jobs start). */
  whenStale(trigger: () => void): void {
    this.onStale = trigger;
  }

  /** People matching `query` (first name, last name, e-mail, login), best first, at most `limit`. */
  searchUsers(
    query: string,
    limit: number,
    keep?: (u: DirectoryUser) => boolean,
  ): { users: DirectoryUser[]; loaded: boolean } {
    const s = this.current;
    return { users: s ? search(s.users, query, limit, keep) : [], loaded: !!s };
  }

  /** Groups whose name matches `query`, best first, at most `limit`. */
  searchGroups(
    query: string,
    limit: number,
    keep?: (g: DirectoryGroup) => boolean,
  ): { groups: DirectoryGroup[]; loaded: boolean } {
    const s = this.current;
    return { groups: s ? search(s.groups, query, limit, keep) : [], loaded: !!s };
  }

  /** A known user by platform id (a picker's prefilled value, an identity's record). */
  user(id: string): DirectoryUser | undefined {
    return this.current?.byId.get(id);
  }

  /** A known user by login (case-insensitive). */
  userByLogin(login: string): DirectoryUser | undefined {
    const wanted = login.toLowerCase();
    for (const u of this.current?.byId.values() ?? []) if (u.username?.toLowerCase() === wanted) return u;
    return undefined;
  }

  /** A known group by id. */
  group(id: string): DirectoryGroup | undefined {
    return this.current?.groupById.get(id);
  }

  private async load(): Promise<DirectorySnapshot> {
    const me = await this.platform.getMe();
    const users: DirectoryUser[] = [];
    for await (const u of this.platform.paginate(
      'listEnterpriseUsers',
      { enterpriseId: me.enterprise_id },
      { fresh: true, pageSize: directoryPageSize },
    ))
      users.push({
        id: String(u.id),
        label: personLabel(u),
        fields: [u.first_name, u.last_name, u.email, u.username],
        username: u.username,
        email: u.email,
        role: u.role,
        groupIds: groupIdsOf(u),
      });
    const groups: DirectoryGroup[] = (
      await this.platform.listGroups({ enterpriseId: me.enterprise_id }, { fresh: true })
    ).items.map((g) => {
      const name = g.name ?? `group ${g.id}`;
      return { id: String(g.id), label: name, fields: [name] };
    });
    this.current = {
      users: buildIndex(users),
      groups: buildIndex(groups),
      byId: new Map(users.map((u) => [u.id, u])),
      groupById: new Map(groups.map((g) => [g.id, g])),
      loadedAt: this.now(),
    };
    return this.current;
  }
}
