import type { Db } from './db.js';
import { deleteSetting, getSetting, setSetting, setSettingOnce } from './settings.js';

/*
 * Distribution mode: the workspaces that installed confdesk and their platform settings, in
 * the process's own store (each workspace's cards, subscriptions and queue live in a store of its own:
 * `workspaceStoreOptions`). Values are opaque here: the registry above seals what is secret.
 */
export interface WorkspaceRepository {
  /** Keeps a workspace's installation (sealed by the caller), replacing an earlier one; `at`: when. */
  saveInstallation(team: string, value: string, at: Date): Promise<void>;
  installation(team: string): Promise<string | undefined>;
  /** When the workspace's installation was kept (its latest install), if it has one. */
  installedAt(team: string): Promise<Date | undefined>;
  /**
   * Replaces an installation's value only while it is still `from` (sealed again; its install time is
   * kept): answers whether it did. A reinstall that came meanwhile wins.
   */
  replaceInstallation(team: string, from: string, to: string): Promise<boolean>;
  /** The teams with an installation, in id order. */
  installedTeams(): Promise<string[]>;
  /**
   * Every installed team with when it was installed and its settings as kept (opaque, possibly
   * none), in one read: what a replica compares with what it runs.
   */
  installedWorkspaces(): Promise<{ team: string; installedAt: Date; settings: string | undefined }[]>;
  saveWorkspaceSettings(team: string, value: string): Promise<void>;
  workspaceSettings(team: string): Promise<string | undefined>;
  /** As `replaceInstallation`, for the settings: only while they are still `from`. */
  replaceWorkspaceSettings(team: string, from: string, to: string): Promise<boolean>;
  /** Removes a workspace's installation and settings (uninstalled, or its bot token revoked). */
  forgetWorkspace(team: string): Promise<void>;
  /**
   * Records that an install flow's state (`key`: a digest of it) was used; answers true only the first
   * time, across replicas. What is kept is dropped once `expiresAt` is past (the state no longer
   * verifies then anyway).
   */
  useInstallState(key: string, expiresAt: Date, now: Date): Promise<boolean>;
  /** Since when every workspace's secrets are bound to it (none sealed without a binding is left). */
  secretsBoundSince(): Promise<Date | undefined>;
  noteSecretsBound(at: Date): Promise<void>;
}

const settingsScope = 'workspace-settings';
const statesScope = 'install-states';
const bindingSetting = { scope: 'secrets', key: 'bound-to-workspaces' } as const;

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
  async installedAt(team) {
    const r = await c.db
      .selectFrom('installations')
      .select('updated_at')
      .where('team_id', '=', team)
      .executeTakeFirst();
    return r ? new Date(r.updated_at) : undefined;
  },
  async replaceInstallation(team, from, to) {
    const r = await c.db
      .updateTable('installations')
      .set({ value: to })
      .where('team_id', '=', team)
      .where('value', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async installedTeams() {
    const rows = await c.db.selectFrom('installations').select('team_id').orderBy('team_id').execute();
    return rows.map((r) => r.team_id);
  },
  async installedWorkspaces() {
    const rows = await c.db
      .selectFrom('installations')
      .leftJoin('settings', (j) =>
        j.onRef('settings.key', '=', 'installations.team_id').on('settings.scope', '=', settingsScope),
      )
      .select(['installations.team_id', 'installations.updated_at', 'settings.value'])
      .orderBy('installations.team_id')
      .execute();
    return rows.map((r) => ({
      team: r.team_id,
      installedAt: new Date(r.updated_at),
      settings: r.value ?? undefined,
    }));
  },
  saveWorkspaceSettings: (team, value) => setSetting(c, settingsScope, team, value),
  workspaceSettings: (team) => getSetting(c, settingsScope, team),
  async replaceWorkspaceSettings(team, from, to) {
    const r = await c.db
      .updateTable('settings')
      .set({ value: to })
      .where('scope', '=', settingsScope)
      .where('key', '=', team)
      .where('value', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
  async forgetWorkspace(team) {
    await c.db.deleteFrom('installations').where('team_id', '=', team).execute();
    await deleteSetting(c, settingsScope, team);
  },
  async useInstallState(key, expiresAt, now) {
    // ISO times in UTC compare as text: the expired ones go first, so the scope stays small.
    await c.db
      .deleteFrom('settings')
      .where('scope', '=', statesScope)
      .where('value', '<', now.toISOString())
      .execute();
    return setSettingOnce(c, statesScope, key, expiresAt.toISOString());
  },
  async secretsBoundSince() {
    const v = await getSetting(c, bindingSetting.scope, bindingSetting.key);
    return v ? new Date(v) : undefined;
  },
  async noteSecretsBound(at) {
    await setSettingOnce(c, bindingSetting.scope, bindingSetting.key, at.toISOString());
  },
});

/**
 * Whether `team` has the shape of a Slack team id: a workspace's own store is named after it (a
 * folder, a PostgreSQL schema), so nothing else is used as a name.
 */
export const isSlackTeamId = (team: string): boolean => /^[A-Z0-9]{2,32}$/.test(team);
