import { existsSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

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

/** The playground page as a person uses it: the composer, the person switch, the channel, modals. */
export class PageDriver {
  constructor(readonly page: Page) {}

  /** Waits until the locator is on screen, and answers the text a person reads there. */
  async seen(locator: Locator): Promise<string> {
    await locator.waitFor({ state: 'visible' });
    return locator.innerText();
  }

  async actAs(name: string): Promise<void> {
    const select = this.page.getByLabel('Acting as');
    const label = await select.locator('option', { hasText: name }).textContent();
    await select.selectOption({ label: label ?? name });
  }

  openChannel(name: string): Promise<void> {
    return this.page.getByRole('navigation', { name: 'Workspace' }).getByRole('button', { name }).click();
  }

  /** Types in the composer and sends: a slash command or a plain message. */
  async say(text: string): Promise<void> {
    const box = this.page.getByRole('textbox', { name: /^Message #/ });
    await box.fill(text);
    await box.press('Enter');
  }

  /** The last message of the channel showing `text`. */
  message(text: string | RegExp): Locator {
    return this.page.getByRole('log').first().locator('.msg', { hasText: text }).last();
  }

  dialog(title?: string): Locator {
    return this.page.getByRole('dialog', title === undefined ? {} : { name: title });
  }

  /** A create form turns into its confirmation (response_action: update), which the person closes. */
  async closeConfirmation(saying: string): Promise<void> {
    const done = this.dialog();
    await done.getByText(saying).waitFor();
    await done
      .getByRole('button', { name: /^(Close|Done)$/ })
      .first()
      .click();
    await done.waitFor({ state: 'detached' });
  }
}
