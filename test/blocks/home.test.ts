import { describe, expect, it } from 'vitest';
import { buildHome, type HomeData, homeLimits } from '../../src/blocks/home.js';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit, limits } from '../../src/blocks/limits.js';
import { md } from '../../src/blocks/mrkdwn.js';
import { phrase } from '../../src/blocks/text.js';
import type { ConferenceSummary } from '../../src/domain/conference.js';
import type { TicketSummary } from '../../src/domain/ticket.js';

const ticket = (i: number, state = 'open'): TicketSummary => ({
  id: String(i),
  reference: `REF-${i}`,
  subject: `Subject ${i}`,
  state,
  requestor: { emails: [], phones: [] },
  group: { id: '3', name: 'Level 1' },
  modified: new Date('2027-03-26T09:00:00Z'),
});
const conference = (i: number): ConferenceSummary => ({
  id: String(i),
  name: `Weekly ${i}`,
  start: new Date('2027-03-27T09:00:00Z'),
  participants: ['a@acme.example'],
  ...(i % 2 ? { joinUrl: `https://video.example.com/join/${i}` } : {}),
});

const busy: HomeData = {
  account: { id: '7', username: 'alice', role: 'admin', email: 'alice@acme.example' },
  loading: false,
  conferences: { items: Array.from({ length: 200 }, (_, i) => conference(i)), more: true },
  tickets: { items: Array.from({ length: 500 }, (_, i) => ticket(i, i % 3 ? 'open' : 'new')), more: true },
  subscriptions: Array.from({ length: 60 }, (_, i) => ({
    id: `s${i}`,
    channel: 'C1',
    kind: 'watch' as const,
    ticketId: String(i),
    filter: {},
  })),
  digests: Array.from({ length: 30 }, (_, i) => ({
    id: `d${i}`,
    channel: 'C2',
    zone: 'Europe/Paris',
    time: '09:00',
    weekdays: [1, 2, 3, 4, 5],
  })),
  admin: {
    users: 2000,
    groups: 40,
    yesterday: { date: '2027-03-25', stats: { session_count: 12, user_count: 30 } as never },
    doctor: { blocking: 1, warnings: 2, at: new Date('2027-03-26T09:00:00Z') },
  },
  tools: [
    { label: phrase('home.tool.people'), actionId: 'people_open' },
    { label: phrase('home.tool.media'), actionId: 'media_open' },
  ],
};

type Loose = {
  type: string;
  elements?: Loose[];
  accessory?: Loose;
  action_id?: string;
  url?: string;
  value?: string;
};
const elementsOf = (view: ReturnType<typeof buildHome>) =>
  (view.blocks as Loose[]).flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])]);
const accessories = (view: ReturnType<typeof buildHome>) =>
  (view.blocks as Loose[]).flatMap((b) => (b.accessory ? [b.accessory] : []));
const actionIds = (view: ReturnType<typeof buildHome>) =>
  elementsOf(view).flatMap((e) => (e.action_id ? [e.action_id] : []));

describe('App Home', () => {
  it('stays within Slack’s 100 blocks with 500 tickets, 200 conferences, 60 subscriptions and 30 digests', () => {
    const view = buildHome('en', busy);
    expect(checkBlockKit(view, 'home')).toEqual([]);
    expect(view.blocks.length).toBeLessThanOrEqual(limits.viewBlocks);
    const ids_ = actionIds(view);
    // The first few of each list, then where the rest is.
    expect(ids_.filter((a) => a.startsWith(ids.actions.conferenceJoin))).toHaveLength(homeLimits.conferences);
    expect(ids_.filter((a) => a.startsWith(`${ids.actions.ticketMove}:`)).length).toBeGreaterThanOrEqual(
      homeLimits.tickets,
    );
    expect(ids_.filter((a) => a.startsWith(ids.actions.homeSubscriptionRemove))).toHaveLength(
      homeLimits.subscriptions,
    );
    expect(ids_.filter((a) => a.startsWith(ids.actions.homeDigestRemove))).toHaveLength(homeLimits.digests);
    const text = JSON.stringify(view);
    expect(text).toContain('More in `/conference list`');
    expect(text).toContain('More in `/ticket list`');
    expect(text).toContain(`And ${60 - homeLimits.subscriptions + 30 - homeLimits.digests} more`);
    expect(text).toContain('1 blocking problem');
    // Counts are written for the reader's locale.
    expect(text).toContain('2,000');
  });

  it('is written in the reader’s language: French sentences, plurals and numbers, the raw state only when unknown', () => {
    const fr = JSON.stringify(
      buildHome('fr', { ...busy, tickets: { items: [ticket(1), ticket(2, 'odd')], more: false } }),
    );
    expect(fr).toContain('Vos prochaines conférences');
    expect(fr).toContain('Vos tickets ouverts');
    expect(fr).toContain('Le docteur trouve 1 problème bloquant et 2 avertissements');
    expect(fr).toContain('2\u202f000');
    expect(fr).toContain('ouvert · Level 1');
    expect(fr).toContain('odd · Level 1');
    expect(fr).toContain('"text":"Rejoindre"');
    expect(fr).toContain('"text":"Utilisateurs"');
    expect(fr).not.toContain('Your open tickets');
    const en = JSON.stringify(buildHome('en', { ...busy, tickets: { items: [ticket(1)], more: false } }));
    expect(en).toContain('open · Level 1');
    expect(en).toContain('"text":"People"');
  });

  it('gives a ticket the card’s move buttons for its state, on the same route as the card', () => {
    const view = buildHome('en', { ...busy, tickets: { items: [ticket(1, 'new')], more: false } });
    const moves = actionIds(view).filter((a) => a.startsWith(`${ids.actions.ticketMove}:`));
    expect(moves).toContain(`${ids.actions.ticketMove}:accept:1`);
  });

  it('puts a conference’s own link on the Join button when it has one, else the Join route', () => {
    const view = buildHome('en', {
      ...busy,
      conferences: { items: [conference(1), conference(2)], more: false },
    });
    const joins = accessories(view);
    expect(joins[0]).toMatchObject({
      action_id: `${ids.actions.conferenceJoinLink}:1`,
      url: 'https://video.example.com/join/1',
    });
    expect(joins[1]).toMatchObject({ action_id: `${ids.actions.conferenceJoin}:2`, value: '2' });
  });

  it('says a list could not be read and still shows the rest', () => {
    const view = buildHome('en', {
      ...busy,
      tickets: { failed: md`The platform is down` },
    });
    const text = JSON.stringify(view);
    expect(text).toContain('The platform is down');
    expect(text).toContain('Weekly 0');
  });

  it('shows a person without an account how to get one, and no lists', () => {
    const view = buildHome('en', { loading: false, subscriptions: [], digests: [] });
    const text = JSON.stringify(view);
    expect(text).toContain('needs your video platform account');
    expect(text).not.toContain('Your open tickets');
    expect(actionIds(view)).toEqual([]);
  });

  it('says how the person’s account was found: by their Slack e-mail, or linked by hand by an admin', () => {
    expect(JSON.stringify(buildHome('en', busy))).toContain('found by your Slack e-mail');
    expect(JSON.stringify(buildHome('en', { ...busy, linkedBy: 'UADMIN' }))).toContain(
      'linked by hand by <@UADMIN>',
    );
  });

  it('shows no enterprise part to a person who is not an admin', () => {
    const { admin: _admin, ...plain } = busy;
    expect(JSON.stringify(buildHome('en', plain))).not.toContain('Your enterprise');
  });
});
