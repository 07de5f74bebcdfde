import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClient, type PlatformClient } from '../../src/platform/client.js';
import { type EndpointName, endpoints } from '../../src/platform/endpoints.js';
import { PlatformError, PlatformHttpError, PlatformInputError } from '../../src/platform/errors.js';
import { clientAs, type PlatformFixture, startPlatform } from '../helpers/platform.js';

/*
 * Every operation of the endpoint table, through the client, against the simulator: one success and
 * at least one error each. The last test checks that none was forgotten.
 */

let fx: PlatformFixture;
let admin: PlatformClient;
let alice: PlatformClient;
let oscar: PlatformClient;
let stranger: PlatformClient;
const outcomes = new Map<EndpointName, Set<'ok' | 'error'>>();
const note = (name: EndpointName, kind: 'ok' | 'error') => {
  const set = outcomes.get(name) ?? new Set();
  set.add(kind);
  outcomes.set(name, set);
};

/** Expects the call to fail with a platform error and records it. */
async function fails<E extends PlatformError>(
  name: EndpointName,
  promise: Promise<unknown>,
  check: (e: E) => void,
): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  check(error as E);
  note(name, 'error');
}
async function ok<T>(name: EndpointName, promise: Promise<T>): Promise<T> {
  const value = await promise;
  note(name, 'ok');
  return value;
}
const status = (n: number, label?: string) => (e: PlatformHttpError) => {
  expect(e).toBeInstanceOf(PlatformHttpError);
  expect(e.status).toBe(n);
  if (label) expect(e.label).toBe(label);
  expect(e.userMessage.length).toBeGreaterThan(10);
};
const lastQuery = (path: string) => [...fx.sim.requests].reverse().find((r) => r.path === path)?.query;

beforeAll(async () => {
  fx = await startPlatform();
  admin = fx.client;
  alice = clientAs(fx.sim, 'alice');
  oscar = clientAs(fx.sim, 'oscar');
  stranger = createPlatformClient({ baseUrl: fx.sim.url, credentials: { kind: 'token', token: 'nope' } });
});
afterAll(async () => {
  await Promise.all([alice.close(), oscar.close(), stranger.close()]);
  await fx.close();
});

describe('authentication endpoints', () => {
  it('exchanges a username and password for a token, and refuses a wrong password', async () => {
    const answer = await ok(
      'createToken',
      admin.createToken({ username: 'alice', password: 'demo-password' }),
    );
    expect(answer.access_token).toMatch(/^sim-/);
    expect(answer.expires_in).toBe(86_400);
    await fails('createToken', admin.createToken({ username: 'alice', password: 'wrong' }), status(401));
  });

  it('revokes a token, which then stops working, and refuses an unknown one', async () => {
    const bob = clientAs(fx.sim, 'bob', { cacheTtlMs: 0 });
    await bob.getMe();
    await ok('revokeToken', bob.revokeToken());
    await expect(bob.getMe()).rejects.toMatchObject({ status: 401 });
    await bob.close();
    await fails('revokeToken', stranger.revokeToken(), status(401, 'Unauthorized'));
  });
});

