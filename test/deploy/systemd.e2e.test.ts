import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SlackDouble } from '../../src/dev/slack-double.js';
import { eventually } from '../helpers/bot.js';
import { sendCommand } from '../helpers/slack-requests.js';

/*
 * deploy/confdesk.service as systemd reads it: `systemd-analyze verify` prints nothing about it, and
 * its system call filter, expanded by this machine's systemd (`systemd-analyze syscall-filter`),
 * allows every call the built bot makes: those recorded in node-syscalls.txt, those strace sees now,
 * and, enforced by the kernel (seccomp, as systemd does it), a start, a command and a stop. Without
 * @pkey, Node is killed at start (SIGSYS): the unit restarted in a loop.
 */

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const unitFile = join(root, 'deploy/confdesk.service');
const fixture = join(import.meta.dirname, 'node-syscalls.txt');

const works = (file: string, args: string[]) => {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasAnalyze = works('systemd-analyze', ['--version']);
const hasStrace = works('strace', ['-V']);
const python = ['/usr/bin/python3', 'python3'].find((p) => works(p, ['-c', 'import seccomp']));
if (!hasAnalyze) console.warn('systemd unit tests SKIPPED: no systemd-analyze (apt-get install systemd).');
else {
  if (!hasStrace)
    console.warn('systemd unit: the live trace is SKIPPED: no strace (apt-get install strace).');
  if (!python)
    console.warn(
      'systemd unit: the run under the enforced filter is SKIPPED: no libseccomp for Python (apt-get install python3-seccomp).',
    );
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'confdesk-systemd-'));
  dirs.push(d);
  return d;
};

/** Every set `systemd-analyze syscall-filter` lists, with its members (calls and nested sets). */
function syscallSets(): Map<string, string[]> {
  const text = execFileSync('systemd-analyze', ['syscall-filter'], { encoding: 'utf8' });
  const sets = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('@')) {
      current = [];
      sets.set(line.trim(), current);
    } else if (/^ {4}[@a-z0-9_]/.test(line)) current?.push(line.trim());
    else if (!line.trim()) current = undefined;
  }
  return sets;
}

function expand(name: string, sets: Map<string, string[]>): string[] {
  if (!name.startsWith('@')) return [name];
  const members = sets.get(name);
  if (!members) throw new Error(`systemd does not know the set ${name}`);
  return members.flatMap((m) => expand(m, sets));
}

/**
 * The calls a unit's SystemCallFilter= lines allow, read as systemd reads them: the first line makes
 * an allow-list (to which systemd adds @default), a later `~` line takes its calls out again.
 */
function allowedBy(unit: string, sets: Map<string, string[]>): { allowed: Set<string>; named: string[] } {
  const lines = [...unit.matchAll(/^SystemCallFilter=(.*)$/gm)].map((m) => (m[1] as string).trim());
  expect(lines[0]?.startsWith('~'), 'the first filter line is an allow-list').toBe(false);
  const allowed = new Set(expand('@default', sets));
  const named: string[] = [];
  for (const line of lines) {
    const deny = line.startsWith('~');
    for (const name of line.replace(/^~/, '').split(/\s+/).filter(Boolean)) {
      if (!deny) named.push(name);
      for (const call of expand(name, sets)) deny ? allowed.delete(call) : allowed.add(call);
    }
  }
  return { allowed, named };
}

const unitText = () => readFileSync(unitFile, 'utf8');
const recorded = () =>
  readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));

