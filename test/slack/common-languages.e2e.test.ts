import { beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import type { SlackMessage } from '../../src/dev/slack-double.js';
import type { SimTicket } from '../../src/sim/model.js';
import { type BotFixture, buttonClick, eventually, people, useBot } from '../helpers/bot.js';

/*
 * What every door shares, in the person's Slack language, through the real receiver, the Slack double
 * and the simulator: a refusal (no platform account) from a command and from a card's button, and a
 * command's "Working…" ack that tells the platform budget's wait.
 */

const f = {} as BotFixture;
useBot(f);

/** Zoé: French Slack, an e-mail the platform has no account for. */
const zoe = { id: 'UZOE', email: 'zoe@nowhere.example', tz: 'Europe/Paris', locale: 'fr-FR' };
beforeAll(() => {
  f.slack.addUser(zoe);
});

const noAccountFr =
  'Votre e-mail Slack (zoe@nowhere.example) n’a pas de compte sur la plateforme vidéo. Demandez à un administrateur de la plateforme d’en créer un avec cet e-mail, puis réessayez.';
const noAccountEn = (email: string) =>
  `Your Slack e-mail (${email}) has no account on the video platform. Ask a platform administrator to create one with this e-mail, then try again.`;

/** The texts said through `url` (a command's or a message's response_url). */
const saidAt = (url: string) =>
  f.slack.responses.filter((r) => url.endsWith(r.path)).map((r) => String(r.body.text));

describe('a refusal in the person’s language, on every door', () => {
  it('`/ticket list`: French for a French person without an account, English as before for an English one', async () => {
    const fr = await f.command('list', zoe.id, 'CL1', '/ticket');
    expect(fr.status).toBe(200);
    expect(await eventually(() => saidAt(fr.responseUrl).find((t) => t.includes('Votre e-mail')))).toBe(
      noAccountFr,
    );
    const en = await f.command('list', people.nobody.id, 'CL1', '/ticket');
    expect(await eventually(() => saidAt(en.responseUrl).find((t) => t.includes('Your Slack')))).toBe(
      noAccountEn(people.nobody.email),
    );
    expect(saidAt(en.responseUrl).join('\n')).not.toContain('Votre');
  });

  it('a card’s button: French for a French person without an account, English for an English one', async () => {
    const ticket = [...f.platform.sim.state.tickets.values()].find(
      (x) => x.reference === 'ACME-1001',
    ) as SimTicket;
    expect((await f.command('show ACME-1001', people.alice.id, 'CL2', '/ticket')).status).toBe(200);
    const card = (await eventually(() =>
      f.slack.messages.find(
        (m) => m.channel === 'CL2' && !m.thread_ts && String(m.text).startsWith('ACME-1001'),
      ),
    )) as SlackMessage;
    const click = (user: string) => {
      const payload = buttonClick(f.slack, {
        user,
        actionId: ids.actions.ticketRefresh,
        value: String(ticket.id),
        channel: card.channel,
        ts: card.ts,
      });
      return { payload, url: String(payload.response_url) };
    };
    const fr = click(zoe.id);
    await f.interact(fr.payload);
    expect(await eventually(() => saidAt(fr.url).find((t) => t.includes('Votre e-mail')))).toBe(noAccountFr);
    const en = click(people.nobody.id);
    await f.interact(en.payload);
    expect(await eventually(() => saidAt(en.url).find((t) => t.includes('Your Slack')))).toBe(
      noAccountEn(people.nobody.email),
    );
  });
});

describe('a command’s ack while the platform’s budget is spent', () => {
  it('tells the wait in French to a French person, in English to an English one', async () => {
    // A 429 announced a wait: the next request waits that long.
    f.platform.client.budget.pauseFor(6_000);
    const fr = await f.command('alice@acme.example tomorrow 3pm 45m "Point hebdo"', zoe.id, 'CL3');
    const frAck = String((fr.body as { text?: string }).text);
    expect(frAck).toMatch(
      /^Création de la conférence… La plateforme vidéo n’accepte que quelques requêtes par minute et elle est occupée\u202f: cela prendra environ [4-6]\u202fs\. Vous pouvez fermer ce message\u202f; je publierai le résultat\.$/,
    );
    const en = await f.command('alice@acme.example tomorrow 3pm 45m "Weekly sync"', people.nobody.id, 'CL3');
    expect(String((en.body as { text?: string }).text)).toMatch(
      /^Creating the conference… The video platform allows only a few requests a minute and is busy: this will take about [4-6] s\. You can close this; I will post the result\.$/,
    );
    // Once the wait is over, the refusal follows in the same language.
    expect(
      await eventually(() => saidAt(fr.responseUrl).find((t) => t.includes('Votre e-mail')), 12_000),
    ).toBe(noAccountFr);
  }, 20_000);
});
