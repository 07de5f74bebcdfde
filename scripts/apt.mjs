// What the ensure-scripts share: a shell command that answers whether it worked, and installing
// Debian packages when this machine can (root with apt-get).
import { execSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';

/** Runs a shell command; answers whether it succeeded. */
export function sh(command, stdio = ['ignore', 'ignore', 'inherit']) {
  try {
    execSync(command, {
      stdio,
      shell: '/bin/sh',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch {
    return false;
  }
}

/** Whether this machine can install Debian's packages (root with apt-get). */
export const canInstall = () => process.getuid?.() === 0 && sh('command -v apt-get', 'ignore');

/**
 * Installs `packages` (without recommends), refreshing the package lists once if the first try fails
 * (they may be missing on a fresh machine); answers whether it worked, and says why not for `what`.
 * With `noServiceStart`, a package's service is not started (Debian's policy-rc.d convention): the
 * tests run their own.
 */
export function aptInstall(packages, { what, noServiceStart = false }) {
  const install = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  console.log(`confdesk: installing what ${what} need (${install})…`);
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = noServiceStart && !existsSync(policy);
  if (ownPolicy)
    writeFileSync(policy, '#!/bin/sh\n# Written by confdesk scripts/apt.mjs.\nexit 101\n', { mode: 0o755 });
  try {
    const ok = sh(install) || sh(`apt-get update -q && ${install}`);
    if (!ok) console.warn(`confdesk: "${install}" failed: ${what} may be SKIPPED.`);
    return ok;
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
}
