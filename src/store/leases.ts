import { type Db, iso } from './db.js';

/** Named leases: one replica at a time runs a singleton job (the poller, the digest job). */
export interface LeaseRepository {
  /**
   * Takes or renews the named lease for `ms` when it is free, expired or already `owner`'s: one
   * replica at a time runs a singleton job. Answers whether `owner` holds it now.
   */
  acquireLease(name: string, owner: string, ms: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;
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
});
