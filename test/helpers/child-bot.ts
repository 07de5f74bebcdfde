import { type ChildProcess, spawn } from 'node:child_process';

/** The bot run as `npm start` does (dist/main.js, built by the global setup), with exactly this environment. */
export interface ChildBot {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Its HTTP port, once it listens (rejects if it exits first). */
  port: Promise<number>;
  exited: Promise<number | null>;
}

const alive = new Set<ChildProcess>();

/** Kills every child still running (a failed or timed-out test must not leave a bot behind). */
export function killAll(): void {
  for (const child of alive) child.kill('SIGKILL');
}
process.on('exit', killAll);

/**
 * `cwd`: another tree to run it from (a production copy); this checkout by default. `args`: node's
 * arguments, as a supervisor gives them (the Dockerfile's CMD); `dist/main.js` by default.
 */
export function spawnBot(env: Record<string, string>, o: { cwd?: string; args?: string[] } = {}): ChildBot {
  const child = spawn(process.execPath, o.args ?? ['dist/main.js'], {
    ...(o.cwd ? { cwd: o.cwd } : {}),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  child.on('exit', () => alive.delete(child));
  let text = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const port = new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      text += chunk;
      const m = /listening on port (\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`the bot exited (${code}) before listening:\n${text}`)));
  });
  port.catch(() => undefined); // observed by whoever awaits it
  return { child, output: () => text, port, exited };
}