describe('conferences', () => {
  let created: { id: number | string; room_name?: string | undefined };

  it('creates a conference with every parameter on the query string', async () => {
    const start = new Date('2030-03-04T05:06:07.890Z');
    created = await ok(
      'createConference',
      admin.createConference({
        participants: ['jane@example.com', '+33 6 12 34 56 78'],
        name: 'Planning',
        message: 'See you there',
        password: '12#*',
        moderation: true,
        entryMode: 'open',
        startTime: start,
        open: false,
        duration: 45,
        reminder: 15,
        templateId: 3,
        language: 'en',
        invite: false,
        moderator: 'alice',
        scope: 'sso',
      }),
    );
    expect(created.id).toBeTypeOf('number');
    expect(lastQuery('/api/v3/conferences')).toEqual({
      participants: 'jane@example.com,+33612345678',
      name: 'Planning',
      message: 'See you there',
      password: '12#*',
      moderation: 'true',
      entryMode: 'open',
      startTime: '2030-03-04T05:06:07Z',
      open: 'false',
      duration: '45',
      reminder: '15',
      templateId: '3',
      language: 'en',
      invite: 'false',
      moderator: 'alice',
      scope: 'sso',
    });
  });

  it('refuses creation when the account lacks the conference feature', async () => {
    await fails('createConference', oscar.createConference({ participants: 'a.b@example.com' }), (e) => {
      status(403, 'Forbidden')(e as PlatformHttpError);
      expect((e as PlatformHttpError).detail).toMatch(/conference feature/);
    });
  });

  it('gets a conference by id and by room name, and 404s on an unknown one', async () => {
    const byId = await ok('getConference', admin.getConference({ conferenceId: created.id as number }));
    expect(byId.name).toBe('Planning');
    expect(byId.start_time?.toISOString()).toBe('2030-03-04T05:06:07.000Z');
    const byRoom = await ok('getConference', admin.getConference({ conferenceId: byId.room_name as string }));
    expect(byRoom.id).toBe(byId.id);
    await fails('getConference', admin.getConference({ conferenceId: 999_999 }), status(404, 'Not found'));
  });

  it('updates a conference and 404s on an unknown one', async () => {
    await ok(
      'updateConference',
      admin.updateConference({ conferenceId: created.id as number, name: 'Planning v2' }),
    );
    expect((await admin.getConference({ conferenceId: created.id as number })).name).toBe('Planning v2');
    await fails(
      'updateConference',
      admin.updateConference({ conferenceId: 424242, name: 'x y' }),
      status(404),
    );
  });

  it('lists the enterprise’s conferences for an admin and refuses moderator=all to an agent', async () => {
    const page = await ok('listConferences', admin.listConferences({ moderator: 'all', search: 'planning' }));
    expect(page.items.map((c) => c.name)).toEqual(['Planning v2']);
    expect(page.total).toBe(1);
    await fails('listConferences', alice.listConferences({ moderator: 'all' }), status(403));
  });

  it('lists a conference’s media and 404s on an unknown conference', async () => {
    const all = await admin.listConferences({ moderator: 'all', search: 'Incident review' });
    const review = all.items[0];
    expect(review).toBeDefined();
    const medias = await ok(
      'listConferenceMedias',
      admin.listConferenceMedias({ conferenceId: review?.id as number }),
    );
    expect(medias.items).toHaveLength(1);
    expect(medias.items[0]?.type).toBe('recording');
    await fails('listConferenceMedias', admin.listConferenceMedias({ conferenceId: 31337 }), status(404));
  });

  it('deletes a conference and 404s when it is gone', async () => {
    await ok('deleteConference', admin.deleteConference({ conferenceId: created.id as number }));
    await fails(
      'deleteConference',
      admin.deleteConference({ conferenceId: created.id as number }),
      status(404),
    );
  });
});

