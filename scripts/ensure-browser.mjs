// Installs the browser the page tests drive (Debian's `chromium`, with the emoji font the page
// shows) when it is missing and this machine can install it (root with apt-get), so that `npm test`
// on a fresh machine needs nothing else. Where it cannot, it says so and the page tests are skipped with a visible message.
// CONFDESK_BROWSER points at another Chromium; CONFDESK_SKIP_BROWSER_INSTALL=1 never installs.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CONFDESK_BROWSER || '/usr/bin/chromium';
const onPath = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};

if (!existsSync(browser) && !process.env.CONFDESK_SKIP_BROWSER_INSTALL) {
  if (process.getuid?.() === 0 && onPath('apt-get')) {
    console.log(
      'confdesk: installing Debian chromium for the page tests (apt-get install chromium fonts-noto-color-emoji)…',
    );
    try {
      execSync('apt-get install -y --no-install-recommends chromium fonts-noto-color-emoji', {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch {
      // The package lists may be missing on a fresh machine: refresh them once and try again.
      execSync(
        'apt-get update -q && apt-get install -y --no-install-recommends chromium fonts-noto-color-emoji',
        {
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
          shell: '/bin/sh',
        },
      );
    }
  } else {
    console.warn(
      `confdesk: no browser at ${browser}: the page tests will be SKIPPED. ` +
        'Install Debian chromium (sudo apt-get install chromium) or set CONFDESK_BROWSER.',
    );
  }
}
