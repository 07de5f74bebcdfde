import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformInputError } from '../../src/platform/errors.js';
import { type PlatformFixture, startPlatform } from '../helpers/platform.js';

/*
 * Each rule of the spec, just inside and just outside its bound. Inside: the simulator (which checks
 * with its own rules) accepts it. Outside: the client refuses before sending, naming the field.
 */

let fx: PlatformFixture;
beforeAll(async () => {
  fx = await startPlatform();
});
afterAll(() => fx.close());

const participants = 'jane@example.com';
type Case = { field: string; inside: unknown; outside: unknown; problem: RegExp };

async function expectRefused(promise: Promise<unknown>, field: string, problem: RegExp) {
  const sent = fx.sim.requests.length;
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformInputError);
  const issue = (error as PlatformInputError).issues.find(
    (i) => i.field === field || i.field.startsWith(`${field}.`),
  );
  expect(issue?.problem).toMatch(problem);
  expect((error as PlatformInputError).userMessage).toContain(field);
  expect(fx.sim.requests.length).toBe(sent);
}

describe('conference rules', () => {
  const cases: Case[] = [
    { field: 'name', inside: 'ab', outside: 'a', problem: /2 to 255/ },
    { field: 'name', inside: 'n'.repeat(255), outside: 'n'.repeat(256), problem: /2 to 255/ },
    { field: 'message', inside: 'm'.repeat(300), outside: 'm'.repeat(301), problem: /at most 300/ },
    { field: 'password', inside: '0'.repeat(255), outside: '0'.repeat(256), problem: /at most 255/ },
    { field: 'password', inside: '09*#', outside: '12a', problem: /digits, \* and #/ },
    { field: 'duration', inside: 1, outside: 0, problem: /at least 1/ },
    { field: 'reminder', inside: 1, outside: 0, problem: /1 to 60/ },
    { field: 'reminder', inside: 60, outside: 61, problem: /1 to 60/ },
    { field: 'startTime', inside: '2030-02-28T23:59:59Z', outside: '2030-02-30T10:00:00Z', problem: /real/ },
    {
      field: 'startTime',
      inside: '2030-01-01T00:00:00Z',
      outside: '2030-01-01 00:00:00',
      problem: /YYYY-MM-DDThh:mm:ssZ/,
    },
    { field: 'serviceKey', inside: 'a'.repeat(32), outside: 'A'.repeat(32), problem: /32-character/ },
    { field: 'scope', inside: 'sso', outside: 'saml', problem: /sso/ },
  ];
  for (const c of cases) {
    it(`${c.field}: accepts ${JSON.stringify(c.inside).slice(0, 30)} and refuses ${JSON.stringify(c.outside).slice(0, 30)}`, async () => {
      const created = await fx.client.createConference({ participants, invite: false, [c.field]: c.inside });
      expect(created.id).toBeDefined();
      await expectRefused(
        fx.client.createConference({ participants, [c.field]: c.outside }),
        c.field,
        c.problem,
      );
    });
  }

  it('participants: accepts e-mails and international numbers, refuses an empty list and bad entries', async () => {
    const ok = await fx.client.createConference({
      participants: ['a@b.io', '+1 (415) 555-0100'],
      invite: false,
    });
    expect(ok.participants).toEqual(['a@b.io', '+14155550100']);
    await expectRefused(fx.client.createConference({ participants: [] }), 'participants', /at least one/);
    await expectRefused(
      fx.client.createConference({ participants: '0612345678' }),
      'participants.0',
      /international/,
    );
    await expectRefused(
      fx.client.createConference({ participants: 'bob@' }),
      'participants.0',
      /not a valid e-mail/,
    );
  });
});

describe('user, ticket and report rules', () => {
  it('a user needs an e-mail or a cell phone', async () => {
    expect(
      (await fx.client.createUser({ username: 'eve', password: 'x', email: 'eve@acme.example' })).id,
    ).toBeDefined();
    await expectRefused(
      fx.client.createUser({ username: 'eve2', password: 'x' }),
      'email',
      /e-mail or a cell phone/,
    );
  });

  it('a ticket needs e-mail(s) or phone(s), and refuses shared mailboxes', async () => {
    expect((await fx.client.createTicket({ phones: '+33612345678' })).id).toBeDefined();
    await expectRefused(fx.client.createTicket({ subject: 'x' }), 'emails', /e-mail or phone/);
    await expectRefused(
      fx.client.createTicket({ emails: 'support@example.com' }),
      'emails',
      /shared mailboxes/,
    );
  });

  it('country is ISO 3166-1 alpha-2', async () => {
    expect((await fx.client.createTicket({ phones: '+33612345678', country: 'de' })).id).toBeDefined();
    await expectRefused(
      fx.client.createTicket({ phones: '+33612345678', country: 'XX' }),
      'country',
      /alpha-2/,
    );
    await expectRefused(
      fx.client.createTicket({ phones: '+33612345678', country: 'FRA' }),
      'country',
      /alpha-2/,
    );
  });

  it('ticket duration and reminder follow the conference bounds, state is one of the ten', async () => {
    expect(
      (await fx.client.createTicket({ phones: '+33612345678', duration: 1, reminder: 60 })).id,
    ).toBeDefined();
    await expectRefused(
      fx.client.createTicket({ phones: '+33612345678', duration: 0 }),
      'duration',
      /at least 1/,
    );
    await expectRefused(
      fx.client.createTicket({ phones: '+33612345678', reminder: 61 }),
      'reminder',
      /1 to 60/,
    );
    await expectRefused(
      fx.client.updateTicket({ ticketId: 1, state: 'opened' as 'open' }),
      'state',
      /new, open, invited, inprogress/,
    );
  });

  it('statistics date is a real YYYY-MM-DD', async () => {
    expect((await fx.client.getStatistics({ enterpriseId: 1, date: '2024-02-29' })).user_count).toBe(0);
    await expectRefused(
      fx.client.getStatistics({ enterpriseId: 1, date: '2027-02-29' }),
      'date',
      /real date/,
    );
    await expectRefused(fx.client.getStatistics({ enterpriseId: 1, date: '2027-2-1' }), 'date', /YYYY-MM-DD/);
  });

  it('report bounds accept a date, a date with time, Unix seconds or a Date', async () => {
    for (const [startTime, endTime] of [
      ['2026-01-01', '2026-01-31'],
      ['2026-01-01 00:00:00', '2026-01-31 23:59:59'],
      [1_767_225_600, 1_769_904_000],
      [new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z')],
    ] as const) {
      const report = await fx.client.getTicketsReport({ enterpriseId: 1, startTime, endTime });
      expect(report.total).toBe(0);
    }
    await expectRefused(
      fx.client.getTicketsReport({ enterpriseId: 1, startTime: 'yesterday', endTime: '2026-01-01' }),
      'startTime',
      /YYYY-MM-DD/,
    );
  });

  it('the download file name has no extension', async () => {
    await expectRefused(
      fx.client.downloadTicketMedias({ ticketId: 1, filename: 'a.zip' }),
      'filename',
      /without/,
    );
  });
});

describe('the simulator checks the same rules on its own', () => {
  it('answers 400 with a JSON body naming the parameter for what the client would have refused', async () => {
    const call = async (path: string) => {
      const res = await fetch(`${fx.sim.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.sim.adminToken}` },
      });
      return { status: res.status, body: (await res.json()) as { details?: string; error?: string } };
    };
    const cases = [
      ['/api/v3/conferences?participants=a@b.io&name=x', 'name'],
      ['/api/v3/conferences?participants=a@b.io&reminder=61', 'reminder'],
      ['/api/v3/conferences?participants=a@b.io&password=12ab', 'password'],
      ['/api/v3/conferences?participants=a@b.io&startTime=2030-01-01T10:00:00', 'startTime'],
      ['/api/v3/conferences', 'participants'],
      ['/api/v3/tickets?email=info@example.com', 'email'],
      ['/api/v3/tickets?phone=%2B33612345678&country=XX', 'country'],
      ['/api/v3/users?username=z&password=p', 'email'],
    ];
    for (const [path, parameter] of cases) {
      const { status, body } = await call(path as string);
      expect(status, path).toBe(400);
      expect(body.details, path).toBe(`Parameter ${parameter}`);
    }
  });
});
