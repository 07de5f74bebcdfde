import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import type { PlatformCredentials } from '../config/config.js';
import type { TicketCreators } from '../domain/workspace-settings.js';
import { isLocale, type Locale } from '../i18n/locale.js';
import type { WorkspaceRepository } from '../store/store.js';
import { bindingOf, type SecretBox, type SecretField } from '../util/secret-box.js';

/*
 * Distribution mode: the workspaces that installed confdesk, with their bot tokens, and the
 * platform settings their Slack admins saved. Every secret (the installation with its bot token, the
 * platform credentials, the webhook secret) is sealed with CONFDESK_ENCRYPTION_KEY before it reaches
 * the store, bound to its workspace and field (`bindingOf`), and never shown back: the settings form
 * gets `SettingsSummary`.
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
  /** The language of what confdesk writes in the workspace's channels (undefined, saved before it existed: English). */
  channelLanguage?: Locale | undefined;
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

const savedAt = (raw: string | undefined): number | undefined => {
  try {
    const at = raw ? new Date((JSON.parse(raw) as StoredSettings).updatedAt).getTime() : Number.NaN;
    return Number.isNaN(at) ? undefined : at;
  } catch {
    return undefined;
  }
};

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
        const sealed = this.box.seal(JSON.stringify(installation), bindingOf(team, 'installation'));
        await this.store.saveInstallation(team, sealed, this.now());
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

  /**
   * Every installed workspace's install time and settings time (none before its settings are
   * saved), in one read and without opening a secret: how a replica sees what another changed.
   */
  async versions(): Promise<Map<string, { installedAt: number; settingsAt: number | undefined }>> {
    const rows = await this.store.installedWorkspaces();
    return new Map(
      rows.map((r) => [r.team, { installedAt: r.installedAt.getTime(), settingsAt: savedAt(r.settings) }]),
    );
  }

  /** When the workspace's settings were saved, without opening them (unreadable ones have no time). */
  async settingsAt(team: string): Promise<number | undefined> {
    return savedAt(await this.store.workspaceSettings(team));
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

  /** When the workspace's installation was kept (its latest "Add to Slack"). */
  installedAt(team: string): Promise<Date | undefined> {
    return this.store.installedAt(team);
  }

  async settings(team: string): Promise<WorkspaceSettings | undefined> {
    const raw = await this.store.workspaceSettings(team);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as StoredSettings;
    return {
      ...s,
      // Settings saved before the channel language existed (or holding an unknown one): English.
      channelLanguage: isLocale(s.channelLanguage) ? s.channelLanguage : undefined,
      credentials: JSON.parse(await this.open(team, 'credentials', s.credentials)) as PlatformCredentials,
      webhookSecret:
        s.webhookSecret === undefined ? undefined : await this.open(team, 'webhook-secret', s.webhookSecret),
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
      channelLanguage: Locale;
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
    await this.store.saveWorkspaceSettings(team, JSON.stringify(this.sealSettings(team, s)));
  }

  private sealSettings(team: string, s: WorkspaceSettings): StoredSettings {
    return {
      ...s,
      credentials: this.box.seal(JSON.stringify(s.credentials), bindingOf(team, 'credentials')),
      webhookSecret:
        s.webhookSecret === undefined
          ? undefined
          : this.box.seal(s.webhookSecret, bindingOf(team, 'webhook-secret')),
      updatedAt: s.updatedAt.toISOString(),
    };
  }

  /** Forgets a workspace's installation and settings. */
  forget(team: string): Promise<void> {
    return this.store.forgetWorkspace(team);
  }

  /**
   * At start: seals again what an older key sealed (after a rotation) and what an earlier confdesk
   * sealed without binding it to its workspace; answers how many workspaces it touched. Once no
   * workspace holds an unbound value any more, that is recorded, and unbound values never open again
   * (one copied in later, from an old backup, is refused instead of being bound where it was put).
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
    if (!(await this.store.secretsBoundSince())) {
      const left = await Promise.all((await this.teams()).map((t) => this.holdsUnbound(t)));
      if (!left.includes(true)) await this.store.noteSecretsBound(this.now());
    }
    return touched;
  }

  /** Seals one workspace's secrets again where needed; only values nobody changed meanwhile. */
  private async resealOne(team: string): Promise<boolean> {
    let moved = false;
    const raw = await this.store.installation(team);
    if (raw && this.box.needsResealing(raw)) {
      const plain = await this.open(team, 'installation', raw);
      const again = this.box.seal(plain, bindingOf(team, 'installation'));
      // Its install time is kept: a late uninstall is told from a reinstall by it.
      if (await this.store.replaceInstallation(team, raw, again)) moved = true;
    }
    const s = await this.store.workspaceSettings(team);
    const stored = s ? (JSON.parse(s) as StoredSettings) : undefined;
    if (
      s &&
      stored &&
      (this.box.needsResealing(stored.credentials) ||
        (stored.webhookSecret !== undefined && this.box.needsResealing(stored.webhookSecret)))
    ) {
      const open = await this.settings(team);
      if (
        open &&
        (await this.store.replaceWorkspaceSettings(team, s, JSON.stringify(this.sealSettings(team, open))))
      )
        moved = true;
    }
    return moved;
  }

  /** Whether a workspace still holds a value sealed without its binding. */
  private async holdsUnbound(team: string): Promise<boolean> {
    const raw = await this.store.installation(team);
    const s = await this.store.workspaceSettings(team);
    const stored = s ? (JSON.parse(s) as StoredSettings) : undefined;
    return [raw, stored?.credentials, stored?.webhookSecret].some(
      (v) => v !== undefined && this.box.isUnbound(v),
    );
  }

  /**
   * Opens a workspace's sealed value for `field`. A value of the first form (sealed before values were
   * bound) opens only until every workspace's were sealed again bound (`reseal`, at start).
   */
  private async open(team: string, field: SecretField, sealed: string): Promise<string> {
    const unboundAllowed = this.box.isUnbound(sealed) && !(await this.store.secretsBoundSince());
    return this.box.openFor(sealed, bindingOf(team, field), unboundAllowed);
  }

  private async installation(team: string): Promise<Installation | undefined> {
    const raw = await this.store.installation(team);
    return raw ? (JSON.parse(await this.open(team, 'installation', raw)) as Installation) : undefined;
  }
}
