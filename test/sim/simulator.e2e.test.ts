import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/sim/server.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator({ rateLimit: 0 });
});
afterAll(() => sim.close());

const api = (path: string, init: RequestInit & { token?: string | null } = {}) => {
  const token = init.token === undefined ? sim.adminToken : init.token;
  return fetch(`${sim.url}${path}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as object) },
  });
};

describe('authentication', () => {
  it('refuses requests without a token, with a bad one, and with an expired one', async () => {
    expect((await api('/api/v3/users/me', { token: null })).status).toBe(401);
    expect((await api('/api/v3/users/me', { token: 'forged' })).status).toBe(401);
    const token = sim.tokenFor('bob', 1);
    expect((await api('/api/v3/users/me', { token })).status).toBe(200);
    sim.expireTokens();
    const expired = await api('/api/v3/users/me', { token });
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error: string }).error).toMatch(/expired/);
  });

  it('keeps password reset public', async () => {
    const res = await api('/api/v3/users/password/reset?login=bob', { method: 'POST', token: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('OK');
  });

  it('accepts a JSON body as legacy clients send it', async () => {
    const res = await api('/api/v3/token', {
      method: 'POST',
      token: null,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carol', password: 'demo-password' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { expires_in: number }).expires_in).toBe(86_400);
  });
});

describe('rate limit', () => {
  it('answers 429 with {error}, X-RateLimit-Reset and X-RateLimit-Remaining past the per-user budget', async () => {
    const limited = await createSimulator({ rateLimit: 3 });
    try {
      const token = limited.tokenFor('alice');
      const call = () =>
        fetch(`${limited.url}/api/v3/users/me`, { headers: { authorization: `Bearer ${token}` } });
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) remaining.push((await call()).headers.get('x-ratelimit-remaining'));
      expect(remaining).toEqual(['2', '1', '0']);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThan(50);
      expect(await refused.json()).toMatchObject({ error: 'Rate limit exceeded: 3 requests per minute' });
      // Another user has a budget of its own.
      const other = limited.tokenFor('bob');
      const res = await fetch(`${limited.url}/api/v3/users/me`, {
        headers: { authorization: `Bearer ${other}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('fault injection at runtime', () => {
  it('sets latency, errors and storms through the admin route, which needs the admin token', async () => {
    const forbidden = await api('/_sim/faults?latencyMs=1', { method: 'PUT', token: sim.tokenFor('alice') });
    expect(forbidden.status).toBe(403);
    await api('/_sim/faults?latencyMs=150&errorRate=1&errorStatus=502', { method: 'PUT' });
    const started = Date.now();
    const res = await api('/api/v3/users/me');
    expect(res.status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await api('/_sim/faults?latencyMs=0&errorRate=0&rateLimitStorm=true&stormResetSeconds=7', {
      method: 'PUT',
    });
    const storm = await api('/api/v3/users/me');
    expect(storm.status).toBe(429);
    expect(storm.headers.get('x-ratelimit-reset')).toBe('7');
    await api('/_sim/faults?rateLimitStorm=false', { method: 'PUT' });
    expect((await api('/api/v3/users/me')).status).toBe(200);
  });
});

describe('tickets over time', () => {
  it('produces timeline events shaped as the real ones when a guest joins and leaves', async () => {
    const created = (await (
      await api('/api/v3/tickets?email=guest.one@example.com&agent=alice', { method: 'POST' })
    ).json()) as {
      id: number;
      modified: string;
    };
    await api(`/_sim/tickets/${created.id}/guest-join`, { method: 'POST' });
    await api(`/_sim/tickets/${created.id}/session-end`, { method: 'POST' });
    const events = (await (await api(`/api/v3/tickets/${created.id}/events`)).json()) as {
      id: string;
      eventName: string;
      timestamp: string;
      source: string;
      data: Record<string, unknown>;
    }[];
    expect(events.map((e) => e.eventName)).toEqual([
      'ticket.new',
      'ticket.assigned',
      'ticket.invitationClicked',
      'consent.accepted',
      'mediaDevice.allowed',
      'session.established',
      'session.agentContacted',
      'ticket.sessionStarted',
      'session.userLeft',
      'session.agentLeft',
    ]);
    for (const e of events) {
      expect(typeof e.id).toBe('string');
      expect(e.timestamp).toMatch(/\+00:00$/);
      expect(['agent', 'guest', 'system']).toContain(e.source);
    }
    expect(events[1]?.data.agent).toMatchObject({ email: 'alice@acme.example', firstname: 'Alice' });
    const ticket = (await (await api(`/api/v3/tickets/${created.id}`)).json()) as {
      state: string;
      modified: string;
    };
    expect(ticket.state).toBe('inprogress');
    expect(Date.parse(ticket.modified)).toBeGreaterThanOrEqual(Date.parse(created.modified));
  });

  it('makes random activity happen on demand', async () => {
    const before = [...sim.state.tickets.values()].reduce((n, t) => n + t.events.length, 0);
    const res = await api('/_sim/activity?count=3', { method: 'POST' });
    expect(((await res.json()) as string[]).length).toBe(3);
    expect([...sim.state.tickets.values()].reduce((n, t) => n + t.events.length, 0)).toBeGreaterThan(before);
  });
});

describe('webhooks', () => {
  it('posts {event,time,object,objectId,props} with the secret header for ticket changes and new events', async () => {
    const received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await api(`/_sim/webhook?url=${encodeURIComponent(url)}&secret=s3cret&header=X-Hook-Key`, {
        method: 'PUT',
      });
      const t = (await (await api('/api/v3/tickets?phone=%2B33612345678', { method: 'POST' })).json()) as {
        id: number;
      };
      await api(`/api/v3/tickets/${t.id}?state=open`, { method: 'PUT' });
      await new Promise((r) => setTimeout(r, 200));
      const ticketUpdates = received.filter((r) => r.body.object === 'ticket' && r.body.objectId === t.id);
      expect(ticketUpdates.map((r) => r.body.event)).toContain('create');
      expect(ticketUpdates.find((r) => r.body.event === 'update')?.body.props).toMatchObject({
        state: 'open',
      });
      const timeline = received.filter((r) => r.body.object === 'conversationevent');
      expect(timeline.map((r) => (r.body.props as { eventName: string }).eventName)).toContain(
        'ticket.approved',
      );
      for (const r of received) {
        expect(r.headers['x-hook-key']).toBe('s3cret');
        expect(r.headers['user-agent']).toBe('Cloud Apizee');
        expect(typeof r.body.time).toBe('number');
      }
    } finally {
      await api('/_sim/webhook', { method: 'DELETE' });
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('npm run sim', () => {
  const sim = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'sim', '--', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => {
        stdout += c;
      });
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('--help prints every option docs/simulator.md names, and exits 0; an unknown option: one line and the options, exit 2', async () => {
    const help = await sim('--help');
    expect(help, help.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: npm run sim -- \[options\]/);
    const docs = readFileSync('docs/simulator.md', 'utf8');
    const paragraph = docs.slice(docs.indexOf('Options: '), docs.indexOf('\n\n', docs.indexOf('Options: ')));
    const named = [...new Set([...paragraph.matchAll(/--[a-z-]+/g)].map((m) => m[0]))];
    expect(named.length).toBeGreaterThan(10);
    for (const option of [...named, '--help'])
      expect(help.stdout, option).toMatch(new RegExp(`^ +(-h, )?${option}\\b`, 'm'));

    const unknown = await sim('--bogus');
    expect(unknown.code).toBe(2);
    const [first, blank, ...rest] = unknown.stderr.trim().split('\n');
    expect(first).toMatch(/^Unknown option '--bogus'/);
    expect(blank).toBe('');
    expect(rest.join('\n')).toBe(help.stdout.trim());
    expect(unknown.stderr).not.toMatch(/^\s+at /m);
  });

  it('prints its URL and admin token, and answers GET /api/v3/users/me with that token', async () => {
    const child = spawn(
      'npm',
      ['run', 'sim', '--', '--port', '0', '--token', 'cli-token', '--rate-limit', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
          const m = /PLATFORM_URL=(\S+)/.exec(out);
          if (m && out.includes('PLATFORM_TOKEN=cli-token')) resolve(m[1] as string);
        });
        child.on('exit', (code) => reject(new Error(`sim exited ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/api/v3/users/me`, { headers: { authorization: 'Bearer cli-token' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { username: string }).username).toBe('admin');
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
  });
});
