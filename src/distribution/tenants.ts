import type { App } from '@slack/bolt';
import type { Confdesk } from '../confdesk.js';
import { addLeft, type LeftForNextStart, nothingLeft } from '../jobs/shutdown.js';
import type { Logger } from '../observability/logger.js';
import type { PlatformClient } from '../platform/client.js';
import type { WorkspaceInstall, WorkspaceRegistry } from '../services/workspaces.js';
import type { Store } from '../store/store.js';

/** One installed workspace: set up (a whole confdesk), or waiting for its settings. */
export interface Workspace {
  team: string;
  app: App;
  /** The bot token it runs with (a reinstall brings a new one). */
  botToken: string;
  /** When its running settings were saved (another replica's save shows as a newer time). */
  settingsAt?: number;
  /** When its installation was kept, read before it (a reinstall shows as a newer time). */
  installedAt?: number;
  /** Why its saved settings do not work (it waits for new ones). */
  problem?: string | undefined;
  confdesk?: Confdesk;
  platform?: PlatformClient;
  store?: Store;
  /** Stops it: work in flight until `deadline` (epoch ms), then what is left is released. */
  stop(o?: { deadline: number }): Promise<LeftForNextStart | undefined>;
}

/** A workspace whose start failed, as `/readyz`, `/metrics` and its admin's form say it. */
export interface StartFailure {
  problem: string;
  /** Failed starts in a row. */
  attempts: number;
  retryAt: number;
}

/**
 * Builds an installed workspace (`launch.ts`) and hands it to `place` as soon as there is one: a start
 * that fails after it placed the workspace's setup-only app throws all the same.
 */
export type Launch = (
  team: string,
  install: WorkspaceInstall,
  place: (w: Workspace) => void,
) => Promise<void>;

export interface TenantsOptions {
  registry: WorkspaceRegistry;
  launch: Launch;
  /** A failed start is tried again after `firstMs`, doubling up to `maxMs`. */
  retry: { firstMs: number; maxMs: number };
  logger: Logger;
}

/**
 * The workspaces of this process and where each stands: running (set up, or waiting for its
 * settings), starting, failed (tried again by a timer), or not begun yet by the process's start.
 * Starting or forgetting a workspace happens one at a time per workspace, in its turn (a reinstall
 * during a save).
 */
export class Tenants {
  /** The workspaces running here, by team id. */
  readonly running = new Map<string, Workspace>();
  /** Workspaces whose last start failed, each tried again by its timer in `retryTimers`. */
  readonly failures = new Map<string, StartFailure>();
  /** Workspaces whose start is under way (the process's start, a save, a sync, a retry). */
  readonly starting = new Set<string>();
  /** Installed workspaces the process's start has not begun yet. */
  readonly waiting = new Set<string>();
  /** The process's start: how many workspaces it has, how many it tried, whether it is over. */
  readonly boot = { total: 0, tried: 0, done: false };
  private readonly turns = new Map<string, Promise<unknown>>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private halted = false;

  constructor(private readonly o: TenantsOptions) {}

  /** Runs `work` in the workspace's turn: after the work queued for it before, whatever its outcome. */
  inTurn<T>(team: string, work: () => Promise<T>): Promise<T> {
    const next = (this.turns.get(team) ?? Promise.resolve()).then(work, work);
    this.turns.set(
      team,
      next.catch(() => undefined),
    );
    return next;
  }

  /** The work under way in the workspace's turn, if any. */
  turnOf(team: string): Promise<unknown> | undefined {
    return this.turns.get(team);
  }

  /** (Re)starts a workspace from what the registry holds: set up, waiting for settings, or gone. */
  readonly start = (team: string): Promise<void> => this.inTurn(team, () => this.restart(team));

  /** `start` for a workspace the process's start has not begun yet (a request for it goes first). */
  startFirst(team: string): Promise<void> {
    this.waiting.delete(team);
    return this.start(team).finally(() => {
      this.boot.tried++;
    });
  }

