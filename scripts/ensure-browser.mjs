// Installs the browser the page tests drive (Debian's `chromium`, with the emoji font the page
// shows) when it is missing and this machine can install it (root with apt-get), so that `npm test`
// on a fresh machine needs nothing else. Where it cannot, it says so and the page tests are skipped
// with a visible message.
// CONFDESK_BROWSER points at another Chromium; CONFDESK_SKIP_BROWSER_INSTALL=1 never installs.
import { existsSync } from 'node:fs';
import { aptInstall, canInstall } from './apt.mjs';

const browser = process.env.CONFDESK_BROWSER || '/usr/bin/chromium';
const emojiFont = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
const missing = [
  ...(existsSync(browser) ? [] : ['chromium']),
  ...(existsSync(emojiFont) ? [] : ['fonts-noto-color-emoji']),
];

if (missing.length && !process.env.CONFDESK_SKIP_BROWSER_INSTALL && canInstall())
  aptInstall(missing, { what: 'the page tests' });
if (!existsSync(browser))
  console.warn(
    `confdesk: no browser at ${browser}: the page tests will be SKIPPED. ` +
      'Install Debian chromium (sudo apt-get install chromium) or set CONFDESK_BROWSER.',
  );
