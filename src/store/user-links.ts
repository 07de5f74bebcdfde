import type { Db } from './db.js';

/** A Slack person linked by hand to a platform account (when their e-mails differ). */
export interface UserLink {
  /** The Slack workspace the link was made in. */
  team: string;
  slackUserId: string;
  platformUserId: string;
  /** The admin who made it (a Slack user id). */
  linkedBy: string;
  linkedAt: Date;
}

/** The links admins make between Slack people and platform accounts whose e-mails differ. */
export interface UserLinkRepository {
  /**
   * The link of a Slack person, if any (the latest, should the same id be linked from two workspaces
   * of a Grid).
   */
  userLink(slackUserId: string): Promise<UserLink | undefined>;
  /** Links a Slack person in a workspace to a platform account, replacing their earlier link. */
  linkUser(link: UserLink): Promise<void>;
  /** Removes a Slack person's link in a workspace; answers whether there was one. */
  unlinkUser(team: string, slackUserId: string): Promise<boolean>;
}

export const userLinkRepository = ({ db }: Db): UserLinkRepository => ({
  async userLink(slackUserId) {
    const r = await db
      .selectFrom('user_links')
      .selectAll()
      .where('slack_user_id', '=', slackUserId)
      .orderBy('linked_at', 'desc')
      .executeTakeFirst();
    return (
      r && {
        team: r.team_id,
        slackUserId: r.slack_user_id,
        platformUserId: r.platform_user_id,
        linkedBy: r.linked_by,
        linkedAt: new Date(r.linked_at),
      }
    );
  },
  async linkUser(link) {
    const values = {
      team_id: link.team,
      slack_user_id: link.slackUserId,
      platform_user_id: link.platformUserId,
      linked_by: link.linkedBy,
      linked_at: link.linkedAt.toISOString(),
    };
    await db
      .insertInto('user_links')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['team_id', 'slack_user_id']).doUpdateSet({
          platform_user_id: values.platform_user_id,
          linked_by: values.linked_by,
          linked_at: values.linked_at,
        }),
      )
      .execute();
  },
  async unlinkUser(team, slackUserId) {
    const r = await db
      .deleteFrom('user_links')
      .where('team_id', '=', team)
      .where('slack_user_id', '=', slackUserId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },
});
