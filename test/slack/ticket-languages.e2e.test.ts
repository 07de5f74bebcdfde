import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

/*
 * The ticket surfaces through the real path (the Slack double and the platform simulator): what a
 * channel sees (the card, its thread's lines) follows `CHANNEL_LANGUAGE`; what one person sees alone
 * (a page of `/ticket list`, the join links) follows their Slack locale.
 */

/** `/ticket show` of ACME-1001 (made `open`) in `channel`; resolves with the card once posted. */
async function openCard(f: BotFixture, channel: string): Promise<{ card: SlackMessage; t: SimTicket }> {
  const t = [...f.platform.sim.state.tickets.values()].find((x) => x.reference === 'ACME-1001') as SimTicket;
  t.state = 'open';
  expect((await f.command('show ACME-1001', people.alice.id, channel, '/ticket')).status).toBe(200);
  const card = await eventually(() =>
    f.slack.messages.find(
      (m) => m.channel === channel && !m.thread_ts && String(m.text).startsWith('ACME-1001'),
    ),
  );
  return { card, t };
}

/** Alice's Start on the card; resolves with the line it queued in the card's thread. */
async function start(f: BotFixture, card: SlackMessage, t: SimTicket): Promise<SlackMessage> {
  const click = buttonClick(f.slack, {
    user: people.alice.id,
    actionId: `${ids.actions.ticketMove}:start`,
    value: String(t.id),
    channel: card.channel,
    ts: card.ts,
  });
  await f.interact(click);
  return eventually(() =>
    f.slack.messages.find((m) => m.thread_ts === card.ts && String(m.text).includes('<@UALICE>')),
  );
}

/** The newest ephemeral answer whose text starts with `prefix`. */
const answer = (f: BotFixture, prefix: string) =>
  eventually(() => f.slack.responses.findLast((r) => String(r.body.text).startsWith(prefix)));

describe('a French workspace (CHANNEL_LANGUAGE=fr)', () => {
  const f = {} as BotFixture;
  useBot(f, { channelLocale: 'fr' });
  // Bob's Slack speaks French (before the bot first reads his profile).
  beforeAll(() => {
    f.slack.addUser({ id: people.bob.id, tz: people.bob.tz, email: people.bob.email, locale: 'fr-FR' });
  });

  it('posts the card and its thread lines in French, whoever acts', async () => {
    const { card, t } = await openCard(f, 'CFR1');
    expect(card.text).toBe('ACME-1001 — Router does not boot\u202f: ouvert');
    const blocks = JSON.stringify(card.blocks);
    for (const word of ['État', 'Demandeur', 'Groupe', 'Démarrer', 'Actualiser', 'Historique dans le fil'])
      expect(blocks, word).toContain(word);
    for (const word of ['Requestor', 'Refresh', '"Start"', 'Timeline in the thread'])
      expect(blocks, word).not.toContain(word);
    const line = await start(f, card, t);
    expect(line.text).toBe('<@UALICE> a fait passer le ticket de 📂 *ouvert* à 🎥 *en cours*.');
    await eventually(() => card.text === 'ACME-1001 — Router does not boot\u202f: en cours');
  });

  it('answers each person alone in their own language: French for fr-FR, English for the others', async () => {
    await f.command('liste', people.bob.id, 'CFR2', '/ticket');
    const fr = await answer(f, 'Vos tickets');
    expect(JSON.stringify(fr.body.blocks)).toContain('ACME-1002');
    expect(JSON.stringify(fr.body.blocks)).toContain('"Voir"');
    await f.command('list', people.alice.id, 'CFR2', '/ticket');
    const en = await answer(f, 'Your tickets');
    expect(JSON.stringify(en.body.blocks)).toContain('ACME-1001');
    expect(JSON.stringify(en.body.blocks)).toContain('"Show"');
    expect(JSON.stringify(en.body.blocks)).not.toContain('"Voir"');
  });
});

describe('a workspace without CHANNEL_LANGUAGE', () => {
  const f = {} as BotFixture;
  useBot(f);

  it('posts the card and its thread lines in English, as before', async () => {
    const { card, t } = await openCard(f, 'CEN1');
    expect(card.text).toBe('ACME-1001 — Router does not boot: open');
    expect(JSON.stringify(card.blocks)).toContain('Requestor');
    const line = await start(f, card, t);
    expect(line.text).toBe('<@UALICE> moved the ticket from 📂 *open* to 🎥 *inprogress*.');
  });
});
