import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { storeBackends } from '../helpers/store-backends.js';

/** The reminders' part of the store, on both backends (PostgreSQL when TEST_DATABASE_URL is set). */
const backends = storeBackends('reminder store tests');

const reminder = (conference: string, user: string, start: string, channel = `D${user}`) => ({
  ticketId: `conference:${conference}`,
  eventId: `reminder:${user}:${start}`,
  channel,
  payload: { reminder: true },
});

describe.each(backends)('reminders in the store, $name', ({ options }) => {
  it('keeps each person’s choice across a restart, replaces it, and reads everyone’s at once', async () => {
    const o = options();
    let store = await openStore(o);
    expect(await store.reminderPrefs('U1')).toBeUndefined();
    await store.setReminderPrefs('U1', { enabled: true, leadMinutes: 15 });
    await store.setReminderPrefs('U2', { enabled: false });
    await store.setReminderPrefs('U3', { enabled: true });
    await store.setReminderPrefs('U1', { enabled: true, leadMinutes: 5 });
    await store.close();
    store = await openStore(o);
    expect(await store.reminderPrefs('U1')).toEqual({ enabled: true, leadMinutes: 5 });
    expect(await store.reminderPrefs('U2')).toEqual({ enabled: false });
    expect(await store.reminderPrefs('U3')).toEqual({ enabled: true });
    const all = await store.allReminderPrefs();
    expect([...all.keys()].sort()).toEqual(['U1', 'U2', 'U3']);
    expect(all.get('U2')).toEqual({ enabled: false });
    await store.close();
  });

  it('writes a reminder once per conference, person and start; a moved start is another reminder', async () => {
    const store = await openStore(options());
    expect(await store.advance([reminder('7', 'U1', '2027-03-26T10:10:00.000Z')])).toBe(1);
    expect(await store.advance([reminder('7', 'U1', '2027-03-26T10:10:00.000Z')])).toBe(0);
    expect(await store.advance([reminder('7', 'U1', '2027-03-26T11:00:00.000Z')])).toBe(1);
    expect(await store.advance([reminder('7', 'U2', '2027-03-26T11:00:00.000Z')])).toBe(1);
    expect((await store.waitingReminders()).map((i) => i.eventId).sort()).toEqual([
      'reminder:U1:2027-03-26T10:10:00.000Z',
      'reminder:U1:2027-03-26T11:00:00.000Z',
      'reminder:U2:2027-03-26T11:00:00.000Z',
    ]);
    await store.close();
  });

  it('takes back only the reminders delivery has not claimed, and never another item', async () => {
    const store = await openStore(options());
    await store.advance([
      reminder('7', 'U1', '2027-03-26T10:10:00.000Z'),
      reminder('8', 'U2', '2027-03-26T10:20:00.000Z'),
      { ticketId: '7', eventId: 'e1', channel: 'C1', payload: { eventName: 'x' } },
    ]);
    // Delivery claims U2's DM: that reminder is on its way.
    const claimed = await store.claim('me', 10, 60_000, 10);
    expect(claimed.map((i) => i.channel).sort()).toEqual(['C1', 'DU1', 'DU2']);
    await store.settle(
      { ...(claimed.find((i) => i.channel === 'DU1') as (typeof claimed)[number]) },
      {
        status: 'pending',
      },
    );
    expect((await store.waitingReminders()).map((i) => i.channel)).toEqual(['DU1']);
    const dropped = await store.dropReminders([
      reminder('7', 'U1', '2027-03-26T10:10:00.000Z'),
      reminder('8', 'U2', '2027-03-26T10:20:00.000Z'),
    ]);
    expect(dropped).toBe(1);
    expect(await store.waitingReminders()).toEqual([]);
    expect((await store.outboxOf('conference:8')).map((i) => i.status)).toEqual(['unknown']);
    expect((await store.outboxOf('7')).map((i) => i.eventId)).toEqual(['e1']);
    // Taken back, the key is free: the same reminder written again is new.
    expect(await store.advance([reminder('7', 'U1', '2027-03-26T10:10:00.000Z')])).toBe(1);
    await store.close();
  });

  it('reads the identity links as platform account → Slack person', async () => {
    const store = await openStore(options());
    await store.linkUser({
      team: 'T1',
      slackUserId: 'U1',
      platformUserId: '41',
      linkedBy: 'UADMIN',
      linkedAt: new Date('2027-01-01T00:00:00Z'),
    });
    await store.linkUser({
      team: 'T1',
      slackUserId: 'U2',
      platformUserId: '42',
      linkedBy: 'UADMIN',
      linkedAt: new Date('2027-01-02T00:00:00Z'),
    });
    expect(await store.linkedPeople()).toEqual(
      new Map([
        ['41', 'U1'],
        ['42', 'U2'],
      ]),
    );
    await store.close();
  });
});