describe('users and groups', () => {
  it('reads the profile and refuses a bad token', async () => {
    const me = await ok('getMe', admin.getMe());
    expect(me).toMatchObject({ username: 'admin', role: 'admin', enterprise_id: 1 });
    await fails('getMe', stranger.getMe(), status(401));
  });

  it('lists the enterprise’s users and refuses another enterprise', async () => {
    const users = await ok('listEnterpriseUsers', admin.listEnterpriseUsers({ enterpriseId: 1 }));
    expect(users.items.map((u) => u.username)).toEqual(
      expect.arrayContaining(['admin', 'alice', 'bob', 'carol']),
    );
    await fails('listEnterpriseUsers', admin.listEnterpriseUsers({ enterpriseId: 2 }), status(403));
  });

  let userId: number;
  it('creates a user and refuses a taken username', async () => {
    const answer = await ok(
      'createUser',
      admin.createUser({
        username: 'dave',
        password: 'pw',
        cellPhone: '+33 7 00 00 00 01',
        firstName: 'Dave',
      }),
    );
    userId = Number(answer.id);
    expect(lastQuery('/api/v3/users')).toMatchObject({ username: 'dave', cell_phone: '+33700000001' });
    await fails(
      'createUser',
      admin.createUser({ username: 'dave', password: 'pw', email: 'd@x.io' }),
      status(409),
    );
  });

  it('updates a user with the capital-U Userid parameter, and refuses an agent updating someone else', async () => {
    await ok('updateUser', admin.updateUser({ userId, jobTitle: 'Technician', audioOnly: 1 }));
    expect(lastQuery('/api/v3/users')).toEqual({
      Userid: String(userId),
      jobTitle: 'Technician',
      audioOnly: '1',
    });
    const users = await admin.listEnterpriseUsers({ enterpriseId: 1 });
    expect(users.items.find((u) => u.id === userId)).toMatchObject({ jobTitle: 'Technician', audioOnly: 1 });
    await fails('updateUser', alice.updateUser({ userId, firstName: 'Evil' }), status(403));
  });

  it('finds a user id by e-mail and 404s on an unknown e-mail', async () => {
    const answer = await ok('getUserIdByEmail', admin.getUserIdByEmail({ email: 'bob@acme.example' }));
    expect(answer.id).toBeTypeOf('number');
    await fails('getUserIdByEmail', admin.getUserIdByEmail({ email: 'nobody@acme.example' }), status(404));
  });

  it('deletes a user and 404s when it is gone', async () => {
    await ok('deleteUser', admin.deleteUser({ userId }));
    await fails('deleteUser', admin.deleteUser({ userId }), status(404));
  });

  it('asks for a password reset without authentication, and refuses an empty login before sending', async () => {
    await ok('resetPassword', stranger.resetPassword({ login: 'alice@acme.example' }));
    expect(fx.sim.state.passwordResets.at(-1)?.login).toBe('alice@acme.example');
    const before = fx.sim.requests.length;
    await fails('resetPassword', stranger.resetPassword({ login: '' }), (e) => {
      expect(e).toBeInstanceOf(PlatformInputError);
      expect((e as PlatformInputError).field).toBe('login');
    });
    expect(fx.sim.requests.length).toBe(before);
  });

  it('lists groups and their members, refusing another enterprise and an unknown group', async () => {
    const groups = await ok('listGroups', admin.listGroups({ enterpriseId: 1 }));
    expect(groups.items.map((g) => g.name)).toEqual(['Level 1', 'Level 2']);
    await fails('listGroups', admin.listGroups({ enterpriseId: 2 }), status(403));
    const level1 = groups.items[0]?.id as number;
    const members = await ok(
      'listGroupMembers',
      admin.listGroupMembers({ enterpriseId: 1, groupId: level1 }),
    );
    expect(members.items.map((u) => u.username).sort()).toEqual(['alice', 'bob']);
    await fails('listGroupMembers', admin.listGroupMembers({ enterpriseId: 1, groupId: 9999 }), status(404));
  });
});

describe('media', () => {
  it('lists, gets, downloads, updates and deletes media, with their errors', async () => {
    const list = await ok('listMedias', admin.listMedias({ user: 'all', limit: 50 }));
    expect(list.items.length).toBeGreaterThanOrEqual(3);
    await fails('listMedias', alice.listMedias({ user: 'all' }), status(403));

    const snapshot = list.items.find((m) => m.type === 'snapshot');
    const id = Number(snapshot?.id);
    const media = await ok('getMedia', admin.getMedia({ mediaId: id }));
    expect(media).toMatchObject({ type: 'snapshot', format: 'image/png', status: 'completed' });
    await fails('getMedia', admin.getMedia({ mediaId: 1 }), status(404));

    const download = await ok('downloadMedia', admin.downloadMedia({ mediaId: id }));
    const bytes = Buffer.concat(await download.body.toArray());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(download.contentType).toBe('image/png');
    expect(download.contentLength).toBe(bytes.length);
    expect(download.filename).toBe(media.filename);
    await fails('downloadMedia', admin.downloadMedia({ mediaId: 2 }), status(404));

    await ok(
      'updateMedia',
      admin.updateMedia({ mediaId: id, title: 'Meter reading', lat: 48.85, lng: 2.35 }),
    );
    expect(await admin.getMedia({ mediaId: id })).toMatchObject({
      title: 'Meter reading',
      lat: 48.85,
      lng: 2.35,
    });
    await fails('updateMedia', admin.updateMedia({ mediaId: id, lat: 91 }), (e) => {
      expect((e as PlatformInputError).field).toBe('lat');
    });

    await ok('deleteMedia', admin.deleteMedia({ mediaId: id }));
    await fails('deleteMedia', admin.deleteMedia({ mediaId: id }), status(404));
  });
});

