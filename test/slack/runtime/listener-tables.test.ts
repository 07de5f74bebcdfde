import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { ListenerTables } from '../../../src/slack/runtime/listener-tables.js';

/** An app that keeps what Bolt would be given: each kind's constraint and listener. */
function fakeApp() {
  const installed = new Map<string, { constraint: RegExp; listener: (args: unknown) => Promise<unknown> }>();
  const app = Object.fromEntries(
    ['command', 'view', 'shortcut', 'options', 'event'].map((kind) => [
      kind,
      (constraint: RegExp, listener: (args: unknown) => Promise<unknown>) =>
        installed.set(kind, { constraint, listener }),
    ]),
  ) as unknown as App;
  return { app, installed };
}

describe('one Bolt listener per kind of request', () => {
  it('matches exactly the ids the registrars named and calls that id’s handler with Bolt’s arguments', async () => {
    const t = new ListenerTables();
    const seen: string[] = [];
    t.listeners.view('ticket_form', (async () => void seen.push('ticket form')) as never);
    t.listeners.view('people.search+1', (async () => void seen.push('people')) as never);
    t.listeners.event('app_home_opened', (async () => void seen.push('home')) as never);
    t.listeners.command(
      '/ticket',
      (async (args: { command: { text: string } }) => void seen.push(`ticket ${args.command.text}`)) as never,
    );
    const { app, installed } = fakeApp();
    t.install(app);
    expect([...installed.keys()].sort()).toEqual(['command', 'event', 'view']);
    const view = installed.get('view');
    expect(view?.constraint.test('ticket_form')).toBe(true);
    expect(view?.constraint.test('ticket_form_x')).toBe(false);
    expect(view?.constraint.test('people.search+1')).toBe(true);
    expect(view?.constraint.test('peopleXsearch1')).toBe(false); // no id is read as a pattern
    await view?.listener({ body: { view: { callback_id: 'people.search+1' } } });
    await installed.get('event')?.listener({ body: { event: { type: 'app_home_opened' } } });
    await installed.get('command')?.listener({ body: { command: '/ticket' }, command: { text: 'help' } });
    expect(seen).toEqual(['people', 'home', 'ticket help']);
  });

  it('runs every handler of an id, as Bolt runs every listener that matches', async () => {
    const t = new ListenerTables();
    const seen: string[] = [];
    t.listeners.event('app_home_opened', (async () => void seen.push('a')) as never);
    t.listeners.event('app_home_opened', (async () => void seen.push('b')) as never);
    const { app, installed } = fakeApp();
    t.install(app);
    await installed.get('event')?.listener({ body: { event: { type: 'app_home_opened' } } });
    expect(seen.sort()).toEqual(['a', 'b']);
  });

  it('refuses what it cannot route: a pattern, or more than one handler', () => {
    const t = new ListenerTables();
    expect(() => t.listeners.view(/x/ as never, (async () => undefined) as never)).toThrow(/one id/);
    expect(() =>
      t.listeners.view('x', (async () => undefined) as never, (async () => undefined) as never),
    ).toThrow(/one handler/);
  });
});

describe('the steps’ table (function_executed, by callback id)', () => {
  const install = (t: ListenerTables) => {
    const events: { name: unknown; listener: (args: unknown) => Promise<unknown> }[] = [];
    t.install({
      event: (name: unknown, listener: (args: unknown) => Promise<unknown>) =>
        events.push({ name, listener }),
    } as unknown as App);
    return events;
  };
  const args = (callbackId: string, seen: string[]) => ({
    body: { event: { type: 'function_executed', function: { callback_id: callbackId } } },
    ack: async () => void seen.push('ack'),
    fail: async (p: { error: string }) => void seen.push(`fail: ${p.error}`),
  });

  it('is one function_executed listener that acks, then calls the step of the event’s callback id', async () => {
    const t = new ListenerTables();
    const seen: string[] = [];
    t.listeners.function('open_ticket', (async () => void seen.push('open ticket')) as never);
    t.listeners.function('move_ticket', (async () => void seen.push('move ticket')) as never);
    const events = install(t);
    expect(events.map((e) => e.name)).toEqual(['function_executed']);
    await events[0]?.listener(args('move_ticket', seen));
    expect(seen).toEqual(['ack', 'move ticket']);
  });

  it('acks and fails a step it does not serve, so the workflow does not hang', async () => {
    const t = new ListenerTables();
    const seen: string[] = [];
    t.listeners.function('open_ticket', (async () => void seen.push('open ticket')) as never);
    await install(t)[0]?.listener(args('delete_everything', seen));
    expect(seen).toEqual([
      'ack',
      'fail: This step is not served by this version of confdesk: update the app.',
    ]);
  });
});
