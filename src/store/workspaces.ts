import type { Db } from './db.js';
import { deleteSetting, getSetting, setSetting } from './settings.js';

/*
 * Distribution mode (issue 23): the workspaces that installed confdesk and their platform settings, in
 * the process's own store (each workspace's cards, subscriptions and queue live in a store of its own:
 * `workspaceStoreOptions`). Values are opaque here: the registry above seals what is secret.
 */
export interface WorkspaceRepository {
  /** Keeps a workspace's installation (sealed by the caller), replacing an earlier one. */
  saveInstallation(team: string, value: string, at: Date): Promise<void>;
  installation(team: string): Promise<string | undefined>;
  /** The teams with an installation, in id order. */
  installedTeams(): Promise<string[]>;
  saveWorkspaceSettings(team: string, value: string): Promise<void>;
  workspaceSettings(team: string): Promise<string | undefined>;
  /** Removes a workspace's installation and settings (uninstalled, or its bot token revoked). */
  forgetWorkspace(team: string): Promise<void>;
}

const settingsScope = 'workspace-settings';

export const workspaceRepository = (c: Db): WorkspaceRepository => ({
  async saveInstallation(team, value, at) {
    const updated_at = at.toISOString();
    await c.db
      .insertInto('installations')
      .values({ team_id: team, value, updated_at })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ value, updated_at }))
      .execute();
  },
  async installation(team) {
    const r = await c.db
      .selectFrom('installations')
      .select('value')
      .where('team_id', '=', team)
      .executeTakeFirst();
    return r?.value;
  },
  async installedTeams() {
    const rows = await c.db.selectFrom('installations').select('team_id').orderBy('team_id').execute();
    return rows.map((r) => r.team_id);
  },
  saveWorkspaceSettings: (team, value) => setSetting(c, settingsScope, team, value),
  workspaceSettings: (team) => getSetting(c, settingsScope, team),
  async forgetWorkspace(team) {
    await c.db.deleteFrom('installations').where('team_id', '=', team).execute();
    await deleteSetting(c, settingsScope, team);
  },
});
