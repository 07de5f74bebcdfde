import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildDigest } from '../../src/blocks/digest.js';
import { createPlatformClient } from '../../src/platform/client.js';
import { endpoints } from '../../src/platform/endpoints.js';
import { describeErrorBody, PlatformHttpError, PlatformResponseError } from '../../src/platform/errors.js';
import { conferenceJoinLink, ticketJoinLinks } from '../../src/platform/join-links.js';
import {
  conferenceRecord,
  listOfRecords,
  ticketEventRecord,
  ticketRecord,
  timestamp,
} from '../../src/platform/schemas.js';
import { startPlatform } from '../helpers/platform.js';

/* The record examples of platform-facts.md, and the variations the real service is known to send. */

describe('tolerant parsing of real-service records', () => {
  it('reads the confirmed ticket example and keeps unknown fields', () => {
    const t = ticketRecord.parse({
      id: 82070,
      state: 'invited',
      reference: '1234',
      created: '2020-01-01T11:30:00+00:00',
      modified: '2020-01-01T11:31:00+00:00',
      start_time: '2020-01-02T09:00:00+00:00',
      end_time: '2020-01-02T09:30:00+00:00',
      join_url_guest: 'https://x.example/g',
    });
    expect(t.id).toBe(82070);
    expect(t.created?.toISOString()).toBe('2020-01-01T11:30:00.000Z');
    expect(t.end_time?.toISOString()).toBe('2020-01-02T09:30:00.000Z');
    expect(t.join_url_guest).toBe('https://x.example/g');
  });

  it('accepts requestor.phone as a string or an array, agent as id, username or object, and nulls', () => {
    const a = ticketRecord.parse({ id: 1, requestor: { phone: '+33612345678' }, agent: 'alice', type: null });
    const b = ticketRecord.parse({ id: '2', requestor: { phone: ['+1', '+2'] }, agent: { email: 'a@b.c' } });
    expect(a.requestor?.phone).toEqual(['+33612345678']);
    expect(a.type).toBeUndefined();
    expect(b.requestor?.phone).toEqual(['+1', '+2']);
    expect(b.agent).toMatchObject({ email: 'a@b.c' });
  });

  it('keeps unknown states such as opened and updated (webhooks send them)', () => {
    expect(ticketRecord.parse({ id: 3, state: 'opened' }).state).toBe('opened');
    expect(ticketRecord.parse({ id: 4, state: 'updated' }).state).toBe('updated');
  });

  it('reads the confirmed event record, with unknown event names and payloads', () => {
    const e = ticketEventRecord.parse({
      id: 'a1b2',
      eventName: 'geo.ansAllowed',
      timestamp: '2021-05-05T10:00:00+00:00',
      source: 'guest',
      data: { geoloc: { lat: 48.8, lng: 2.3 } },
    });
    expect(e.data?.geoloc).toEqual({ lat: 48.8, lng: 2.3 });
    const unknown = ticketEventRecord.parse({
      id: 7,
      eventName: 'brand.newThing',
      timestamp: '2021-05-05T10:00:00Z',
    });
    expect(unknown.id).toBe('7');
    expect(unknown.eventName).toBe('brand.newThing');
  });

  it('reads the conference "Good case" and the legacy list item', () => {
    const c = conferenceRecord.parse({
      id: 1000,
      service_key: 'abc',
      name: 'Conference-2020-01-01 12:30:00 (GMT +01:00)',
      created: '2020-01-01T11:30:00+00:00',
      modified: '2020-01-01T11:30:00+00:00',
    });
    expect(c.name).toMatch(/^Conference-/);
    const legacy = conferenceRecord.parse({ id: 5, url: 'https://x/join', created_by: { name: 'Ada' } });
    expect(legacy.url).toBe('https://x/join');
    expect(legacy.created_by).toEqual({ name: 'Ada' });
  });

  it('reads timestamps with Z, with +00:00, with another offset, and the legacy space form', () => {
    const iso = (v: string) => timestamp.parse(v).toISOString();
    expect(iso('2020-01-01T11:30:00Z')).toBe('2020-01-01T11:30:00.000Z');
    expect(iso('2020-01-01T11:30:00+00:00')).toBe('2020-01-01T11:30:00.000Z');
    expect(iso('2020-01-01T12:30:00+01:00')).toBe('2020-01-01T11:30:00.000Z');
    expect(iso('2020-01-01 11:30:00')).toBe('2020-01-01T11:30:00.000Z');
    expect(timestamp.safeParse('yesterday').success).toBe(false);
  });

  it('accepts a list as a bare array or as the legacy envelope', () => {
    const list = listOfRecords(ticketRecord);
    expect(list.parse([{ id: 1 }, { id: 2 }])).toMatchObject({
      items: [{ id: 1 }, { id: 2 }],
      total: undefined,
    });
    expect(list.parse({ data: [{ id: 1 }], total: 5, next_offset: 1 })).toMatchObject({
      items: [{ id: 1 }],
      total: 5,
      nextOffset: 1,
    });
    expect(list.parse({ data: [], total: 0, next_offset: null }).nextOffset).toBeUndefined();
  });

  it('reads the id answers of user create/update in the shapes they may take', () => {
    const id = endpoints.updateUser.output;
    expect(id.parse(12)).toEqual({ id: 12 });
    expect(id.parse({ id: 12, extra: true })).toMatchObject({ id: 12 });
    expect(id.parse({ userId: 12 })).toMatchObject({ id: 12 });
  });

  it('marks every inferred wire name in the endpoint table', () => {
    const ticketOps = Object.entries(endpoints).filter(
      ([, e]) => e.path.includes('/tickets') && e.method !== 'GET',
    );
    for (const [name, e] of ticketOps) {
      if (name === 'listTicketEvents') continue;
      expect('inferred' in e ? e.inferred : undefined, name).toBeTruthy();
    }
  });
});