/** The names in an `strace -f` log: each call once (`<... x resumed>` lines name theirs too). */
const tracedCalls = (log: string) =>
  [
    ...new Set(
      [...log.matchAll(/^\d+ +(?:<\.\.\. )?([a-z0-9_]+)(?:\(| resumed>)/gm)].map((m) => m[1] as string),
    ),
  ].sort();

/**
 * The unit runs as its own user, never root. Run as root here, the bot is put under nobody (SQLite,
 * as root, gives its files' owner back with fchown, which the filter rightly refuses): answers the
 * command prefix, or undefined when nobody could not read this checkout.
 */
function asUnprivileged(): string[] | undefined {
  if (process.getuid?.() !== 0) return [];
  for (let d = root; d !== '/'; d = dirname(d)) if (!(statSync(d).mode & 0o001)) return undefined;
  return ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
}
const unprivileged = asUnprivileged();
if (hasAnalyze && !unprivileged)
  console.warn(
    `systemd unit: the bot's runs are SKIPPED: run as root, and ${root} is not readable by nobody.`,
  );

/**
 * The built bot (single workspace, HTTP mode, the simulator, the Slack double) started through
 * `wrapper` as the unit starts it: ready, a signed command answered, then SIGTERM. Answers how it
 * ended, and its output.
 */
async function botThrough(
  wrapper: string[],
): Promise<{ code: number | null; signal: string | null; ready: boolean; output: string }> {
  const slack = await new SlackDouble().start();
  const dataDir = tempDir();
  if (process.getuid?.() === 0) chownSync(dataDir, 65534, 65534);
  const [command, ...args] = [...wrapper, process.execPath, '--enable-source-maps', 'dist/main.js'];
  const child = spawn(command as string, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: 'xoxb-systemd-test',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.apiUrl,
      PLATFORM_URL: 'simulator',
      PORT: '0',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ended = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  const port = new Promise<number | undefined>((r) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const m = /listening on port (\d+)/.exec(output);
      if (m) r(Number(m[1]));
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void ended.then(() => r(undefined));
  });
  try {
    const listening = await port;
    if (listening === undefined) return { ...(await ended), ready: false, output };
    const url = `http://127.0.0.1:${listening}`;
    await eventually(async () => (await fetch(`${url}/readyz`)).status === 200, 15_000);
    const ack = await sendCommand(url, 'secret', {
      command: '/conference',
      text: 'help',
      user_id: 'USYSTEMD',
      channel_id: 'CSYSTEMD',
      team_id: 'T1',
      response_url: slack.responseUrl(),
      trigger_id: 't',
    });
    expect(await ack.text()).toContain('/conference');
    // The bot itself, not strace: strace's child when traced, else the process (setpriv and python exec it).
    const children = () => {
      try {
        return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
      } catch {
        return '';
      }
    };
    const bot = wrapper.includes('strace') ? Number(children().split(' ')[0]) : (child.pid as number);
    process.kill(bot, 'SIGTERM');
    return { ...(await ended), ready: true, output };
  } finally {
    child.kill('SIGKILL');
    await slack.stop();
  }
}

describe.runIf(hasAnalyze)('deploy/confdesk.service', () => {
  it('systemd-analyze verify prints nothing about it (and does print a fault it has)', async () => {
    const dir = tempDir();
    const copy = join(dir, 'confdesk.service');
    // verify wants ExecStart's binary to exist: this machine's node, wherever it is installed.
    const unit = unitText();
    const pointed = unit.replace(/^ExecStart=node /m, `ExecStart=${process.execPath} `);
    expect(pointed, 'ExecStart=node … in the unit').not.toBe(unit);
    const verify = async (text: string) => {
      writeFileSync(copy, text);
      return run('systemd-analyze', ['verify', copy]).then(
        (r) => ({ code: 0, said: `${r.stdout}${r.stderr}` }),
        (e: { code: number; stdout: string; stderr: string }) => ({
          code: e.code,
          said: `${e.stdout}${e.stderr}`,
        }),
      );
    };
    const about = (said: string) => said.split('\n').filter((l) => l.includes('confdesk'));
    const clean = await verify(pointed);
    expect(clean.code).toBe(0);
    expect(about(clean.said)).toEqual([]);
    // The check sees what it is for: an unknown set is a warning, with exit code 0.
    const typo = await verify(pointed.replace('@pkey', '@pkeys'));
    expect(about(typo.said).join('\n')).toContain('Unknown system call group, ignoring: @pkeys');
  });

  it("ExecStart's bare node is looked up in systemd's fixed search path, not $PATH", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'confdesk.service'), unitText());
    const path = execFileSync('systemd-path', ['search-binaries-default'], { encoding: 'utf8' }).trim();
    const inPath = path.split(':').some((d) => works(join(d, 'node'), ['--version']));
    const analyze = execFileSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).trim();
    const r = await run(analyze, ['verify', join(dir, 'confdesk.service')], {
      env: { PATH: '/nonexistent' },
    }).then(
      (x) => ({ code: 0, said: x.stderr }),
      (e: { code: number; stderr: string }) => ({ code: e.code, said: e.stderr }),
    );
    if (inPath) expect(r, `node in ${path}`).toEqual({ code: 0, said: '' });
    else {
      console.warn(
        `systemd unit: no node in systemd's search path here (${path}): the bare name is not tried.`,
      );
      expect(r.said).toContain('Command node is not executable');
    }
  });

  it('its filter allows @pkey and every call the bot was recorded making', () => {
    const sets = syscallSets();
    const { allowed, named } = allowedBy(unitText(), sets);
    expect(named).toContain('@pkey');
    const calls = recorded();
    expect(calls).toContain('pkey_alloc');
    expect(calls.filter((c) => !allowed.has(c))).toEqual([]);
    // What it fixes: @system-service alone does not allow pkey_alloc.
    const before = allowedBy(
      'SystemCallFilter=@system-service\nSystemCallFilter=~@privileged\n',
      sets,
    ).allowed;
    expect(calls.filter((c) => !before.has(c))).toEqual(['pkey_alloc']);
  });

  it.runIf(hasStrace && unprivileged)(
    'every call the built bot makes now (strace), started, ready, answering and stopped, is allowed',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      if (process.getuid?.() === 0) chownSync(dir, 65534, 65534);
      const log = join(dir, 'strace.log');
      const ran = await botThrough([...(unprivileged as string[]), 'strace', '-f', '-qq', '-o', log]);
      expect(ran, ran.output).toMatchObject({ ready: true, code: 0 });
      const calls = tracedCalls(readFileSync(log, 'utf8'));
      expect(calls.length).toBeGreaterThan(40);
      if (process.env.CONFDESK_WRITE_SYSCALLS) {
        const header = readFileSync(fixture, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('#'));
        writeFileSync(fixture, `${[...header, ...calls].join('\n')}\n`);
      }
      const { allowed } = allowedBy(unitText(), syscallSets());
      expect(calls.filter((c) => !allowed.has(c))).toEqual([]);
      const unrecorded = calls.filter((c) => !recorded().includes(c));
      if (unrecorded.length)
        console.warn(
          `systemd unit: calls not in node-syscalls.txt yet (allowed; CONFDESK_WRITE_SYSCALLS=1 records them): ${unrecorded.join(' ')}`,
        );
    },
  );

  it.runIf(python && unprivileged)(
    'the bot runs under the filter enforced by the kernel; without @pkey, Node 20 is killed at start',
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      if (process.getuid?.() === 0) chownSync(dir, 65534, 65534);
      const sets = syscallSets();
      const list = (unit: string) => {
        const file = join(dir, `allowed-${Math.random().toString(36).slice(2)}.txt`);
        writeFileSync(file, [...allowedBy(unit, sets).allowed].join('\n'));
        return [
          ...(unprivileged as string[]),
          python as string,
          join(import.meta.dirname, 'seccomp-exec.py'),
          file,
        ];
      };
      const ran = await botThrough(list(unitText()));
      expect(ran, ran.output).toMatchObject({ ready: true, code: 0 });

      const withoutPkey = unitText().replace(/^(SystemCallFilter=.*) @pkey$/m, '$1');
      expect(withoutPkey).not.toBe(unitText());
      const without = list(withoutPkey);
      const killed = await run(without[0] as string, [...without.slice(1), process.execPath, '-e', '0']).then(
        () => undefined,
        (e: { signal?: string }) => e.signal,
      );
      const major = Number(process.versions.node.split('.')[0]);
      if (major === 20) expect(killed).toBe('SIGSYS');
      else
        console.warn(
          `systemd unit: Node ${process.version} without @pkey: ${killed ?? 'not killed'} (Node 22 and 24 did not call pkey_alloc on a CPU without protection keys)`,
        );
    },
  );
});
