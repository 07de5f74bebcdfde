import type { Db } from './db.js';

/** What is known of a ticket without asking the platform. */
export interface KnownTicket {
  /** Its latest record (JSON as the platform client parsed it, dates as ISO strings). */
  record: Record<string, unknown> | undefined;
  /** That record's `modified` (ISO). */
  recordModified: string | undefined;
  /** The time (ISO) of the newest timeline event a webhook told. */
  pushedAt: string | undefined;
}

/**
 * Tickets as last known (`ticket_records`): the record a card is rendered from when a webhook says
 * only the state, and how far the webhooks told a ticket's timeline (a scan then need not read it).
 */
export interface TicketRecordRepository {
  knownTicket(ticketId: string): Promise<KnownTicket>;
  /**
   * Keeps a ticket's record unless an older one than the kept one (by `modified`: a card never
   * goes back); answers whether it was kept.
   */
  keepRecord(ticketId: string, record: Record<string, unknown>, modified: string): Promise<boolean>;
  /** Those of these tickets whose record is not kept yet. */
  recordsMissing(ticketIds: string[]): Promise<string[]>;
}

/**
 * Keeps a ticket's record as its cards' version, unless it is older than the one kept (a card never
 * goes back): a webhook that brings the same change a moment later then finds nothing newer to show.
 * Answers whether it was kept. The one writer of `keepRecord` (the publisher, the scans, the webhooks).
 */
export async function keepTicketRecord(
  store: Pick<TicketRecordRepository, 'keepRecord'>,
  record: { id: string | number; modified?: Date | undefined } | undefined,
): Promise<boolean> {
  const modified = record?.modified;
  if (!record || !modified || Number.isNaN(modified.getTime())) return false;
  return store.keepRecord(String(record.id), record as Record<string, unknown>, modified.toISOString());
}

export const ticketRecordRepository = ({ db }: Db): TicketRecordRepository => ({
  async knownTicket(ticketId) {
    const r = await db
      .selectFrom('ticket_records')
      .selectAll()
      .where('ticket_id', '=', ticketId)
      .executeTakeFirst();
    return {
      record: r?.record ? (JSON.parse(r.record) as Record<string, unknown>) : undefined,
      recordModified: r?.record_modified ?? undefined,
      pushedAt: r?.pushed_at ?? undefined,
    };
  },

  async keepRecord(ticketId, record, modified) {
    const values = { record: JSON.stringify(record), record_modified: modified };
    const r = await db
      .insertInto('ticket_records')
      .values({ ticket_id: ticketId, pushed_at: null, ...values })
      .onConflict((oc) =>
        oc
          .column('ticket_id')
          .doUpdateSet(values)
          .where((eb) =>
            eb.or([
              eb('ticket_records.record_modified', 'is', null),
              eb('ticket_records.record_modified', '<=', modified),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  async recordsMissing(ticketIds) {
    const kept = new Set<string>();
    for (let i = 0; i < ticketIds.length; i += 500) {
      const rows = await db
        .selectFrom('ticket_records')
        .select('ticket_id')
        .where('ticket_id', 'in', ticketIds.slice(i, i + 500))
        .where('record', 'is not', null)
        .execute();
      for (const r of rows) kept.add(r.ticket_id);
    }
    return ticketIds.filter((id) => !kept.has(id));
  },
});

/**
 * Notes that a webhook told the ticket's events up to `at` (ISO); the latest is kept. Written with
 * the events it told (`advance`'s `pushedAt`), in their transaction.
 */
export async function notePushed(db: Db['db'], ticketId: string, at: string): Promise<void> {
  await db
    .insertInto('ticket_records')
    .values({ ticket_id: ticketId, record: null, record_modified: null, pushed_at: at })
    .onConflict((oc) =>
      oc
        .column('ticket_id')
        .doUpdateSet({ pushed_at: at })
        .where((eb) =>
          eb.or([eb('ticket_records.pushed_at', 'is', null), eb('ticket_records.pushed_at', '<', at)]),
        ),
    )
    .execute();
}