/* Shapes the real service may send (issue 12, section 1). */

describe('the enterprise id of /users/me, wherever it is', () => {
  const me = endpoints.getMe.output;
  it('is read from enterprise_id, enterpriseId or enterprise.id, normalised to a number, with its field', () => {
    expect(me.parse({ id: 1, enterprise_id: 7 })).toMatchObject({
      enterprise_id: 7,
      enterprise_id_field: 'enterprise_id',
    });
    expect(me.parse({ id: 1, enterpriseId: '7' })).toMatchObject({
      enterprise_id: 7,
      enterprise_id_field: 'enterpriseId',
    });
    expect(me.parse({ id: 1, enterprise: { id: 7, name: 'Acme' } })).toMatchObject({
      enterprise_id: 7,
      enterprise_id_field: 'enterprise.id',
    });
    // The snake-case field wins over the others; junk in it does not.
    expect(me.parse({ id: 1, enterprise_id: 'n/a', enterpriseId: 9 }).enterprise_id).toBe(9);
  });

  it('without any of them, is a PlatformResponseError whose sentence names what to check', async () => {
    const server = await serve(200, JSON.stringify({ id: 1, username: 'admin', enterprise: [] }));
    const client = createPlatformClient({ baseUrl: server.url, credentials: { kind: 'token', token: 't' } });
    try {
      const error = await client.getMe().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PlatformResponseError);
      const e = error as PlatformResponseError;
      expect(e.message).toContain('enterprise_id, enterpriseId, enterprise.id');
      expect(e.userMessage).toMatch(/cannot use: .*check that PLATFORM_URL/);
      expect(client.findings.snapshot().enterpriseIdField).toBeUndefined();
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('records where it was found, once the profile is read (enterpriseId on the quirky simulator)', async () => {
    const p = await startPlatform({ quirks: { camelEnterpriseId: true } });
    try {
      expect((await p.client.getMe()).enterprise_id).toBe(1);
      expect(p.client.findings.snapshot().enterpriseIdField).toBe('enterpriseId');
    } finally {
      await p.close();
    }
  });
});

describe('[] where an object is expected (a PHP backend’s empty object)', () => {
  it('is read as nothing: event data, requestor, agent, moderator, statistics, report', () => {
    expect(
      ticketEventRecord.parse({ id: 1, eventName: 'x', timestamp: '2021-05-05T10:00:00Z', data: [] }).data,
    ).toEqual({});
    const t = ticketRecord.parse({ id: 1, requestor: [], agent: [] });
    expect(t.requestor).toBeUndefined();
    expect(t.agent).toBeUndefined();
    expect(conferenceRecord.parse({ id: 1, moderator: [], created_by: [] }).moderator).toBeUndefined();
    expect(endpoints.getStatistics.output.parse([])).toEqual({});
    expect(endpoints.getTicketsReport.output.parse([])).toEqual({});
    // A non-empty array is not an object: still refused.
    expect(ticketEventRecord.safeParse({ id: 1, eventName: 'x', timestamp: 1, data: [1] }).success).toBe(
      false,
    );
  });

  it('lets a digest say "not available" for statistics sent as []', () => {
    const stats = endpoints.getStatistics.output.parse([]);
    const digest = buildDigest(
      {
        date: '2027-03-25',
        days: [{ date: '2027-03-25', stats }],
        report: endpoints.getTicketsReport.output.parse({
          total: 0,
          by_state: [],
          by_agent: [],
          by_group: [],
        }),
        missing: [],
      },
      { locale: 'en' },
    );
    const text = JSON.stringify(digest.blocks);
    expect(text).toContain('not available: the platform did not give it');
    expect(text).toContain('*Tickets created*: 0');
  });
});

describe('join links, from one place', () => {
  const seen = () => {
    const fields: Record<string, string> = {};
    return {
      fields,
      joinLinkField: (kind: string, field: string) => {
        fields[kind] = field;
      },
    };
  };

  it('finds them under the guessed names, camelCase variants and nested under links/urls', () => {
    const o = seen();
    expect(ticketJoinLinks({ agent_url: 'https://a', guest_url: 'https://g' }, o)).toEqual({
      agentUrl: 'https://a',
      guestUrl: 'https://g',
    });
    expect(o.fields).toEqual({ 'ticket.agent': 'agent_url', 'ticket.guest': 'guest_url' });
    expect(ticketJoinLinks({ agentUrl: 'https://a', join_url_guest: 'https://g' })).toEqual({
      agentUrl: 'https://a',
      guestUrl: 'https://g',
    });
    const n = seen();
    expect(ticketJoinLinks({ links: { agent: 'https://a', guest: 'http://g' } }, n)).toEqual({
      agentUrl: 'https://a',
      guestUrl: 'http://g',
    });
    expect(n.fields).toEqual({ 'ticket.agent': 'links.agent', 'ticket.guest': 'links.guest' });
    expect(ticketJoinLinks({ urls: { join: 'https://j' } }).agentUrl).toBe('https://j');
    const c = seen();
    expect(conferenceJoinLink({ joinLink: 'https://c' }, c)).toBe('https://c');
    expect(c.fields).toEqual({ conference: 'joinLink' });
    expect(conferenceJoinLink({ url: 'https://u' })).toBe('https://u');
    expect(conferenceJoinLink({ links: { join_url: 'https://n' } })).toBe('https://n');
  });

  it('takes only http(s) values, and nothing when there is none', () => {
    const o = seen();
    expect(
      ticketJoinLinks({ agent_url: 'javascript:alert(1)', guest_url: '', links: [], url: 'ftp://x' }, o),
    ).toEqual({ agentUrl: undefined, guestUrl: undefined });
    expect(o.fields).toEqual({});
    expect(conferenceJoinLink({ url: '/relative/join', link: { join: 42 } })).toBeUndefined();
  });
});

describe('error bodies in words', () => {
  it('reads error/message/detail(s) of JSON bodies, nested or listed', () => {
    expect(describeErrorBody({ error: 'Rate limit exceeded' })).toBe('Rate limit exceeded');
    expect(
      describeErrorBody({ code: 400, message: 'Bad', details: [{ field: 'email', message: 'invalid' }] }),
    ).toBe('Bad — email: invalid');
    expect(describeErrorBody({ error: { code: 'x', message: 'Token expired' } })).toBe('Token expired');
    expect(describeErrorBody({ detail: 'Not here' })).toBe('Not here');
    expect(describeErrorBody({})).toBeUndefined();
  });

  it('reads an HTML page by its title, or its text without markup', () => {
    const page =
      '<!DOCTYPE html><html><head><title>404 Not Found</title><style>p{}</style></head><body><h1>Oops</h1></body></html>';
    expect(describeErrorBody(page)).toBe('404 Not Found');
    expect(
      describeErrorBody(
        '<html><body><h1>Bad&nbsp;Gateway</h1><script>x()</script><p>nginx</p></body></html>',
      ),
    ).toBe('Bad Gateway nginx');
  });

  it('names the fix: a web page for a 404 means PLATFORM_URL is wrong; an empty body says so', () => {
    const html = new PlatformHttpError('getMe', 404, '<html><head><title>Not Found</title></head></html>');
    expect(html.userMessage).toContain(
      'check PLATFORM_URL (it should end in the host, e.g. https://cloud.apizee.com)',
    );
    expect(html.userMessage).not.toContain('<');
    expect(new PlatformHttpError('getTicket', 404, { error: 'Resource Not Found' }).userMessage).toBe(
      'The video platform has no such item: it may have been deleted.',
    );
    expect(new PlatformHttpError('getTicket', 404, undefined).userMessage).toContain(
      'If this happens for everything',
    );
    expect(new PlatformHttpError('x', 418, undefined).userMessage).toMatch(/418 HTTP 418 without saying why/);
    expect(new PlatformHttpError('x', 400, { message: 'email: invalid' }).userMessage).toBe(
      'The video platform refused the request (email: invalid).',
    );
    expect(new PlatformHttpError('x', 302, '<html><title>Moved</title></html>').userMessage).toContain(
      'PLATFORM_URL',
    );
  });

  it('turns a real HTML 404 (a wrong PLATFORM_URL path) into that sentence through the client', async () => {
    const server = await serve(
      404,
      '<html><head><title>404 Not Found</title></head><body>nginx</body></html>',
    );
    const client = createPlatformClient({
      baseUrl: `${server.url}/wrong/path`,
      credentials: { kind: 'token', token: 't' },
    });
    try {
      const e = (await client.getMe().catch((x: unknown) => x)) as PlatformHttpError;
      expect(e).toBeInstanceOf(PlatformHttpError);
      expect(e.detail).toBe('404 Not Found');
      expect(e.userMessage).toContain('check PLATFORM_URL');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** A real HTTP server that answers every request with this status and body. */
async function serve(status: number, body: string) {
  const server = createServer((_req, res) => {
    res
      .writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'application/json' })
      .end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
