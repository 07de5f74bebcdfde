import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import type { PlatformCredentials } from '../config/config.js';
import type { TicketCreators } from '../domain/workspace-settings.js';
import type { WorkspaceRepository } from '../store/store.js';
import type { SecretBox } from '../util/secret-box.js';

/*
 * Distribution mode (issue 23): the workspaces that installed confdesk, with their bot tokens, and the
 * platform settings their Slack admins saved. Every secret (the installation with its bot token, the
 * platform credentials, the webhook secret) is sealed with CONFDESK_ENCRYPTION_KEY before it reaches
 * the store, and never shown back: the settings form gets `SettingsSummary`.
 */

/** What confdesk needs of a workspace's installation to act in it. */
export interface WorkspaceInstall {
  team: string;
  teamName: string;
  botToken: string;
  botId: string | undefined;
  botUserId: string | undefined;
  installedBy: string;
}

/** A workspace's platform settings, opened (only the composition root holds them). */
export interface WorkspaceSettings {
  platformUrl: string;
  credentials: PlatformCredentials;
  serviceKey: string | undefined;
  language: string | undefined;
  ticketCreators: TicketCreators;
  /**
   * The secret the platform's webhooks for this workspace carry, as the admin typed it (confdesk never
   * shows it back); undefined: no webhooks, the poller finds the changes.
   */
  webhookSecret: string | undefined;
  updatedBy: string;
  updatedAt: Date;
}

/** What the settings form may show: everything but the secrets. */
export type SettingsSummary = Omit<WorkspaceSettings, 'credentials' | 'webhookSecret'> & {
  credentialsKind: PlatformCredentials['kind'];
  /** Whether a webhook secret is saved (never which). */
  webhooks: boolean;
};

interface StoredSettings extends Omit<WorkspaceSettings, 'credentials' | 'webhookSecret' | 'updatedAt'> {
  credentials: string;
  webhookSecret: string | undefined;
  updatedAt: string;
}

export class WorkspaceRegistry {
  constructor(
    private readonly store: WorkspaceRepository,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * `@slack/oauth`'s installation store over ours: the installer calls it at the end of "Add to
   * Slack"; `installed` then starts the workspace.
   */
  installationStore(installed: (team: string) => Promise<void>): InstallationStore {
    return {
      storeInstallation: async (installation: Installation) => {
        const team = installation.team?.id;
        if (installation.isEnterpriseInstall || !team)
          throw new Error('org-wide installs are not supported: install confdesk in each workspace');
        if (!installation.bot?.token) throw new Error('the installation carries no bot token');
        await this.store.saveInstallation(team, this.box.seal(JSON.stringify(installation)), this.now());
        await installed(team);
      },
      fetchInstallation: async (query: InstallationQuery<boolean>) => {
        const found = query.teamId ? await this.installation(query.teamId) : undefined;
        if (!found) throw new Error(`no installation for team ${query.teamId ?? '(none)'}`);
        return found;
      },
      deleteInstallation: async (query: InstallationQuery<boolean>) => {
        if (query.teamId) await this.store.forgetWorkspace(query.teamId);
      },
    };
  }

  /** The teams that installed confdesk. */
  teams(): Promise<string[]> {
    return this.store.installedTeams();
  }

  async install(team: string): Promise<WorkspaceInstall | undefined> {
    const i = await this.installation(team);
    if (!i?.bot?.token) return undefined;
    return {
      team,
      teamName: i.team?.name ?? team,
      botToken: i.bot.token,
      botId: i.bot.id,
      botUserId: i.bot.userId,
      installedBy: i.user.id,
    };
  }

  async settings(team: string): Promise<WorkspaceSettings | undefined> {
    const raw = await this.store.workspaceSettings(team);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as StoredSettings;
    return {
      ...s,
      credentials: JSON.parse(this.box.open(s.credentials)) as PlatformCredentials,
      webhookSecret: s.webhookSecret === undefined ? undefined : this.box.open(s.webhookSecret),
      updatedAt: new Date(s.updatedAt),
    };
  }

  /** The settings without their secrets, for the form. */
  async summary(team: string): Promise<SettingsSummary | undefined> {
    const s = await this.settings(team);
    if (!s) return undefined;
    const { credentials, webhookSecret, ...rest } = s;
    return { ...rest, credentialsKind: credentials.kind, webhooks: webhookSecret !== undefined };
  }

  /**
   * The settings a form makes, before they are checked against the platform and saved: new
   * credentials or the saved ones, a new webhook secret or the saved one.
   */
  async merge(
    team: string,
    form: {
      platformUrl: string;
      credentials: PlatformCredentials | undefined;
      serviceKey: string | undefined;
      language: string | undefined;
      ticketCreators: TicketCreators;
      webhookSecret: string | undefined;
    },
    by: string,
  ): Promise<WorkspaceSettings> {
    const saved = await this.settings(team);
    const credentials = form.credentials ?? saved?.credentials;
    if (!credentials) throw new Error('no platform credentials given nor saved');
    return {
      ...form,
      credentials,
      webhookSecret: form.webhookSecret ?? saved?.webhookSecret,
      updatedBy: by,
      updatedAt: this.now(),
    };
  }

  async saveSettings(team: string, s: WorkspaceSettings): Promise<void> {
    const stored: StoredSettings = {
      ...s,
      credentials: this.box.seal(JSON.stringify(s.credentials)),
      webhookSecret: s.webhookSecret === undefined ? undefined : this.box.seal(s.webhookSecret),
      updatedAt: s.updatedAt.toISOString(),
    };
    await this.store.saveWorkspaceSettings(team, JSON.stringify(stored));
  }

  /** Forgets a workspace's installation and settings. */
  forget(team: string): Promise<void> {
    return this.store.forgetWorkspace(team);
  }

  /**
   * After a key rotation: seals again, with the new key, what the previous key sealed; answers how
   * many workspaces it touched.
   */
  async reseal(onProblem: (team: string, error: unknown) => void = () => undefined): Promise<number> {
    let touched = 0;
    for (const team of await this.teams())
      try {
        if (await this.resealOne(team)) touched++;
      } catch (error) {
        // One workspace whose secrets this key cannot open stops no other (it waits for new settings).
        onProblem(team, error);
      }
    return touched;
  }

  private async resealOne(team: string): Promise<boolean> {
    const raw = await this.store.installation(team);
    let moved = false;
    if (raw && this.box.needsResealing(raw)) {
      await this.store.saveInstallation(team, this.box.seal(this.box.open(raw)), this.now());
      moved = true;
    }
    const s = await this.store.workspaceSettings(team);
    const stored = s ? (JSON.parse(s) as StoredSettings) : undefined;
    if (
      stored &&
      (this.box.needsResealing(stored.credentials) ||
        (stored.webhookSecret !== undefined && this.box.needsResealing(stored.webhookSecret)))
    ) {
      const open = await this.settings(team);
      if (open) await this.saveSettings(team, open);
      moved = true;
    }
    return moved;
  }

  private async installation(team: string): Promise<Installation | undefined> {
    const raw = await this.store.installation(team);
    return raw ? (JSON.parse(this.box.open(raw)) as Installation) : undefined;
  }
}
