import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, eventually, formState, people, submission, useBot } from '../helpers/bot.js';
import { englishLeft } from '../i18n/english-left.js';

/**
 * The ticket form in the person's Slack language, through the real path (the bot on its HTTP
 * receiver, the Slack double, the simulator): `/ticket` opens it, a bad submission is answered inline.
 */
const f = {} as BotFixture;
useBot(f);

type Json = Record<string, unknown>;
const f_ = ids.ticketForm;

/** `/ticket` in a channel as `user`: the form the bot put in the modal once its lists were read. */
async function openForm(user: string): Promise<Json> {
  const updates = f.slack.callsOf('views.update').length;
  await f.command('', user, 'CFORMS', '/ticket');
  await eventually(() => f.slack.callsOf('views.update').length > updates);
  const form = [...f.slack.views.values()].at(-1)?.view as Json;
  expect(form.callback_id).toBe(ids.views.ticketForm);
  return form;
}

/** The form submitted with a subject but no e-mail or phone: what the submission's ack says. */
async function submitWithoutContact(form: Json, user: string) {
  const values = formState(form, { [f_.subject]: 'Imprimante en feu' });
  const { body } = await f.interact(submission(form, user, values));
  return body as { response_action?: string; errors?: Record<string, string> };
}

describe('the ticket form in the person’s language', () => {
  it('is French for a fr-FR person: the form, and the inline error of a bad submission', async () => {
    f.slack.addUser({ id: people.admin.id, tz: people.admin.tz, email: people.admin.email, locale: 'fr-FR' });
    const form = await openForm(people.admin.id);
    const shown = JSON.stringify(form);
    expect((form.title as { text: string }).text).toBe('Nouveau ticket');
    expect((form.submit as { text: string }).text).toBe('Créer');
    expect(shown).toContain('E-mails du demandeur');
    expect(shown).toContain('État initial');
    expect(shown).not.toContain('Requestor');
    expect(englishLeft(form)).toEqual([]);
    const answer = await submitWithoutContact(form, people.admin.id);
    expect(answer.response_action).toBe('errors');
    expect(answer.errors?.[f_.emails]).toBe(
      'Indiquez au moins un e-mail ou un numéro de téléphone du demandeur.',
    );
    expect(englishLeft({ text: Object.values(answer.errors ?? {}).join(' ') })).toEqual([]);
  });

  it('stays English for an English person', async () => {
    f.slack.addUser({ id: people.alice.id, tz: people.alice.tz, email: people.alice.email, locale: 'en-US' });
    const form = await openForm(people.alice.id);
    expect((form.title as { text: string }).text).toBe('New ticket');
    expect((form.submit as { text: string }).text).toBe('Create');
    expect(JSON.stringify(form)).toContain('Requestor e-mails');
    const answer = await submitWithoutContact(form, people.alice.id);
    expect(answer.errors?.[f_.emails]).toBe('Give at least one e-mail or phone number of the requestor.');
  });
});
