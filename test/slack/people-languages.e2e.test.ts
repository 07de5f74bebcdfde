import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, buttonClick, eventually, people, submission, useBot } from '../helpers/bot.js';

/*
 * The People screens in the admin's language (issue 39), through the real receiver, the Slack double
 * and the simulator: a French admin (Slack locale fr-FR) gets the browser, the create form and its
 * inline problems in French; the English admin still gets English.
 */

type Json = Record<string, unknown>;

const f = {} as BotFixture;
useBot(f);

/** A second Slack person for the platform admin's account (same e-mail), whose Slack is in French. */
const frAdmin = 'UFRADMIN';
beforeAll(() => {
  f.slack.addUser({ id: frAdmin, tz: 'Europe/Paris', email: people.admin.email, locale: 'fr-FR' });
});

const text = (v: unknown) => JSON.stringify(v);
const typed = (value: string) => ({ value: { type: 'plain_text_input', value } });

/** Runs `act`, then waits for a new view (opened or pushed) whose content passes `ready`. */
async function viewAfter(act: () => Promise<unknown>, ready: (v: Json) => boolean): Promise<Json> {
  const before = new Set(f.slack.views.keys());
  await act();
  return eventually(() => {
    for (const [id, { view }] of f.slack.views) if (!before.has(id) && ready(view)) return view;
    return undefined;
  }, 8_000);
}

/** The People browser `/conference admin people` opens for `user`, once loaded. */
const openBrowser = (user: string) =>
  viewAfter(
    () => f.command('admin people', user, 'CPEO'),
    (v) => v.callback_id === ids.views.peopleBrowser,
  );

/** New user pressed in the browser: the create form pushed over it. */
function createForm(browser: Json, user: string): Promise<Json> {
  const payload = buttonClick(f.slack, { user, actionId: ids.actions.personNew, value: '', channel: 'CPEO' });
  (payload as Json).view = {
    id: browser.id,
    type: 'modal',
    hash: 'h',
    private_metadata: browser.private_metadata ?? '',
    callback_id: browser.callback_id,
  };
  (payload as Json).actions = [
    { block_id: 'b', action_ts: '1', type: 'button', action_id: ids.actions.personNew, value: '' },
  ];
  return viewAfter(
    () => f.interact(payload),
    (v) => v.callback_id === ids.views.personCreate,
  );
}

const badEmail = {
  username: typed('erin'),
  [ids.people.password]: typed('Pa55 word'),
  email: typed('not an e-mail'),
};

describe('the People screens in the admin’s language', () => {
  it('are French for a fr-FR admin: the browser, the create form and its inline problem', async () => {
    const browser = await openBrowser(frAdmin);
    expect(browser.title).toMatchObject({ text: 'Utilisateurs' });
    expect(browser.submit).toMatchObject({ text: 'Rechercher' });
    expect(text(browser)).toContain('Rechercher par nom, e-mail ou identifiant');
    expect(text(browser)).toContain('Nouvel utilisateur');
    expect(text(browser)).toMatch(/1–\d+ sur \d+ personnes/);
    expect(text(browser)).not.toMatch(/People|Search|New user| of \d+ people/);

    const form = await createForm(browser, frAdmin);
    expect(form.title).toMatchObject({ text: 'Nouvel utilisateur' });
    expect(form.submit).toMatchObject({ text: 'Créer' });
    expect(text(form)).toContain('Identifiant (login)');
    expect(text(form)).toContain('Un e-mail ou un téléphone mobile\u202f: au moins l’un des deux.');
    expect(text(form)).not.toMatch(/Password|Cell phone|First name/);

    const res = await f.interact(submission(form, frAdmin, badEmail));
    expect(res.body).toEqual({
      response_action: 'errors',
      errors: { email: 'Une adresse e-mail est attendue, par exemple nom@example.com' },
    });
    const none = await f.interact(submission(form, frAdmin, { username: typed('erin lee') }));
    expect(none.body).toEqual({
      response_action: 'errors',
      errors: {
        username: 'Un identifiant ne contient pas d’espace.',
        [ids.people.password]: 'Indiquez un mot de passe (la plateforme n’en envoie aucun d’elle-même).',
        email: 'Indiquez un e-mail ou un numéro de téléphone mobile.',
      },
    });
  });

  it('are still English for an English admin', async () => {
    const browser = await openBrowser(people.admin.id);
    expect(browser.title).toMatchObject({ text: 'People' });
    expect(text(browser)).toContain('Search by name, e-mail or login');
    expect(text(browser)).toMatch(/1–\d+ of \d+ people/);

    const form = await createForm(browser, people.admin.id);
    expect(form.title).toMatchObject({ text: 'New user' });
    expect(text(form)).toContain('Login (username)');
    const res = await f.interact(submission(form, people.admin.id, badEmail));
    expect(res.body).toEqual({
      response_action: 'errors',
      errors: { email: 'Expected an e-mail address such as name@example.com' },
    });
  });

  it('says what is wrong with `admin link` in the admin’s language', async () => {
    const fr = await f.command('admin link bob', frAdmin, 'CPEO');
    expect(text(fr)).toContain('Désignez la personne Slack par une @-mention.');
    const en = await f.command('admin link bob', people.admin.id, 'CPEO');
    expect(text(en)).toContain('Name the Slack person with an @-mention.');
  });
});
