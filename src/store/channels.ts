import { type Db, iso } from './db.js';
import { deleteSetting, getSetting, setSettingOnce } from './settings.js';

/**
 * Channels the bot cannot post in any more ("gone"): their ticket events are parked until it is
 * invited back; and the dead letters whose subscribers were already told, per channel and reason.
 */
export interface ChannelRepository {
  /** Marks a channel gone, keeping Slack's reason; answers whether this call marked it (tell people once). */
  markGone(channel: string, reason: string): Promise<boolean>;
  isGone(channel: string): Promise<boolean>;
  /**
   * The bot is back in a channel: when it was gone, forgets that and puts its parked items back to
   * pending, in one transaction. Answers how many came back, or undefined when it was not gone.
   */
  backInChannel(channel: string): Promise<number | undefined>;
  /** Answers whether this call is the first to report this dead-letter reason in this channel. */
  markDeadLetterTold(channel: string, reason: string): Promise<boolean>;
}

const gone = 'gone-channel';
const deadTold = 'dead-letter-told';

export const channelRepository = (c: Db): ChannelRepository => {
  // Parked items of a channel go back to pending (the bot is back in it); answers how many.
  const unpark = async (db: Db['db'], channel: string) => {
    const r = await db
      .updateTable('outbox')
      .set({ status: 'pending', available_at: iso(c.now()) })
      .where('channel', '=', channel)
      .where('status', '=', 'parked')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  };
  return {
    markGone: (channel, reason) => setSettingOnce(c, gone, channel, reason),
    isGone: async (channel) => (await getSetting(c, gone, channel)) !== undefined,
    backInChannel: (channel) =>
      c.db.transaction().execute(async (tx) => {
        if (!(await deleteSetting({ ...c, db: tx }, gone, channel))) return undefined;
        return unpark(tx, channel);
      }),
    markDeadLetterTold: (channel, reason) =>
      setSettingOnce(c, deadTold, `${channel}:${reason}`, iso(c.now())),
  };
};
