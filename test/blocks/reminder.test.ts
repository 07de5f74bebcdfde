import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit } from '../../src/blocks/limits.js';
import {
  buildReminder,
  buildReminderSettings,
  inviteesShown,
  joinButtonUrl,
  reminderChoiceOf,
} from '../../src/blocks/reminder.js';

const start = new Date('2027-03-26T10:10:00Z');
const json = (v: unknown) => JSON.stringify(v);

describe('a conference reminder in a person’s DM', () => {
  it('shows the title as text, the start as a date token, and a Join link button', () => {
    const m = buildReminder('en', {
      title: '<!channel> *Weekly* & <https://evil.example|click>',
      start,
      leadMinutes: 10,
      joinUrl: 'https://video.example/join/abc',
    });
    expect(m.text).toContain('&lt;!channel&gt;');
    expect(m.text).not.toContain('<!channel>');
    expect(json(m)).not.toContain('<https://evil.example');
    expect(json(m.blocks)).toContain(`<!date^${start.getTime() / 1000}^{date_short_pretty} at {time}|`);
    expect(json(m.blocks)).toContain('* starts <!date^');
    const join = m.blocks.flatMap((b) => (b.type === 'actions' ? b.elements : []))[0] as unknown as Record<
      string,
      unknown
    >;
    expect(join).toMatchObject({
      action_id: ids.actions.reminderJoin,
      url: 'https://video.example/join/abc',
    });
    expect(checkBlockKit(m, 'message')).toEqual([]);
  });

  it('gives no Join button for a link that is not https (http only on loopback), and says so', () => {
    for (const bad of [
      'javascript:alert(1)',
      'http://video.example/j',
      'https://u:p@video.example/',
      'not a url',
      `https://x.example/${'a'.repeat(3000)}`,
    ])
      expect(joinButtonUrl(bad)).toBeUndefined();
    expect(joinButtonUrl('http://127.0.0.1:8080/join/x')).toBe('http://127.0.0.1:8080/join/x');
    const m = buildReminder('en', { title: 'Weekly', start, leadMinutes: 5, joinUrl: 'javascript:alert(1)' });
    expect(json(m.blocks)).not.toContain('javascript');
    expect(json(m.blocks)).toContain('gave no join link');
  });

  it('tells only the moderator who was invited: Slack people by mention, the others by the address entered', () => {
    const m = buildReminder('en', {
      title: 'Weekly',
      start,
      leadMinutes: 10,
      invited: { members: ['UANN', 'UBOB'], outside: ['carl@x.example', '<@UFAKE>'] },
    });
    const text = json(m.blocks);
    expect(text).toContain('<@UANN>, <@UBOB>');
    expect(text).toContain('carl@x.example');
    expect(text).toContain('&lt;@UFAKE&gt;');
    expect(text).toContain('only you see this list');
    const plain = buildReminder('en', { title: 'Weekly', start, leadMinutes: 10 });
    expect(json(plain.blocks)).not.toContain('Invited');
  });

  it('names at most so many invitees of each kind and counts the rest, within Block Kit’s limits', () => {
    const many = Array.from({ length: 300 }, (_, i) => `person${i}@example.com`);
    const m = buildReminder('en', {
      title: 'x'.repeat(400),
      start,
      leadMinutes: 30,
      joinUrl: 'https://video.example/j',
      invited: { members: Array.from({ length: 300 }, (_, i) => `U${1000 + i}`), outside: many },
    });
    expect(json(m.blocks)).toContain(`and ${300 - inviteesShown} more`);
    expect(checkBlockKit(m, 'message')).toEqual([]);
  });
});

describe('App Home’s reminder settings', () => {
  it('offers off, each lead time and the conference’s, the person’s own highlighted', () => {
    const blocks = buildReminderSettings('en', { enabled: true, leadMinutes: 15 });
    const buttons = blocks.flatMap((b) => (b.type === 'actions' ? b.elements : [])) as unknown as Record<
      string,
      unknown
    >[];
    expect(buttons.map((b) => b.value)).toEqual(['off', '5', '10', '15', '30', 'default']);
    expect(buttons.filter((b) => b.style === 'primary').map((b) => b.value)).toEqual(['15']);
    expect(buttons.map((b) => b.action_id)).toEqual(
      buttons.map((b) => `${ids.actions.reminderLead}:${b.value}`),
    );
    expect(json(blocks)).toContain('15 minutes before');
    expect(reminderChoiceOf(undefined)).toBe('default');
    expect(reminderChoiceOf({ enabled: false, leadMinutes: 5 })).toBe('off');
    expect(json(buildReminderSettings('en', { enabled: false }))).toContain('Off: no direct message');
  });
});
