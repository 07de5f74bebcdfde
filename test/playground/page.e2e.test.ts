import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/logger.js';
import { type Playground, runPlayground } from '../../src/playground/start.js';
import { hasBrowser, launchBrowser, PageDriver } from '../helpers/browser.js';

/**
 * The playground driven as a person would, in headless Chromium: what is typed in the composer, the
 * buttons clicked, the modal filled in; what is asserted is text on the screen. Behind the page,
 * every step is a signed Slack request into the real bot, which answers through the Slack double and
 * the platform simulator.
 */
describe.skipIf(!hasBrowser)('the playground in a browser', { timeout: 60_000 }, () => {
  let pg: Playground;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    pg = await runPlayground({ env: {}, port: 0, logger: createLogger('silent') });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, timezoneId: 'Europe/Paris' });
    page.setDefaultTimeout(15_000);
    await page.goto(pg.url);
    ui = new PageDriver(page);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // Nothing the bot sent broke a Block Kit limit or carried an unescaped token.
    expect(pg?.slack.violations).toEqual([]);
    await pg?.stop();
  });

  let ui: PageDriver;

  it('creates a conference from quick text: its card, with a Join button, in the viewer’s zone', async () => {
    await ui.openChannel('meetings');
    await ui.say('/conference alice@acme.example tomorrow 3pm 45m "Weekly sync"');
    const card = ui.message('Weekly sync');
    expect(await ui.seen(card.getByText('Join', { exact: true }))).toBe('Join');
    // 3 pm in Ada's zone (Paris), shown in the browser's (Paris here).
    expect(await card.innerText()).toContain('Tomorrow at 3:00 PM');
    expect(await card.innerText()).toContain('alice@acme.example');
  });

  it('closes a modal on Escape, as Slack does, with the focus still in the composer', async () => {
    await ui.say('/conference');
    const form = ui.dialog('New conference');
    await form.waitFor();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('creates a conference from the modal: an inline error first, then the card', async () => {
    await ui.say('/conference');
    const form = ui.dialog('New conference');
    await form.getByRole('button', { name: 'Create' }).click();
    expect(await ui.seen(form.getByText('Add at least one e-mail or phone number'))).toContain(
      'Add at least one',
    );
    await form.getByLabel(/^Participants: e-mails or phone numbers/).fill('bob@acme.example');
    await form.getByLabel(/^Name/).fill('Design review');
    await form.getByRole('button', { name: 'Create' }).click();
    const card = ui.message('Design review');
    expect(await ui.seen(card.getByText('Join', { exact: true }))).toBe('Join');
    expect(await card.innerText()).toContain('bob@acme.example');
    // The form turns into its confirmation (response_action: update), closed by the person.
    const done = page.getByRole('dialog');
    expect(await ui.seen(done)).toContain('Design review');
    await done
      .getByRole('button', { name: /^(Close|Done)$/ })
      .first()
      .click();
    await done.waitFor({ state: 'detached' });
  });

  describe('a ticket', () => {
    it('is created from /ticket new and its prefilled form', async () => {
      await ui.openChannel('support');
      await ui.say('/ticket new jane.doe@example.com Router does not boot');
      const form = ui.dialog('New ticket');
      await form.waitFor();
      expect(await form.getByLabel(/^Subject/).inputValue()).toBe('Router does not boot');
      // The group and agent menus are type-ahead (issue 22): typed, asked of the bot, picked.
      await form.getByLabel(/^Group/).fill('lev');
      await form.getByRole('button', { name: 'Level 1', exact: true }).click();
      expect(await ui.seen(form.getByText('Chosen: Level 1'))).toBe('Chosen: Level 1');
      await form.getByLabel(/^Agent(?! notification)/).fill('mar');
      expect(await ui.seen(form.getByRole('button', { name: 'Alice Martin (alice)' }))).toBe(
        'Alice Martin (alice)',
      );
      await form.getByRole('button', { name: 'Create' }).click();
      const card = ui.message('Router does not boot');
      expect(await ui.seen(card.getByRole('button', { name: 'Start' }))).toBe('Start');
      expect(await card.innerText()).toContain('jane.doe@example.com');
      expect(await card.innerText()).toContain('Level 1');
      await ui.closeConfirmation('is created');
    });

    it('is refused to an outsider, privately, and the card does not move', async () => {
      await ui.actAs('Nico Nobody');
      const card = ui.message('Router does not boot');
      await card.getByRole('button', { name: 'Start' }).click();
      const refusal = page.locator('.msg.ephemeral', { hasText: 'Only visible to you' }).last();
      expect(await ui.seen(refusal)).toContain('no account on the video platform');
      expect(await card.getByRole('button', { name: 'Start' }).isVisible()).toBe(true);
    });

    it('moves with Start as the agent of its group; the thread says who moved it', async () => {
      await ui.actAs('Alice Martin');
      const card = ui.message('Router does not boot');
      await card.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => card.innerText(), { timeout: 15_000 }).toMatch(/State\s+\S*\s*inprogress/);
      await card.getByRole('button', { name: /repl(y|ies)/ }).click();
      const thread = page.getByRole('complementary', { name: 'Thread' });
      expect(await ui.seen(thread.getByText(/Alice Martin.* moved the ticket/).first())).toContain(
        'inprogress',
      );
    });

    it('shows a platform-side change arriving in its thread', async () => {
      // The platform dates events to the second; a person is never faster than that after a click.
      await page.waitForTimeout(1_100);
      await page.getByRole('button', { name: 'Platform', exact: true }).click();
      const panel = page.getByRole('complementary', { name: 'Platform' });
      const ticket = panel.getByLabel('Ticket');
      const option = await ticket
        .locator('option', { hasText: /Router does not boot \(inprogress\)/ })
        .textContent();
      await ticket.selectOption({ label: option ?? '' });
      await panel.getByLabel('Event name').fill('customer.calledBack');
      await panel.getByRole('button', { name: 'Add event' }).click();
      const thread = page.getByRole('complementary', { name: 'Thread' });
      expect(await ui.seen(thread.getByText(/calledBack/).first())).toContain('calledBack');
      await panel.getByRole('button', { name: 'Close platform panel' }).click();
    });

    it('moves on with Done', async () => {
      const card = ui.message('Router does not boot');
      await card.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => card.innerText(), { timeout: 15_000 }).toMatch(/State\s+\S*\s*done/);
      expect(await card.getByRole('button', { name: 'Done' }).count()).toBe(0);
    });
  });

  // issue 37: reactions
  it('reacts to a message with the Add reaction control: the reaction shows, and 🎫 brings the private offer', async () => {
    await ui.actAs('Ada Admin');
    await ui.openChannel('support');
    await ui.say('/ticket follow reactions');
    await ui.seen(page.getByText(/now act on tickets/).first());
    await ui.say('The badge reader at the door is dead');
    await ui.actAs('Alice Martin');
    const reacted = ui.message('The badge reader at the door is dead');
    await reacted.hover();
    await reacted.getByRole('button', { name: 'Add reaction' }).click();
    await reacted.getByRole('menuitem', { name: /:ticket:/ }).click();
    expect(await ui.seen(reacted.locator('.reaction').first())).toContain('🎫 1');
    const offer = page.locator('.msg.ephemeral', { hasText: 'Create a ticket from this message' }).last();
    await offer.getByRole('button', { name: 'Create ticket' }).click();
    const form = ui.dialog('New ticket');
    await form.getByLabel(/^Description/).waitFor();
    expect(await form.getByLabel(/^Description/).inputValue()).toContain(
      'The badge reader at the door is dead',
    );
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('opens the App Home of the acting person', async () => {
    await ui.actAs('Ada Admin');
    await page
      .getByRole('navigation', { name: 'Workspace' })
      .getByRole('button', { name: /confdesk/ })
      .click();
    const home = page.getByRole('main');
    expect(await ui.seen(home.getByText('Plan video conferences', { exact: false }))).toContain('Slack');
    // Its button works as in Slack: the create form opens over the Home tab.
    await home.getByRole('button', { name: 'New conference' }).click();
    const form = ui.dialog('New conference');
    expect(await ui.seen(form.getByLabel(/^Participants: e-mails or phone numbers/))).toBe('');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    // An admin's Home: the enterprise at a glance and the admins' tools (issue 22).
    expect(await ui.seen(home.getByText('Your enterprise'))).toBe('Your enterprise');
    expect(await ui.seen(home.getByRole('button', { name: 'People', exact: true }))).toBe('People');
  });

  it('shows a person without a platform account a Home with no button and no admin command', async () => {
    await ui.actAs('Nico Nobody');
    const home = page.getByRole('main');
    await home.getByRole('button', { name: 'New conference' }).waitFor({ state: 'detached' });
    expect(await ui.seen(home.getByText(/account/).first())).toMatch(/account/);
    expect(await home.innerText()).not.toContain('Your enterprise');
  });

  it('switches the acting person’s Slack language: the bot answers them in French, then in English again', async () => {
    await ui.actAs('Alice Martin');
    await ui.openChannel('support');
    const language = page.getByLabel('Slack language');
    await language.selectOption({ label: 'Français' });
    await expect.poll(() => language.inputValue()).toBe('fr-FR');
    await ui.say('/ticket aide');
    expect(await ui.seen(ui.message(/tickets d’assistance à distance/))).toContain('/ticket nouveau');
    await language.selectOption({ label: 'English' });
    await expect.poll(() => language.inputValue()).toBe('en-US');
    await ui.say('/ticket help');
    expect(await ui.seen(ui.message(/remote-assistance tickets/))).toContain('/ticket new');
  });
});
