import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { type BotFixture, eventually, formState, people, submission, useBot } from '../helpers/bot.js';

/*
 * `/conference` in the person's language and its card in the channel's: a French person's form,
 * its inline errors and its outcome are French; the card posted in a French workspace's channel is
 * French whoever created it; an English person still gets English.
 */
type Json = Record<string, unknown>;
const f = {} as BotFixture;
useBot(f, { channelLocale: 'fr' });

const viewOf = (n: number) => {
  const id = [...f.slack.views.values()].at(n)?.id as string;
  return f.slack.views.get(id)?.view as Json;
};
const titleOf = (v: Json) => (v.title as { text: string }).text;

describe('/conference in each reader’s language', () => {
  it('a French person: form, inline error and outcome in French; the card in the channel’s French', async () => {
    f.slack.addUser({ id: people.admin.id, tz: people.admin.tz, email: people.admin.email, locale: 'fr-FR' });
    await f.command('');
    const form = await eventually(() => f.slack.callsOf('views.open').length > 0 && viewOf(-1));
    expect(form.callback_id).toBe(ids.views.conferenceForm);
    expect(titleOf(form)).toBe('Nouvelle conférence');
    expect(JSON.stringify(form)).toContain('Participants\u202f: e-mails ou numéros de téléphone');
    expect(JSON.stringify(form)).not.toContain('Post the card in');

    // Nobody to invite: the inline error, before the ack, in French.
    const empty = await f.interact(submission(form, people.admin.id, formState(form, { participants: '' })));
    expect((empty.body as Json).response_action).toBe('errors');
    expect((empty.body as { errors: Record<string, string> }).errors[ids.conferenceForm.participants]).toBe(
      'Ajoutez au moins un e-mail ou un numéro de téléphone, ou choisissez des personnes de Slack ci-dessous.',
    );

    const start = Date.parse('2027-04-02T14:30:00Z') / 1000;
    const values = formState(form, {
      participants: 'jane.doe@example.com',
      name: 'Point hebdo',
      startTime: { selected_date_time: start },
      duration: '45',
    });
    await f.interact(submission(form, people.admin.id, values));
    const card = await eventually(() =>
      f.slack.messages.find((m) => JSON.stringify(m.blocks ?? []).includes('Point hebdo')),
    );
    expect(card.channel).toBe('C1');
    const cardJson = JSON.stringify(card.blocks);
    expect(cardJson).toContain('*Quand*');
    expect(cardJson).toContain(`<!date^${start}^{date_long_pretty} à {time}|`);
    expect(cardJson).toContain('"text":"Rejoindre"');
    expect(cardJson).not.toContain('*When*');
    expect(card.text).toContain('Conférence «\u202fPoint hebdo\u202f»');
    // The outcome in the modal: French.
    const outcome = await eventually(() => {
      const v = JSON.stringify(f.slack.views.get(form.id as string)?.view ?? {});
      return v.includes('est planifiée') && v;
    });
    expect(outcome).toContain('Sa carte est dans <#C1>');
  });

  it('an English person still gets an English form; the card stays in the channel’s French', async () => {
    f.slack.addUser({ id: people.alice.id, tz: people.alice.tz, email: people.alice.email, locale: 'en-US' });
    const before = f.slack.callsOf('views.open').length;
    await f.command('', people.alice.id);
    const form = await eventually(() => f.slack.callsOf('views.open').length > before && viewOf(-1));
    expect(titleOf(form)).toBe('New conference');
    expect(JSON.stringify(form)).toContain('Participants: e-mails or phone numbers');
    const empty = await f.interact(submission(form, people.alice.id, formState(form, { participants: '' })));
    expect((empty.body as { errors: Record<string, string> }).errors[ids.conferenceForm.participants]).toBe(
      'Add at least one e-mail or phone number, or pick people from Slack below.',
    );
    await f.interact(
      submission(
        form,
        people.alice.id,
        formState(form, { participants: 'jane.doe@example.com', name: 'Weekly sync', duration: '30' }),
      ),
    );
    const card = await eventually(() =>
      f.slack.messages.find((m) => JSON.stringify(m.blocks ?? []).includes('Weekly sync')),
    );
    expect(JSON.stringify(card.blocks)).toContain('*Durée*');
    expect(JSON.stringify(card.blocks)).not.toContain('*Duration*');
  });
});
