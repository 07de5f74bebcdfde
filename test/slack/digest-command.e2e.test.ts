import { beforeAll, describe, expect, it } from 'vitest';
import { type BotFixture, eventually, formState, people, submission, useBot } from '../helpers/bot.js';

const f = {} as BotFixture;
useBot(f);

// The statistics digest is for platform admins: here alice (New York) and bob (Tokyo) are admins too,
// so that the zones of different people show. Refusals to everyone else are in test/slack/policy.e2e.test.ts.
beforeAll(() => {
  for (const u of f.platform.sim.state.users.values())
    if (u.username === 'alice' || u.username === 'bob') u.role = 'admin';
});

/** The reply a command got through its response_url. */
const replyTo = (responseUrl: string) =>
  eventually(() => f.slack.responses.find((r) => responseUrl.endsWith(r.path))?.body);

describe('/conference digest', () => {
  it('schedules a channel’s digest in a zone on chosen days, lists it and turns it off', async () => {
    const set = await f.command('digest at 9:00 weekdays in Asia/Kolkata', people.alice.id, 'CDG');
    expect(String((await replyTo(set.responseUrl)).text)).toContain('at 09:00 Asia/Kolkata, Mon–Fri');
    const [saved] = await f.store.digestSchedules('CDG');
    expect(saved).toMatchObject({
      zone: 'Asia/Kolkata',
      time: '09:00',
      weekdays: [1, 2, 3, 4, 5],
      createdBy: people.alice.id,
    });
    // Without a zone: the zone of the person who sets it up (Bob is in Tokyo).
    await replyTo((await f.command('digest at 6pm daily', people.bob.id, 'CDG')).responseUrl);
    expect((await f.store.digestSchedules('CDG')).map((s) => [s.time, s.zone])).toEqual([
      ['09:00', 'Asia/Kolkata'],
      ['18:00', 'Asia/Tokyo'],
    ]);
    const list = await f.command('digest list', people.alice.id, 'CDG');
    expect(String((await replyTo(list.responseUrl)).text)).toMatch(
      /09:00 Asia\/Kolkata, Mon–Fri[\s\S]*18:00 Asia\/Tokyo, every day/,
    );
    const off = await f.command('digest off', people.alice.id, 'CDG');
    expect(String((await replyTo(off.responseUrl)).text)).toContain('Removed 2 daily digests');
    expect(await f.store.digestSchedules('CDG')).toEqual([]);
  });

  it('says what to fix in a time, days or zone it cannot read, and saves nothing', async () => {
    for (const [text, fix] of [
      ['digest at 25:00', 'could not read the time'],
      ['digest at 9 on fridays', 'could not read the days'],
      ['digest at 9 daily in Mars/Olympus', 'not a time zone I know'],
    ]) {
      const r = await f.command(text as string, people.alice.id, 'CDX');
      expect(String((await replyTo(r.responseUrl)).text)).toContain(fix);
    }
    expect(await f.store.digestSchedules('CDX')).toEqual([]);
  });

  it('previews the digest privately with the platform’s figures', async () => {
    const from = f.platform.sim.requests.length;
    const r = await f.command('digest now', people.admin.id, 'CDP');
    const reply = await replyTo(r.responseUrl);
    // The preview has no chart: it reads the day and the 7 before (the text's trend), never 14.
    const days = f.platform.sim.requests.slice(from).filter((q) => q.path.includes('/statistics'));
    expect(days.length).toBeGreaterThan(0);
    expect(days.length).toBeLessThanOrEqual(8);
    expect(reply.response_type).toBe('ephemeral');
    const blocks = JSON.stringify(reply.blocks);
    expect(blocks).toContain('Daily digest');
    expect(blocks).toContain('A preview, only you can see it.');
    expect(blocks).toContain('*Sessions*');
  });

  it('opens a form for a new digest and for editing one; problems show under their inputs', async () => {
    const form = async () =>
      eventually(() =>
        [...f.slack.views.values()].map((v) => v.view).findLast((v) => v.callback_id === 'digest_form'),
      );
    await f.command('digest', people.bob.id, 'CDF');
    const view = await form();
    expect(JSON.stringify(view)).toContain('Asia/Tokyo'); // the person's zone by default
    const bad = await f.interact(
      submission(
        view,
        people.bob.id,
        formState(view, { zone: 'Mars/Olympus', days: { selected_options: [] } }),
      ),
    );
    expect(bad.body).toMatchObject({
      response_action: 'errors',
      errors: { zone: expect.stringContaining('not a time zone'), days: 'Pick at least one day.' },
    });
    expect(await f.store.digestSchedules('CDF')).toEqual([]);
    const ok = await f.interact(
      submission(view, people.bob.id, formState(view, { time: { selected_time: '07:45' } })),
    );
    expect(ok.status).toBe(200);
    const [saved] = await eventually(async () => {
      const list = await f.store.digestSchedules('CDF');
      return list.length ? list : undefined;
    });
    expect(saved).toMatchObject({ time: '07:45', zone: 'Asia/Tokyo', weekdays: [1, 2, 3, 4, 5, 6, 7] });
    // Edit it: same schedule, new days.
    await f.command(`digest edit ${saved?.id.slice(0, 8)}`, people.bob.id, 'CDF');
    const edit = await eventually(async () => {
      const v = await form();
      return v !== view && String(v.private_metadata).includes(String(saved?.id)) ? v : undefined;
    });
    await f.interact(
      submission(
        edit,
        people.bob.id,
        formState(edit, { days: { selected_options: [{ value: '6' }, { value: '7' }] } }),
      ),
    );
    await eventually(async () => (await f.store.digestSchedules('CDF'))[0]?.weekdays.join() === '6,7');
    expect((await f.store.digestSchedules('CDF')).map((s) => s.id)).toEqual([saved?.id]);
  });
});