describe('tickets', () => {
  let ticketId: number;

  it('creates a ticket with every input, under the wire names of the endpoint table', async () => {
    const groups = await admin.listGroups({ enterpriseId: 1 });
    const ticket = await ok(
      'createTicket',
      admin.createTicket({
        name: 'Jane Doe',
        phones: ['+33612345678', '+14155550100'],
        emails: 'jane.doe@example.com',
        language: 'fr',
        type: 'support',
        subject: 'Printer on fire',
        reference: 'T-1',
        description: 'Smoke from tray 2',
        groupId: Number(groups.items[0]?.id),
        agent: 'bob',
        invite: true,
        agentTemplateId: 4,
        requestorTemplateId: 5,
        inviteOrganizer: false,
        startTime: '2030-01-01T10:00:00Z',
        duration: 20,
        reminder: 10,
        firstName: 'Jane',
        company: 'Doe Inc',
        gender: 'female',
        country: 'fr',
        scopes: ['recording'],
        state: 'open',
      }),
    );
    ticketId = Number(ticket.id);
    expect(lastQuery('/api/v3/tickets')).toMatchObject({
      phone: '+33612345678,+14155550100',
      email: 'jane.doe@example.com',
      groupId: String(groups.items[0]?.id),
      agent: 'bob',
      invite: 'true',
      inviteOrganizer: 'false',
      country: 'FR',
      scope: 'recording',
      state: 'open',
    });
    expect(ticket.state).toBe('invited');
    expect(ticket.requestor?.phone).toEqual(['+33612345678', '+14155550100']);
    expect(ticket.start_time?.toISOString()).toBe('2030-01-01T10:00:00.000Z');
  });

  it('refuses a ticket whose agent the platform does not know, naming the parameter', async () => {
    await fails('createTicket', admin.createTicket({ emails: ['x.y@example.com'], agent: 'zed' }), (e) => {
      status(400, 'Bad request')(e as PlatformHttpError);
      expect((e as PlatformHttpError).detail).toContain('agent');
    });
  });

  it('gets a ticket, 404s on an unknown one and 403s on another enterprise’s', async () => {
    const t = await ok('getTicket', admin.getTicket({ ticketId }));
    expect(t).toMatchObject({ id: ticketId, subject: 'Printer on fire', reference: 'T-1' });
    await fails('getTicket', admin.getTicket({ ticketId: 1 }), status(404));
    const other = [...fx.sim.state.tickets.values()].find((x) => x.enterpriseId === 2);
    await fails('getTicket', admin.getTicket({ ticketId: Number(other?.id) }), status(403, 'Forbidden'));
  });

  it('updates a ticket (204, no content) and refuses to reopen a closed one', async () => {
    const answer = await ok(
      'updateTicket',
      admin.updateTicket({ ticketId, state: 'inprogress', subject: 'Fire out' }),
    );
    expect(answer).toBeUndefined();
    expect(await admin.getTicket({ ticketId })).toMatchObject({ state: 'inprogress', subject: 'Fire out' });
    await admin.updateTicket({ ticketId, state: 'closed' });
    await fails('updateTicket', admin.updateTicket({ ticketId, state: 'open' }), (e) => {
      status(400)(e as PlatformHttpError);
      expect((e as PlatformHttpError).userMessage).toContain('closed');
    });
  });

  it('lists tickets with filters and refuses user=all to an agent', async () => {
    const page = await ok('listTickets', admin.listTickets({ user: 'all', reference: 'ACME-1004' }));
    expect(page.items.map((t) => t.reference)).toEqual(['ACME-1004']);
    await fails('listTickets', alice.listTickets({ user: 'all' }), status(403));
  });

  it('reads a ticket’s timeline and refuses another enterprise’s (Forbidden)', async () => {
    const events = await ok('listTicketEvents', admin.listTicketEvents({ ticketId }));
    const names = events.items.map((e) => e.eventName);
    expect(names.slice(0, 3)).toEqual(['ticket.new', 'ticket.assigned', 'ticket.approved']);
    expect(names).toContain('ticket.sessionStarted');
    expect(names.at(-1)).toBe('ticket.closed');
    const other = [...fx.sim.state.tickets.values()].find((x) => x.enterpriseId === 2);
    await fails(
      'listTicketEvents',
      admin.listTicketEvents({ ticketId: Number(other?.id) }),
      status(403, 'Forbidden'),
    );
  });

  it('lists and downloads a ticket’s media, and 404s when there are none', async () => {
    const withMedia = [...fx.sim.state.tickets.values()].find((t) => t.reference === 'ACME-1002');
    if (!withMedia) throw new Error('seed ticket missing');
    fx.sim.state.takePicture(withMedia);
    const id = withMedia.id;
    const medias = await ok('listTicketMedias', admin.listTicketMedias({ ticketId: id }));
    expect(medias.items.map((m) => m.type)).toEqual(['snapshot']);
    await fails('listTicketMedias', admin.listTicketMedias({ ticketId: 7 }), status(404));

    const zip = await ok(
      'downloadTicketMedias',
      admin.downloadTicketMedias({ ticketId: id, filename: 'evidence' }),
    );
    const bytes = Buffer.concat(await zip.body.toArray());
    expect(zip.filename).toBe('evidence.zip');
    expect(zip.contentType).toBe('application/zip');
    expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
    // Announced before it is written (a stored archive's length is known), as Slack's upload needs.
    expect(zip.contentLength).toBe(bytes.length);
    await fails(
      'downloadTicketMedias',
      admin.downloadTicketMedias({ ticketId, filename: 'none' }),
      status(404),
    );
  });

  it('exports a ticket with its timeline and fetches the file; refuses an unknown format', async () => {
    const resource = await ok(
      'exportTicket',
      admin.exportTicket({ ticketId, format: 'json', timeline: true }),
    );
    expect(resource.url).toContain('/api/v3/exports/');
    const file = await ok('downloadExport', admin.downloadExport({ exportId: String(resource.id) }));
    const json = JSON.parse(Buffer.concat(await file.body.toArray()).toString()) as {
      ticket: { id: number };
      events: unknown[];
    };
    expect(json.ticket.id).toBe(ticketId);
    expect(json.events.length).toBeGreaterThan(3);
    const viaUrl = await admin.downloadUrl(resource.url as string);
    expect(Buffer.concat(await viaUrl.body.toArray()).toString()).toContain('"events"');
    await fails('exportTicket', admin.exportTicket({ ticketId, format: 'xml' }), status(400, 'Bad request'));
    await fails('downloadExport', admin.downloadExport({ exportId: 'exp-missing' }), status(404));
  });

  it('deletes a ticket and 404s when it is gone', async () => {
    await ok('deleteTicket', admin.deleteTicket({ ticketId }));
    await fails('deleteTicket', admin.deleteTicket({ ticketId }), status(404));
  });
});