  /**
   * `start`'s work, inside the workspace's turn. A start that fails (the registry, the store, the jobs)
   * is recorded in `failures` (for /readyz, /metrics and the admin's save) and tried again later.
   */
  async restart(team: string): Promise<void> {
    clearTimeout(this.retryTimers.get(team));
    this.retryTimers.delete(team);
    this.starting.add(team);
    try {
      await this.startNow(team);
      this.failures.delete(team);
    } catch (error) {
      this.failedToStart(team, error);
    } finally {
      this.starting.delete(team);
    }
  }

  /** Whether the workspace's failed start waits for its retry. */
  retrying(team: string): boolean {
    return this.retryTimers.has(team);
  }

  /** Stops the workspace here and forgets its failed start, if any: in its turn (the caller's). */
  async drop(team: string): Promise<void> {
    clearTimeout(this.retryTimers.get(team));
    this.retryTimers.delete(team);
    this.failures.delete(team);
    const w = this.running.get(team);
    this.running.delete(team);
    await w?.stop();
  }

  /** Whether the process is stopping: nothing more is started. */
  get stopping(): boolean {
    return this.halted;
  }

  /** Starts nothing more: no retry, no workspace the process's start has not begun. */
  halt(): void {
    this.halted = true;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
  }

  /**
   * Once halted: waits for the starts under way, then stops every workspace (together, each until
   * `deadline`); resolves with what they left.
   */
  async stopAll(o?: { deadline: number }): Promise<LeftForNextStart> {
    await Promise.all([...this.turns.values()]);
    const lefts = await Promise.all([...this.running.values()].map((w) => w.stop(o)));
    return lefts.reduce<LeftForNextStart>((sum, l) => (l ? addLeft(sum, l) : sum), nothingLeft());
  }

  /** `restart` without its bookkeeping: throws what kept the workspace from starting. */
  private async startNow(team: string): Promise<void> {
    await this.running.get(team)?.stop();
    this.running.delete(team);
    // Read before the installation: a reinstall in between shows as newer at the next sync.
    const installedAt = (await this.o.registry.installedAt(team))?.getTime();
    const install = await this.o.registry.install(team);
    if (!install) return;
    try {
      await this.o.launch(team, install, (w) => this.running.set(team, w));
    } finally {
      const w = this.running.get(team);
      if (w && installedAt !== undefined) w.installedAt = installedAt;
    }
  }

  /** Records a failed start and arms its retry: 5 s, doubling up to 5 min (`retry`). */
  private failedToStart(team: string, error: unknown): void {
    const { retry, logger } = this.o;
    const attempts = (this.failures.get(team)?.attempts ?? 0) + 1;
    const delay = Math.min(retry.maxMs, retry.firstMs * 2 ** (attempts - 1));
    const problem = startProblem(error);
    this.failures.set(team, { problem, attempts, retryAt: Date.now() + delay });
    logger.error(
      { team, err: error, attempts, retryInS: delay / 1000 },
      `workspace could not start (${problem}): tried again in ${inWords(delay)}`,
    );
    if (this.halted) return;
    const timer = setTimeout(() => {
      this.retryTimers.delete(team);
      if (!this.halted) void this.start(team);
    }, delay);
    // A retry never keeps the process alive on its own.
    timer.unref();
    this.retryTimers.set(team, timer);
  }
}

/** A start that failed at one stage: that stage in words, with its cause. */
export class WorkspaceStartError extends Error {
  readonly code = 'workspace_start';
  constructor(stage: string, cause: unknown) {
    super(`${stage}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A failed start in one line for /readyz and the admin (the whole error goes to the log). */
function startProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const said = error instanceof WorkspaceStartError ? message : `it could not start: ${message}`;
  const line = said.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** A delay as people read it: 5 s, 2 min. */
export function inWords(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}
