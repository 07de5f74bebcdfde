// Installs what the tests of deploy/ run (Debian's packages) when it is missing and this machine can
// install it (root with apt-get), so that `npm test` on a fresh machine needs nothing else: the two
// reverse proxies the proxy tests run live (`nginx`, `caddy`), and what the systemd unit's test traces
// the bot with and enforces its call filter with (`strace`, `python3-seccomp`). Where it cannot, it
// says so and those tests are skipped with a visible message.
// CONFDESK_NGINX and CONFDESK_CADDY point at other binaries; CONFDESK_SKIP_PROXY_INSTALL=1 never installs.
import { execSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';

const nginx = process.env.CONFDESK_NGINX || '/usr/sbin/nginx';
const caddy = process.env.CONFDESK_CADDY || '/usr/bin/caddy';
const canInstall = process.getuid?.() === 0 && sh('command -v apt-get', 'ignore');
const missing = [
  ...(existsSync(nginx) ? [] : ['nginx']),
  ...(existsSync(caddy) ? [] : ['caddy']),
  ...(sh('strace -V', 'ignore') ? [] : ['strace']),
  // Debian's python3 (the one its package serves), as the test looks for it first.
  ...(sh('/usr/bin/python3 -c "import seccomp" || python3 -c "import seccomp"', 'ignore')
    ? []
    : ['python3-seccomp']),
];

/** Runs a shell command; answers whether it succeeded. */
function sh(command, stdio = ['ignore', 'ignore', 'inherit']) {
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

if (missing.length && canInstall && !process.env.CONFDESK_SKIP_PROXY_INSTALL) {
  const install = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  console.log(`confdesk: installing what the tests of deploy/ need (${install})…`);
  // Both packages start their service once installed (nginx on port 80, caddy on 80 and 443): the
  // tests run their own, so the system's stays stopped, as Debian's policy-rc.d convention allows.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy)
    writeFileSync(policy, '#!/bin/sh\n# Written by confdesk scripts/ensure-deploy-tools.mjs.\nexit 101\n', {
      mode: 0o755,
    });
  try {
    // The package lists may be missing on a fresh machine: refresh them once and try again.
    if (!sh(install) && !sh(`apt-get update -q && ${install}`))
      console.warn(`confdesk: "${install}" failed: tests of deploy/ may be SKIPPED.`);
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
}
for (const [name, path, variable] of [
  ['nginx', nginx, 'CONFDESK_NGINX'],
  ['caddy', caddy, 'CONFDESK_CADDY'],
])
  if (!existsSync(path))
    console.warn(
      `confdesk: no ${name} at ${path}: its proxy tests will be SKIPPED. ` +
        `Install Debian ${name} (sudo apt-get install ${name}) or set ${variable}.`,
    );
