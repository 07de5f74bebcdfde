import { describe, expect, it } from 'vitest';
import { endpoints } from '../../src/platform/endpoints.js';
import {
  conferenceRecord,
  listOfRecords,
  ticketEventRecord,
  ticketRecord,
  timestamp,
} from '../../src/platform/schemas.js';

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
