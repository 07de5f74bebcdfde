import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/sim/server.js';

/* The simulator's shape quirks, read on the wire (the client's tolerance of them is tested elsewhere). */

let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator({
    rateLimit: 0,
    quirks: { emptyObjectsAsArrays: true, camelEnterpriseId: true, pageCap: 2, unknownJoinLinkNames: true },
  });
});
afterAll(() => sim.close());

type Json = Record<string, unknown>;
const get = async (path: string) =>
  (await (
    await fetch(`${sim.url}${path}`, { headers: { authorization: `Bearer ${sim.adminToken}` } })
  ).json()) as Json;

describe('the shape quirks', () => {
  it('writes the enterprise id of /users/me only as enterpriseId', async () => {
    const me = await get('/api/v3/users/me');
    expect(me.enterpriseId).toBe(1);
    expect(me.enterprise_id).toBeUndefined();
    expect((me.enterprise as Json).id).toBeUndefined();
  });

  it('writes empty objects as [], and join links under links/joinLink', async () => {
    const t = [...sim.state.tickets.values()][0];
    if (!t) throw new Error('seeded tickets');
    sim.state.addEvent(t, 'quirk.empty', 'system');
    const events = (await get(`/api/v3/tickets/${t.id}/events?limit=1000`)) as unknown as Json[];
    expect(events).toHaveLength(2); // capped
    const all: Json[] = [];
    for (let offset = 0; ; offset += 2) {
      const page = (await get(`/api/v3/tickets/${t.id}/events?offset=${offset}`)) as unknown as Json[];
      if (!page.length) break;
      all.push(...page);
    }
    expect(all.find((e) => e.eventName === 'quirk.empty')?.data).toEqual([]);
    const wire = await get(`/api/v3/tickets/${t.id}`);
    expect(wire.agent_url).toBeUndefined();
    expect((wire.links as Json).agent).toMatch(/\/assist\/\d+\/agent$/);
    const conference = await get(`/api/v3/conferences/${[...sim.state.conferences.keys()][0]}`);
    expect(conference.url).toBeUndefined();
    expect(conference.joinLink).toMatch(/^http:\/\/.*\/join\//);
  });

  it('caps every list, the envelope keeping total and next_offset', async () => {
    const users = (await get('/api/v3/enterprises/1/users?limit=100')) as unknown as Json[];
    expect(users).toHaveLength(2);
    const tickets = await get('/api/v3/tickets?user=all&limit=50');
    expect(tickets.data).toHaveLength(2);
    expect(tickets.next_offset).toBe(2);
    expect(tickets.total).toBeGreaterThan(2);
  });
});
