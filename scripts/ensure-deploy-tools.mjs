// Installs what the tests of deploy/ run (Debian's packages) when it is missing and this machine can
// install it (root with apt-get), so that `npm test` on a fresh machine needs nothing else: the two
// reverse proxies the proxy tests run live (`nginx`, `caddy`), and what the systemd unit's test traces
// the bot with and enforces its call filter with (`strace`, `python3-seccomp`). Where it cannot, it
// says so and those tests are skipped with a visible message.
// CONFDESK_NGINX and CONFDESK_CADDY point at other binaries; CONFDESK_SKIP_PROXY_INSTALL=1 never installs.
import { existsSync } from 'node:fs';
import { aptInstall, canInstall, sh } from './apt.mjs';

const nginx = process.env.CONFDESK_NGINX || '/usr/sbin/nginx';
const caddy = process.env.CONFDESK_CADDY || '/usr/bin/caddy';
const missing = [
  ...(existsSync(nginx) ? [] : ['nginx']),
  ...(existsSync(caddy) ? [] : ['caddy']),
  ...(sh('strace -V', 'ignore') ? [] : ['strace']),
  // Debian's python3 (the one its package serves), as the test looks for it first.
  ...(sh('/usr/bin/python3 -c "import seccomp" || python3 -c "import seccomp"', 'ignore')
    ? []
    : ['python3-seccomp']),
];

// Both proxy packages start their service once installed (nginx on port 80, caddy on 80 and 443): the
// tests run their own, so the system's stays stopped.
if (missing.length && !process.env.CONFDESK_SKIP_PROXY_INSTALL && canInstall())
  aptInstall(missing, { what: 'the tests of deploy/', noServiceStart: true });
for (const [name, path, variable] of [
  ['nginx', nginx, 'CONFDESK_NGINX'],
  ['caddy', caddy, 'CONFDESK_CADDY'],
])
  if (!existsSync(path))
    console.warn(
      `confdesk: no ${name} at ${path}: its proxy tests will be SKIPPED. ` +
        `Install Debian ${name} (sudo apt-get install ${name}) or set ${variable}.`,
    );
