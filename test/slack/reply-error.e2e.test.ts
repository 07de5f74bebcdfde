import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { createLogger } from '../../src/observability/logger.js';
import { type BotFixture, buttonClick, eventually, people, submission, useBot } from '../helpers/bot.js';

type Json = Record<string, unknown>;

/** The bot's log lines, as pino writes them. */
const lines: Json[] = [];
const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Json) });

const f = {} as BotFixture;
useBot(f, { logger });

const stale = /out of date or was not made by confdesk/;
const logged = (msg: string, fields: Json) =>
  eventually(() => lines.find((l) => l.msg === msg && Object.entries(fields).every(([k, v]) => l[k] === v)));

describe('one reply for failures, on the surface the person used', () => {
  it('answers a command’s failure privately, with a reference logged beside the user, team and command', async () => {
    f.slack.refuse = (method) => (method === 'chat.postMessage' ? 'fatal_error' : undefined);
    try {
      const res = await f.command('show ACME-1001', people.alice.id, 'CRE1', '/ticket');
      expect(res.status).toBe(200);
      const reply = await eventually(() =>
        f.slack.responses.find(
          (r) => r.path === new URL(res.responseUrl).pathname && /reference/.test(String(r.body.text)),
        ),
      );
      expect(reply.body.response_type).toBe('ephemeral');
      const ref = /reference `([0-9A-F]{6})`/.exec(String(reply.body.text))?.[1];
      expect(ref).toBeDefined();
      await logged('unexpected failure', {
        ref,
        user: people.alice.id,
        team: f.slack.teamId,
        command: '/ticket',
      });
    } finally {
      f.slack.refuse = undefined;
    }
  });

  it('answers a button’s stale value privately in the thread of the message clicked', async () => {
    const before = f.slack.callsOf('chat.postEphemeral').length;
    const click = buttonClick(f.slack, {
      user: people.bob.id,
      actionId: ids.actions.ticketRefresh,
      value: 'not a ticket!',
      channel: 'CRE2',
      ts: '1700000000.000200',
    });
    (click.container as Json).thread_ts = '1700000000.000100';
    const res = await f.interact(click);
    expect(res.status).toBe(200);
    const call = await eventually(() => f.slack.callsOf('chat.postEphemeral').slice(before)[0]);
    expect(call.args).toMatchObject({ channel: 'CRE2', user: people.bob.id, thread_ts: '1700000000.000100' });
    expect(String(call.args.text)).toMatch(stale);
    await logged('request refused', {
      user: people.bob.id,
      team: f.slack.teamId,
      action: ids.actions.ticketRefresh,
      code: 'stale_button',
    });
  });

  it('answers a button on a message outside a thread through its response_url, privately', async () => {
    const click = buttonClick(f.slack, {
      user: people.bob.id,
      actionId: ids.actions.ticketPage,
      value: '{"q": 3}',
      channel: 'CRE3',
    });
    await f.interact(click);
    const reply = await eventually(() =>
      f.slack.responses.find((r) => r.path === new URL(click.response_url).pathname),
    );
    expect(reply.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(reply.body.text)).toMatch(stale);
  });

  it('answers a submission’s failure after the ack in the modal', async () => {
    f.slack.views.set('VRE4', { id: 'VRE4', view: { type: 'modal', callback_id: ids.views.ticketExport } });
    const view = { id: 'VRE4', callback_id: ids.views.ticketExport, private_metadata: 'forged', blocks: [] };
    const res = await f.interact(submission(view, people.alice.id, {}));
    expect(res.body).toMatchObject({ response_action: 'update' });
    const shown = await eventually(() => {
      const v = f.slack.views.get('VRE4')?.view as Json;
      return /The export failed/.test(JSON.stringify(v.blocks ?? [])) && v;
    });
    expect(JSON.stringify(shown.blocks)).toMatch(stale);
    await logged('request refused', { user: people.alice.id, callback: ids.views.ticketExport });
  });

  it('answers a submission refused before its ack in the modal, through app.error', async () => {
    const view = {
      id: 'VRE5',
      callback_id: ids.views.digestForm,
      private_metadata: '{"scheduleId": 3}',
      blocks: [],
    };
    const res = await f.interact(submission(view, people.admin.id, {}));
    expect(res.status).toBe(200);
    const body = res.body as Json;
    expect(body.response_action).toBe('update');
    expect(JSON.stringify(body.view)).toMatch(stale);
    await logged('request refused', {
      user: people.admin.id,
      callback: ids.views.digestForm,
      code: 'stale_button',
    });
  });

  it('answers a listener that throws before its ack, as app.error, with the reference in the ack and the log', async () => {
    f.bot.app.command('/boom', async () => {
      throw new Error('a bug before the ack');
    });
    const res = await f.command('', people.bob.id, 'CRE6', '/boom');
    expect(res.status).toBe(200);
    const body = res.body as Json;
    expect(body.response_type).toBe('ephemeral');
    const ref = /reference `([0-9A-F]{6})`/.exec(String(body.text))?.[1];
    expect(ref).toBeDefined();
    const line = await logged('unexpected failure', {
      ref,
      user: people.bob.id,
      team: f.slack.teamId,
      command: '/boom',
    });
    expect(JSON.stringify(line.err)).toContain('a bug before the ack');
  });
});
