import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SimUser } from '../../src/sim/model.js';
import {
  type BotFixture,
  buttonClick,
  eventually,
  formState,
  people,
  submission,
  useBot,
} from '../helpers/bot.js';

/*
 * issue 39: the media library through the real receiver in the person's language (their Slack
 * locale), and a media shared into a channel commented in the channel's (`CHANNEL_LANGUAGE`).
 */

const f = {} as BotFixture;
useBot(f, { channelLocale: 'fr' });

type Json = Record<string, unknown>;
const viewOf = (id: string) => f.slack.views.get(id)?.view as Json;
const json = (id: string) => JSON.stringify(viewOf(id));

const simUser = (username: string) =>
  [...f.platform.sim.state.users.values()].find((u) => u.username === username) as SimUser;

/** Alice reads Slack in French; the admin has no locale (English). */
function frenchAlice() {
  f.slack.addUser({ id: people.alice.id, tz: people.alice.tz, email: people.alice.email, locale: 'fr-FR' });
}

/** `/conference media <text>` as `who`: the library's view id once its content is in place. */
async function openLibrary(who: string, text = ''): Promise<string> {
  const before = new Set(f.slack.views.keys());
  const res = await f.command(`media ${text}`, who, 'CMED');
  expect(res.status).toBe(200);
  const id = await eventually(() => [...f.slack.views.keys()].find((k) => !before.has(k)));
  await eventually(() => !json(id).includes('hourglass'));
  return id;
}

describe('the media library in the person’s language', () => {
  it('opens in French for a fr-FR person: title, filters, rows, menu, count', async () => {
    frenchAlice();
    f.platform.sim.state.addMedia({
      enterpriseId: 1,
      userId: simUser('alice').id,
      type: 'recording',
      title: 'Revue d’incident',
      format: 'video/mp4',
      content: { kind: 'bytes', data: Buffer.from('mp4 bytes') },
    });
    const library = await openLibrary(people.alice.id, 'type:recording');
    const view = viewOf(library);
    expect(view.title).toMatchObject({ text: 'Médiathèque' });
    expect(view.close).toMatchObject({ text: 'Fermer' });
    const text = json(library);
    expect(text).toContain('*Filtres\u202f:* `type:recording`');
    expect(text).toContain('Revue d’incident');
    expect(text).toContain('enregistrement');
    expect(text).toContain('"Filtrer"');
    expect(text).toContain('Partager dans Slack');
    expect(text).not.toContain('Media library');
    expect(text).not.toContain('Share in Slack');
  });

  it('stays English for a person whose Slack is not French', async () => {
    const library = await openLibrary(people.admin.id, 'type:recording');
    expect(viewOf(library).title).toMatchObject({ text: 'Media library' });
    const text = json(library);
    expect(text).toContain('*Filters:* `type:recording`');
    expect(text).toContain('Share in Slack');
    expect(text).not.toContain('Médiathèque');
  });

  it('a media shared into a French channel: the comment in French, the person told in French', async () => {
    frenchAlice();
    const m = f.platform.sim.state.addMedia({
      enterpriseId: 1,
      userId: simUser('alice').id,
      type: 'snapshot',
      title: 'Tableau blanc',
      format: 'image/png',
      content: { kind: 'bytes', data: Buffer.from('png bytes') },
    });
    const library = await openLibrary(people.alice.id, 'Tableau blanc');
    // The row's Share: the share form pushed over the library, in French.
    const before = new Set(f.slack.views.keys());
    const payload = buttonClick(f.slack, {
      user: people.alice.id,
      actionId: `${ids.actions.mediaRow}:${m.id}`,
      value: '',
      channel: 'CMED',
    }) as Json;
    payload.container = { type: 'view', view_id: library };
    payload.view = { ...viewOf(library), id: library, hash: 'h' };
    payload.actions = [
      {
        type: 'overflow',
        action_id: `${ids.actions.mediaRow}:${m.id}`,
        block_id: 'b',
        selected_option: { value: `share:${m.id}`, text: { type: 'plain_text', text: 'share' } },
        action_ts: '1',
      },
    ];
    await f.interact(payload);
    const form = await eventually(
      () =>
        [...f.slack.views.values()].find(
          (v) => !before.has(v.id) && v.view.callback_id === ids.views.mediaShare,
        )?.id,
    );
    expect(viewOf(form).title).toMatchObject({ text: 'Partager le média' });
    expect(json(form)).toContain('Dans le fil de (facultatif)');
    // No channel picked: told inline, in French.
    const noChannel = await f.interact(
      submission(viewOf(form), people.alice.id, formState(viewOf(form), {})),
    );
    expect(noChannel.body).toMatchObject({
      response_action: 'errors',
      errors: { channel: 'Choisissez le canal où le partager.' },
    });
    await f.interact(
      submission(
        viewOf(form),
        people.alice.id,
        formState(viewOf(form), { channel: { selected_conversation: 'CFR' } }),
      ),
    );
    const posted = await eventually(() =>
      f.slack.messages.find((x) => x.channel === 'CFR' && (x.metadata as Json | undefined)?.files),
    );
    expect(posted.text).toContain('<@UALICE> a partagé *Tableau blanc* depuis la médiathèque.');
    await eventually(() => json(form).includes('Partagé dans <#CFR>.'));
  });
});
