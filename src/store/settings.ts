import type { Db } from './db.js';

/**
 * The `settings` table is a small key-value store under scopes; each scope is read and written
 * through a named method of its repository (`channels.ts`, `digests.ts`, `statistics.ts`, and the
 * webhook's below), never by a bare scope string from outside `store/`.
 */
export interface SettingsRepository {
  /** Records when the webhook receiver last accepted a delivery, for a separate doctor process. */
  noteWebhookDelivery(at: Date): Promise<void>;
  /**
   * Records that Slack refuses the bot's token (the jobs are paused), or clears it: a separate doctor
   * process reads it (`inspect.ts`).
   */
  noteSlackRefusal(refusal: { code: string; since: Date } | undefined): Promise<void>;
  /**
   * Records a Slack event by its `event_id` (Slack's retries carry the same one): true the first
   * time, false for a delivery already recorded, on any replica. Records older than an hour (Slack
   * retries within minutes) are dropped as new ones come.
   */
  firstDelivery(eventId: string, at: Date): Promise<boolean>;
  /**
   * What the platform client of one platform account keeps across a restart (its `PlatformMemory`):
   * `grants`, the rate budget's (what the previous process spent in the platform's current window),
   * and `reads`, its cached reads (the bot's profile, the groups, the enterprise's people), each entry
   * with its expiry. An empty list when nothing was kept.
   */
  recallPlatformMemory(account: string, part: PlatformMemoryPart): Promise<unknown[]>;
  keepPlatformMemory(account: string, part: PlatformMemoryPart, items: readonly unknown[]): Promise<void>;
}

/** The two parts of a platform client's memory (`recallPlatformMemory`). */
export type PlatformMemoryPart = 'grants' | 'reads';
/** Where each part is kept, by account: a JSON array (epoch ms; cache entries). */
const platformMemoryScope: Record<PlatformMemoryPart, string> = {
  grants: 'platform-grants',
  reads: 'platform-reads',
};

/** Slack events already taken, by `event_id` (`firstDelivery`): the value is when. */
const slackEventScope = 'slack-event';
/** How long an event id is remembered: Slack's last retry comes about 5 minutes after the first. */
const slackEventKeptMs = 60 * 60_000;

/** Where Slack's refusal of the bot's token is kept while the jobs are paused (`inspect.ts` reads it). */
export const slackRefusalSetting = { scope: 'slack', key: 'token-refused' } as const;

/** Where the webhook receiver's last accepted delivery is kept (`inspect.ts` reads it). */
export const lastWebhookSetting = { scope: 'webhooks', key: 'last-delivery' } as const;

export async function getSetting({ db }: Db, scope: string, key: string): Promise<string | undefined> {
  const r = await db
    .selectFrom('settings')
    .select('value')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  return r?.value;
}

export async function setSetting({ db }: Db, scope: string, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ scope, key, value })
    .onConflict((oc) => oc.columns(['scope', 'key']).doUpdateSet({ value }))
    .execute();
}

/** Sets a setting only if it is absent; answers whether this call set it (once across replicas). */
export async function setSettingOnce(
  { db }: Db,
  scope: string,
  key: string,
  value: string,
): Promise<boolean> {
  const r = await db
    .insertInto('settings')
    .values({ scope, key, value })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes a setting; answers whether there was one. */
export async function deleteSetting({ db }: Db, scope: string, key: string): Promise<boolean> {
  const r = await db
    .deleteFrom('settings')
    .where('scope', '=', scope)
    .where('key', '=', key)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export const settingsRepository = (c: Db): SettingsRepository => ({
  firstDelivery: async (eventId, at) => {
    const first = await setSettingOnce(c, slackEventScope, eventId, at.toISOString());
    // ISO times in UTC compare as text.
    if (first)
      await c.db
        .deleteFrom('settings')
        .where('scope', '=', slackEventScope)
        .where('value', '<', new Date(at.getTime() - slackEventKeptMs).toISOString())
        .execute();
    return first;
  },
  recallPlatformMemory: async (account, part) => {
    const value = await getSetting(c, platformMemoryScope[part], account);
    const parsed: unknown = value ? JSON.parse(value) : [];
    return Array.isArray(parsed) ? parsed : [];
  },
  keepPlatformMemory: (account, part, items) =>
    setSetting(c, platformMemoryScope[part], account, JSON.stringify(items)),
  noteWebhookDelivery: (at) =>
    setSetting(c, lastWebhookSetting.scope, lastWebhookSetting.key, at.toISOString()),
  noteSlackRefusal: async (refusal) => {
    const { scope, key } = slackRefusalSetting;
    if (refusal)
      await setSetting(
        c,
        scope,
        key,
        JSON.stringify({ code: refusal.code, since: refusal.since.toISOString() }),
      );
    else await deleteSetting(c, scope, key);
  },
});