describe('reports and statistics', () => {
  it('computes the tickets report from the simulator’s data, including deleted tickets on request', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = await ok(
      'getTicketsReport',
      admin.getTicketsReport({ enterpriseId: 1, startTime: today, endTime: today, withTrashed: true }),
    );
    const live = [...fx.sim.state.tickets.values()].filter((t) => t.enterpriseId === 1);
    expect(report.total).toBe(live.length);
    expect((report.by_state as Record<string, number>).cancelled).toBe(1);
    const withoutTrashed = await admin.getTicketsReport({
      enterpriseId: 1,
      startTime: today,
      endTime: today,
    });
    expect(withoutTrashed.total).toBe(live.filter((t) => !t.deleted).length);
    await fails(
      'getTicketsReport',
      admin.getTicketsReport({ enterpriseId: 1, startTime: '2030-01-02', endTime: '2030-01-01' }),
      status(400),
    );
  });

  it('reads the six statistics of a day and refuses another enterprise', async () => {
    const stats = await ok('getStatistics', admin.getStatistics({ enterpriseId: 1 }));
    expect(stats.user_count).toBe(fx.sim.state.liveUsers(1).length);
    expect(stats.session_count).toBeGreaterThanOrEqual(2);
    expect(stats.sms_count).toBeGreaterThanOrEqual(2);
    expect(stats.disk_usage).toBeGreaterThan(2);
    expect(stats.session_billing_duration).toBeGreaterThanOrEqual(stats.session_duration ?? 0);
    await fails('getStatistics', admin.getStatistics({ enterpriseId: 2 }), status(403));
  });
});

describe('coverage of the endpoint table', () => {
  it('exercised every operation with a success and an error', () => {
    const missing = (Object.keys(endpoints) as EndpointName[]).filter(
      (n) => !outcomes.get(n)?.has('ok') || !outcomes.get(n)?.has('error'),
    );
    expect(missing).toEqual([]);
  });
});
