import pg from 'pg';
import type { Logger } from '../../observability/logger.js';
import type { Wake } from './wakes.js';

/** A write on one replica that gives another replica's jobs work: which workspace, which job, when. */
export interface ForeignWake extends Wake {
  team: string;
}

/**
 * The replicas' wake channel on PostgreSQL (LISTEN/NOTIFY, one connection of its own per replica):
 * a webhook or a person's line written by a replica that does not run the workspace's jobs wakes
 * the replica that does, at once, instead of at its idle delivery heartbeat. A notice lost (the
 * connection down meanwhile) costs only that wait: the heartbeat still finds the work.
 */
export class WakeChannel {
  private client: pg.Client | undefined;
  /** The connection last opened: an older one's end is old news. */
  private latest: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly channel: string;

  constructor(
    private readonly o: {
      databaseUrl: string;
      /** The process store's schema: replicas of another installation on the server are not told. */
      schema: string | undefined;
      logger: Logger;
      onWake: (wake: ForeignWake) => void;
    },
  ) {
    this.channel = `confdesk_wakes_${o.schema ?? 'public'}`.slice(0, 63);
  }

  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.o.databaseUrl });
    this.latest = client;
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      try {
        const w = JSON.parse(n.payload) as ForeignWake;
        if (typeof w.team === 'string' && (w.job === 'deliver' || w.job === 'poll' || w.job === 'digest'))
          this.o.onWake({ team: w.team, job: w.job, ...(typeof w.at === 'number' ? { at: w.at } : {}) });
      } catch {
        // Not ours (a notice on the same channel by hand): ignored.
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
      this.client = client;
    } catch (error) {
      this.lost(client, error);
    }
  }

  /** Tells the replicas (this one too: it ignores a workspace whose jobs do not run here). */
  tell(wake: ForeignWake): void {
    const client = this.client;
    if (!client) return;
    client
      .query('select pg_notify($1, $2)', [this.channel, JSON.stringify(wake)])
      .catch((error: unknown) =>
        this.o.logger.debug({ err: error }, 'could not tell the replicas of a write'),
      );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The connection went: opened again in a second (meanwhile the heartbeats find the work). */
  private lost(client: pg.Client, error?: unknown): void {
    if (this.client === client) this.client = undefined;
    if (this.latest !== client) return;
    this.latest = undefined;
    void client.end().catch(() => undefined);
    if (this.closed || this.retry) return;
    if (error) this.o.logger.warn({ err: error }, 'the replicas’ wake channel closed: opened again in 1 s');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.open();
    }, 1_000);
    this.retry.unref();
  }
}
