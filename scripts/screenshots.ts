// `npm run screenshots`: the README's pictures, taken from a running playground in headless Chromium
// (Debian's chromium, as the page tests use). Writes docs/screenshots/*.png.
import { mkdirSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { tPlain } from '../src/blocks/text.js';
import { createLogger } from '../src/observability/logger.js';
import { runPlayground } from '../src/playground/start.js';
import { browserPath, hasBrowser, launchBrowser, PageDriver } from '../test/helpers/browser.js';

if (!hasBrowser) {
  console.error(`No browser at ${browserPath}: apt-get install chromium (or set CONFDESK_BROWSER).`);
  process.exit(1);
}
const out = 'docs/screenshots';
mkdirSync(out, { recursive: true });
// Reminders looked for every 5 s (25 s while none is coming), so the reminder's picture need not wait a minute.
const pg = await runPlayground({ env: { REMINDER_INTERVAL: '5' }, port: 0, logger: createLogger('silent') });
const browser = await launchBrowser();
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    timezoneId: 'Europe/Paris',
  });
  page.setDefaultTimeout(15_000);
  await page.goto(pg.url);
  const ui = new PageDriver(page);
  const shot = async (name: string, target?: Locator) => {
    const path = `${out}/${name}.png`;
    await (target ? target.screenshot({ path }) : page.screenshot({ path }));
    console.log(`wrote ${path}`);
  };

  // The create modal with an inline error: created without a participant.
  await ui.openChannel('meetings');
  await ui.say('/conference');
  const form = ui.dialog('New conference');
  await form.getByRole('button', { name: 'Create' }).click();
  await form.getByText('Add at least one e-mail or phone number').waitFor();
  await shot('create-modal-error');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await form.waitFor({ state: 'detached' });

  // A conference card.
  await ui.say('/conference alice@acme.example +33612345678 tomorrow 3pm 45m "Weekly sync"');
  const conference = ui.message('Weekly sync');
  await conference.getByText('Join', { exact: true }).waitFor();
  await shot('conference-card', conference);

  // A ticket card and its thread: created by Ada, started by Alice, a platform-side event.
  await ui.openChannel('support');
  await ui.say('/ticket new jane.doe@example.com Router does not boot');
  const ticketForm = ui.dialog('New ticket');
  // The group and agent menus are type-ahead (issue 22): typed, answered by the bot, picked.
  await ticketForm.getByLabel(/^Group/).fill('lev');
  await ticketForm.getByRole('button', { name: 'Level 1', exact: true }).click();
  await ticketForm.getByLabel(/^Agent(?! notification)/).fill('mar');
  await ticketForm.getByRole('button', { name: 'Alice Martin (alice)' }).waitFor();
  await shot('pickers-typeahead', ticketForm);
  await ticketForm.getByRole('button', { name: 'Alice Martin (alice)' }).click();
  await ticketForm.getByRole('button', { name: 'Create' }).click();
  await ui.closeConfirmation('is created');
  await ui.actAs('Alice Martin');
  const ticket = ui.message('Router does not boot');
  await ticket.getByRole('button', { name: 'Start' }).click();
  await ticket.getByRole('button', { name: 'Done' }).waitFor();
  await page.waitForTimeout(1_100); // the platform dates events to the second
  await page.getByRole('button', { name: 'Platform', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Platform' });
  const option = await panel
    .getByLabel('Ticket')
    .locator('option', { hasText: /Router does not boot \(inprogress\)/ })
    .textContent();
  await panel.getByLabel('Ticket').selectOption({ label: option ?? '' });
  await panel.getByRole('button', { name: 'Guest joins' }).click();
  await panel.getByRole('button', { name: 'Close platform panel' }).click();
  await ticket.getByRole('button', { name: /repl(y|ies)/ }).click();
  const thread = page.getByRole('complementary', { name: 'Thread' });
  await thread.getByText(/guest/i).first().waitFor();
  await shot('playground');
  await shot('ticket-thread', thread);

  // The daily digest, as its private preview (`digest now`).
  await ui.actAs('Ada Admin');
  await page.getByRole('button', { name: 'Close thread' }).click();
  await ui.openChannel('meetings');
  await ui.say('/conference digest now');
  const digest = page.locator('.msg.ephemeral').last();
  await digest
    .getByText(/statistics|digest/i)
    .first()
    .waitFor();
  await shot('digest', digest);

  // App Home of a platform admin, then the People and Media library modals it opens.
  await page.locator('.side-item', { hasText: 'confdesk' }).click();
  const home = page.locator('.home');
  await home.getByText('Your enterprise').waitFor();
  await home.getByText(/doctor finds/).waitFor();
  await shot('app-home', page.locator('.main'));
  await home.getByRole('button', { name: 'People', exact: true }).click();
  const peopleModal = ui.dialog('People');
  await peopleModal.getByText('alice@acme.example').first().waitFor();
  await shot('people', peopleModal);
  await peopleModal
    .getByRole('button', { name: /^(Close|Cancel)$/ })
    .first()
    .click();
  await peopleModal.waitFor({ state: 'detached' });
  await home.getByRole('button', { name: 'Media library', exact: true }).click();
  const library = ui.dialog('Media library');
  await library
    .getByText(/Page|snapshot|recording/i)
    .first()
    .waitFor();
  await shot('media-library', library);

  await library
    .getByRole('button', { name: /^(Close|Cancel)$/ })
    .first()
    .click();
  await library.waitFor({ state: 'detached' });

  // Reactions (issue 37): #support turns them on; Alice reacts 🎫 to Nico's message and gets,
  // privately, the Create ticket offer.
  await ui.openChannel('support');
  await ui.say('/ticket follow reactions');
  await page
    .getByText(/now act on tickets/)
    .first()
    .waitFor();
  await ui.actAs('Nico Nobody');
  await ui.say('The lift on floor 3 is stuck again, a visitor is inside');
  await ui.actAs('Alice Martin');
  const reacted = ui.message('The lift on floor 3 is stuck again');
  await reacted.hover();
  await reacted.getByRole('button', { name: 'Add reaction' }).click();
  await reacted.getByRole('menuitem', { name: /:ticket:/ }).click();
  const offer = page.locator('.msg.ephemeral', { hasText: 'Create a ticket from this message' }).last();
  await offer.getByRole('button', { name: 'Create ticket' }).waitFor();
  await reacted.locator('.reaction').first().waitFor();
  await page.mouse.move(0, 0);
  await shot('reactions', page.locator('.main'));

  // Workflows: the Open an assistance ticket step run as Workflow Builder would, with its outputs.
  await ui.actAs('Alice Martin');
  await page.locator('.side-item', { hasText: 'Workflows' }).click();
  const workflows = page.locator('.main');
  await workflows.getByLabel('Step').selectOption({ label: 'Open an assistance ticket' });
  await workflows.getByLabel(/^Requestor/).fill('jo.blake@example.com');
  await workflows.getByLabel(/^Subject/).fill('Projector will not pair');
  await workflows.getByLabel(/^Group/).fill('Level 1');
  await workflows.getByLabel(/^Channel/).selectOption({ label: '#support' });
  await workflows.getByRole('button', { name: 'Run step' }).click();
  await workflows.getByText('Completed').waitFor();
  await shot('workflow-step', workflows);

  // A link preview: Alice pastes a ticket's link (the playground's made-up page of the simulator's
  // ticket) in #support, and the bot's unfurl shows under her message.
  await ui.openChannel('support');
  await ui.actAs('Alice Martin');
  const acme = [...(pg.bot.sim?.state.tickets.values() ?? [])].find((t) => t.reference === 'ACME-1001');
  await ui.say(
    `Can someone look at ${new URL(pg.url).origin}/desk/tickets/${acme?.id}? The router is still down.`,
  );
  const pasted = ui.message('The router is still down');
  await pasted.locator('.unfurl').getByText('ACME-1001').waitFor();
  await shot('unfurl', pasted);

  // A conference reminder in Alice's direct messages (the app's Messages tab): a conference planned on
  // the platform for 8 minutes from now, reminded 10 minutes before, at once.
  await pg.bot.platform.createConference({
    participants: ['alice@acme.example', 'bob@acme.example', '+33612345678'],
    name: 'Design review',
    startTime: new Date(Math.ceil((Date.now() + 8 * 60_000) / 60_000) * 60_000),
    duration: 30,
  });
  await ui.actAs('Alice Martin');
  await page.locator('.side-item', { hasText: 'confdesk' }).click();
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  const reminder = ui.message('Design review');
  await reminder.getByText('Join', { exact: true }).waitFor({ timeout: 90_000 });
  await shot('reminder', page.locator('.main'));
} finally {
  await browser.close();
  await pg.stop();
}

// A French card and its thread: a workspace whose channels speak French (CHANNEL_LANGUAGE=fr), the
// ticket created by Ada, taken and started by Alice, whose Slack is switched to French.
const fr = await runPlayground({ env: { CHANNEL_LANGUAGE: 'fr' }, port: 0, logger: createLogger('silent') });
const frBrowser = await launchBrowser();
try {
  const page = await frBrowser.newPage({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    timezoneId: 'Europe/Paris',
  });
  page.setDefaultTimeout(15_000);
  await page.goto(fr.url);
  const ui = new PageDriver(page);
  await ui.openChannel('support');
  await ui.say('/ticket new jane.doe@example.com Le routeur ne démarre pas');
  const form = ui.dialog('New ticket');
  await form.getByLabel(/^Group/).fill('lev');
  await form.getByRole('button', { name: 'Level 1', exact: true }).click();
  await form.getByLabel(/^Agent(?! notification)/).fill('mar');
  await form.getByRole('button', { name: 'Alice Martin (alice)' }).click();
  await form.getByRole('button', { name: 'Create' }).click();
  await ui.closeConfirmation('is created');
  await ui.actAs('Alice Martin');
  await page.getByLabel('Slack language').selectOption({ label: 'Français' });
  const ticket = ui.message('Le routeur ne démarre pas');
  await ticket.getByRole('button', { name: tPlain('fr', 'ticket.move.start') }).click();
  await ticket.getByRole('button', { name: tPlain('fr', 'ticket.move.done') }).waitFor();
  await ticket.getByRole('button', { name: /réponse|repl(y|ies)/ }).click();
  const thread = page.getByRole('complementary', { name: 'Thread' });
  await thread.getByText(/a fait passer le ticket/).waitFor();
  const path = `${out}/ticket-thread-fr.png`;
  await thread.screenshot({ path });
  console.log(`wrote ${path}`);
} finally {
  await frBrowser.close();
  await fr.stop();
}
