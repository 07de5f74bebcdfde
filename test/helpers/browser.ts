import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (installed by scripts/ensure-browser.mjs), or CONFDESK_BROWSER. */
export const browserPath = process.env.CONFDESK_BROWSER || '/usr/bin/chromium';
export const hasBrowser = existsSync(browserPath);
if (!hasBrowser)
  console.warn(
    `Page tests SKIPPED: no browser at ${browserPath} (apt-get install chromium, or set CONFDESK_BROWSER).`,
  );

/**
 * Headless Chromium as this machine runs it: no sandbox (root), and none of Chromium's own network
 * traffic (the closed network refuses it, many connections at a time).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
