// Installs the browser the page tests drive (Debian's `chromium`, with the emoji font the page
// shows) when it is missing and this machine can install it (root with apt-get), so that `npm test`
// on a fresh machine needs nothing else. Where it cannot, it says so and the page tests are skipped
// with a visible message.
// CONFDESK_BROWSER points at another Chromium; CONFDESK_SKIP_BROWSER_INSTALL=1 never installs.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CONFDESK_BROWSER || '/usr/bin/chromium';
const emojiFont = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
const missing = [
  ...(existsSync(browser) ? [] : ['chromium']),
  ...(existsSync(emojiFont) ? [] : ['fonts-noto-color-emoji']),
];
const canInstall = process.getuid?.() === 0 && sh('command -v apt-get', 'ignore');

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

if (missing.length && canInstall && !process.env.CONFDESK_SKIP_BROWSER_INSTALL) {
  const install = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  console.log(`confdesk: installing what the page tests need (${install})…`);
  // The package lists may be missing on a fresh machine: refresh them once and try again.
  if (!sh(install) && !sh(`apt-get update -q && ${install}`))
    console.warn(`confdesk: "${install}" failed: the page tests may be SKIPPED.`);
}
if (!existsSync(browser))
  console.warn(
    `confdesk: no browser at ${browser}: the page tests will be SKIPPED. ` +
      'Install Debian chromium (sudo apt-get install chromium) or set CONFDESK_BROWSER.',
  );
