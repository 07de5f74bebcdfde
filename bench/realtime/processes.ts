/*
 * bench/realtime/processes.ts — the plumbing the real-time benches share (bench/realtime.ts,
 * realtime-steps.ts, realtime-unfurls.ts, realtime-reminders.ts, workspaces.ts): child processes
 * started from the checkout and killed with the bench, waiting for a line of their output, stopping
 * them; HTTP and JSON helpers; requests signed as Slack signs them; the figures' small helpers.
 *
 * Importing it installs the kill-on-exit handlers (exit, SIGINT, SIGTERM).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root, where the children run. */
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// ---------- small helpers ----------

/** Resolves after `ms` (at once for `ms` ≤ 0). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** The `p`th percentile (0–100) of `xs`, nearest rank; NaN for none. */
export const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
};
/** Milliseconds as seconds with `digits` decimals ('—' for NaN). */
export const secs = (ms: number, digits = 1) => (Number.isNaN(ms) ? '—' : `${(ms / 1000).toFixed(digits)} s`);
/** One of `xs` at random. */
export const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)] as T;
/** A target met or not. */
export const mark = (ok: boolean) => (ok ? '✓' : '✗');

// ---------- processes ----------

/** Every child still running: killed on any exit of the bench. */
const children = new Set<ChildProcess>();
const killAll = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
  /** Everything it printed so far (the last 200 kB). */
  output: () => string;
  /** Lines of its output matching each of `count`, over the whole run (the kept text is trimmed). */
  counted: Map<RegExp, number>;
}

export interface SpawnOptions {
  /** An IPC channel to the child (default true). */
  ipc?: boolean;
  /** Node's own options, before `--import tsx`. */
  nodeArgs?: string[];
  /** Patterns whose matches in the output are counted (`Proc.counted`). */
  count?: RegExp[];
  /** Append to `logFile` instead of replacing it. */
  append?: boolean;
}

/** Starts `node --import tsx <args>` from the checkout with exactly `env` (and PATH, HOME), its output to `logFile`. */
export function spawnNode(
  name: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
  o: SpawnOptions = {},
): Proc {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), '--import', 'tsx', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: (o.ipc ?? true) ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const file = createWriteStream(logFile, o.append ? { flags: 'a' } : {});
  let text = '';
  const counted = new Map((o.count ?? []).map((r) => [r, 0]));
  const read = (chunk: Buffer) => {
    file.write(chunk);
    const s = chunk.toString();
    for (const [r, n] of counted) counted.set(r, n + (s.match(new RegExp(r.source, 'g'))?.length ?? 0));
    text += s;
    if (text.length > 400_000) text = text.slice(-200_000);
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      file.end();
      resolve(code);
    }),
  );
  return { name, child, pid: child.pid ?? 0, exited, output: () => text, counted };
}

/** Whether the process still runs. */
export const alive = (p: Proc) => p.child.exitCode === null && p.child.signalCode === null;

/**
 * Waits for the process's output to match `pattern` and answers its first group; fails once the
 * process has exited (by code or signal) without it, or after `timeoutMs`.
 */
export async function waitFor(p: Proc, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let gone = false;
  void p.exited.then(() => {
    gone = true;
  });
  while (Date.now() < until) {
    const m = pattern.exec(p.output());
    if (m) return m[1] as string;
    if (gone)
      throw new Error(
        `${p.name} exited (${p.child.exitCode}) before it was ready:\n${p.output().slice(-3000)}`,
      );
    await sleep(50);
  }
  throw new Error(`${p.name} not ready within ${timeoutMs / 1000} s:\n${p.output().slice(-3000)}`);
}

/** SIGTERM, then SIGKILL after `graceMs` (and up to 5 s more for it to go). */
export async function stopProc(p: Proc, graceMs = 15_000): Promise<void> {
  if (!alive(p)) return;
  p.child.kill('SIGTERM');
  const done = await Promise.race([p.exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done) {
    p.child.kill('SIGKILL');
    await Promise.race([p.exited, sleep(5_000)]);
  }
}

// ---------- HTTP ----------

/** A request; its status and body (15 s at most unless `timeoutMs`). */
export async function http(
  url: string,
  o: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: o.method ?? 'GET',
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: o.headers ?? {},
    signal: AbortSignal.timeout(o.timeoutMs ?? 15_000),
  });
  return { status: res.status, text: await res.text() };
}
/** GET, JSON answered with 200 (else it throws). */
export async function getJson<T>(url: string, timeoutMs?: number): Promise<T> {
  const r = await http(url, timeoutMs ? { timeoutMs } : {});
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text) as T;
}
/** POST of `body` as JSON, JSON answered with 200 (else it throws). */
export async function postJson<T>(url: string, body: unknown, timeoutMs?: number): Promise<T> {
  const r = await http(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  if (r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${r.text.slice(0, 200)}`);
  return JSON.parse(r.text) as T;
}

/**
 * `body` POSTed to the bot's /slack/events, signed as Slack signs it (v0 HMAC-SHA256 of
 * `v0:<timestamp>:<body>`); `sentAt` is when it went, after the signing.
 */
export async function signedSlack(
  botUrl: string,
  secret: string,
  body: string,
  contentType = 'application/x-www-form-urlencoded',
): Promise<{ status: number; text: string; sentAt: number }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  const sentAt = Date.now();
  const r = await http(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    },
  });
  return { ...r, sentAt };
}

/** An Events API callback of the double's team carrying `event`, signed (`signedSlack`). */
export function sendEvent(botUrl: string, secret: string, event: unknown, apiAppId: string) {
  const body = JSON.stringify({
    type: 'event_callback',
    team_id: 'T0000DBL',
    api_app_id: apiAppId,
    event_id: `Ev${randomBytes(6).toString('hex')}`,
    event_time: Math.floor(Date.now() / 1000),
    event,
  });
  return signedSlack(botUrl, secret, body, 'application/json');
}
