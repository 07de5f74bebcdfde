import { type Db, iso } from './db.js';

/** Named leases: one replica at a time runs a singleton job (the poller, the digest job). */
export interface LeaseRepository {
  /**
   * Takes or renews the named lease for `ms` when it is free, expired or already `owner`'s: one
   * replica at a time runs a singleton job. Answers whether `owner` holds it now.
   */
  acquireLease(name: string, owner: string, ms: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;
  /** The leases named `prefix…` that have not run out: who holds what (the replicas' shares of the workspaces). */
  liveLeases(prefix: string): Promise<{ name: string; owner: string; until: Date }[]>;
  /**
   * Renews for `ms` those of `names` that `owner` still holds (run out or not, as long as no one took
   * them meanwhile), in one statement however many; answers their names.
   */
  renewLeases(names: string[], owner: string, ms: number): Promise<string[]>;
}

export const leaseRepository = ({ db, now }: Db): LeaseRepository => ({
  async acquireLease(name, owner, ms) {
    const at = iso(now());
    const until = iso(new Date(now().getTime() + ms));
    const r = await db
      .insertInto('leases')
      .values({ name, owner, until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, until })
          .where((eb) => eb.or([eb('leases.owner', '=', owner), eb('leases.until', '<', at)])),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  async releaseLease(name, owner) {
    await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
  },

  async liveLeases(prefix) {
    const rows = await db
      .selectFrom('leases')
      .select(['name', 'owner', 'until'])
      // No escape clause that both backends read alike: prefixes are plain (no `%` nor `_`).
      .where('name', 'like', `${prefix}%`)
      .where('until', '>=', iso(now()))
      .execute();
    return rows.map((r) => ({ name: r.name, owner: r.owner, until: new Date(r.until) }));
  },

  async renewLeases(names, owner, ms) {
    const until = iso(new Date(now().getTime() + ms));
    const renewed: string[] = [];
    // In chunks: SQLite bounds a statement's parameters.
    for (let i = 0; i < names.length; i += 500) {
      const rows = await db
        .updateTable('leases')
        .set({ until })
        .where('owner', '=', owner)
        .where('name', 'in', names.slice(i, i + 500))
        .returning('name')
        .execute();
      renewed.push(...rows.map((r) => r.name));
    }
    return renewed;
  },
});
