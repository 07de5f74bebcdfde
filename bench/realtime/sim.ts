/*
 * The platform simulator as its own process, for bench/realtime.ts: the real rate limit (10 requests a
 * minute per user, one-minute window), the seeded demo enterprise, REALTIME_TICKETS tickets an hour
 * old (created by the admin, state `new`) and REALTIME_AGENTS agent accounts with a password (the
 * bench logs them in through `POST /api/v3/token`, as people would). The platform itself listens on a
 * random loopback port; a second small server (the "control") serves the bench what the simulator
 * records, unbounded (its own `/_sim/requests` keeps the last 2,000):
 *
 *   GET /setup          the platform's URL, admin token and user id, the tickets, the agents, the
 *                       seeded tickets' ids and references
 *   GET /requests?from= every `/api/v3` request answered (method, path, status, user, time), from index
 *   GET /moves          every state move (ticket, timeline event id, from, to, the event's time)
 *   GET /webhooks       every webhook delivery attempt (answer status or error, when it was answered)
 *   POST /burst?n=&overMs=  creates n new tickets (default 100) in the admin's group, spread evenly
 *                       over overMs (default 30000), as the admin (the platform sends its webhooks);
 *                       answers at once
 *   GET /burst          the tickets the bursts created so far (id, when created)
 *   POST /conferences?n=&people=&participants=&spanS=&leadMaxMin=
 *                       creates n conferences (bench/realtime-reminders.ts) as the admin, starting
 *                       evenly over the next spanS seconds (the first a minute out: the bot's start), each with `participants` e-mails drawn from
 *                       person0…person<people-1>@acme.example and its own reminder setting of 1 to
 *                       leadMaxMin minutes; answers them (id, start ms, reminder minutes, participants)
 *   GET /conferences    those conferences
 *
 * REALTIME_ONLY_RESET_HEADER=1: the platform sends only `X-RateLimit-Reset`, never `-Remaining` nor
 * `-Limit` (the `onlyResetHeader` quirk, src/sim/quirks.ts), as the real service documents.
 *
 * It prints one line `REALTIME_SIM {"url":…,"control":…}` once both listen, and stops on SIGTERM/SIGINT.
 */

import { createServer } from 'node:http';
import { createSimulator, type RequestLogEntry, type WebhookDelivery } from '../../src/sim/server.js';
import { serveControl } from './control.js';

const ticketCount = Number(process.env.REALTIME_TICKETS ?? 100);
const agentCount = Number(process.env.REALTIME_AGENTS ?? 12);
const agentPassword = process.env.REALTIME_AGENT_PASSWORD ?? 'realtime-agent-password';

let offset = -3_600_000;
const sim = await createSimulator({
  rateLimit: 10,
  rateWindowMs: 60_000,
  now: () => Date.now() + offset,
  ...(process.env.REALTIME_ONLY_RESET_HEADER === '1' ? { quirks: { onlyResetHeader: true } } : {}),
});
const admin = [...sim.state.users.values()].find((u) => u.username === 'admin');
if (!admin) throw new Error('the simulator has no admin user');
const tickets = Array.from({ length: ticketCount }, (_, i) =>
  sim.state.createTicket(admin, {
    emails: [`realtime${i}@example.com`],
    phones: [],
    invite: false,
    subject: `Realtime ${i}`,
  }),
);
offset = 0;
const agents = Array.from({ length: agentCount }, (_, i) =>
  sim.state.addUser({
    enterpriseId: admin.enterpriseId,
    username: `rtagent${i}`,
    password: agentPassword,
    email: `rtagent${i}@acme.example`,
    cellPhone: undefined,
    firstName: 'Agent',
    lastName: String(i),
    role: 'agent',
    // bench/realtime-unfurls.ts: agents of the admin's group ("Level 2"), who may see its tickets.
    ...(process.env.REALTIME_AGENTS_IN_ADMIN_GROUP === '1' ? { groups: [...admin.groups] } : {}),
  }),
);

// Every request, unbounded (the simulator trims its own log to the last 2,000).
const requests: RequestLogEntry[] = [];
const log = sim.requests;
const logPush = log.push.bind(log);
log.push = (...entries: RequestLogEntry[]) => {
  requests.push(...entries);
  return logPush(...entries);
};

// Every webhook attempt, with the time it was answered.
const webhooks: (WebhookDelivery & { at: number })[] = [];
const deliveries = sim.webhookDeliveries;
const deliveriesPush = deliveries.push.bind(deliveries);
deliveries.push = (...entries: WebhookDelivery[]) => {
  webhooks.push(...entries.map((d) => ({ ...d, at: Date.now() })));
  return deliveriesPush(...entries);
};

// Every state move, with the timeline event it added.
interface Move {
  ticketId: string;
  eventId: string | undefined;
  from: string;
  to: string;
  /** The event's time (the platform's clock), ms. */
  at: number;
}
const moves: Move[] = [];
const setTicketState = sim.state.setTicketState.bind(sim.state);
sim.state.setTicketState = (ticket, to, source) => {
  const from = ticket.state;
  setTicketState(ticket, to, source);
  if (from === to) return;
  const event = ticket.events.at(-1);
  moves.push({
    ticketId: String(ticket.id),
    eventId: event?.id,
    from,
    to,
    at: event?.timestamp ?? Date.now(),
  });
};

// The admin's group (the seeded "Level 2"): a burst's tickets are in it, a `follow` names it.
const groupId = admin.groups[0];
const group = groupId === undefined ? undefined : sim.state.groups.get(groupId);
if (!group) throw new Error('the simulator admin belongs to no group');

/** The tickets created by bursts, with when (ms). */
const burst: { id: string; at: number }[] = [];
const startBurst = (n: number, overMs: number) => {
  const start = Date.now();
  const base = burst.length;
  for (let i = 0; i < n; i++)
    setTimeout(
      () => {
        const t = sim.state.createTicket(admin, {
          emails: [`burst${base + i}@example.com`],
          phones: [],
          invite: false,
          subject: `Burst ${base + i}`,
          groupId: group.id,
        });
        burst.push({ id: String(t.id), at: Date.now() });
      },
      Math.max(0, start + (n > 1 ? (i * overMs) / (n - 1) : 0) - Date.now()),
    );
};

/** The conferences `POST /conferences` created (bench/realtime-reminders.ts). */
const conferences: { id: string; start: number; reminder: number; participants: string[] }[] = [];
const createConferences = (
  n: number,
  people: number,
  perConference: number,
  spanMs: number,
  leadMax: number,
) => {
  const t0 = Date.now();
  for (let i = 0; i < n; i++) {
    const picked = new Set<string>();
    while (picked.size < Math.min(perConference, people))
      picked.add(`person${Math.floor(Math.random() * people)}@acme.example`);
    // Whole seconds, as the platform keeps them; the first a minute out, the last at the span.
    const start = Math.floor((t0 + 60_000 + ((i + 1) * (spanMs - 60_000)) / n) / 1000) * 1000;
    const reminder = 1 + Math.floor(Math.random() * leadMax);
    const c = sim.state.createConference(admin, {
      name: `Reminder bench ${i}`,
      participants: [...picked],
      startTime: start,
      duration: 30,
      reminder,
      invite: false,
    });
    conferences.push({ id: String(c.id), start, reminder, participants: [...picked] });
  }
};

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const from = Number(url.searchParams.get('from') ?? 0);
  const send = (body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  req.resume();
  switch (url.pathname) {
    case '/setup':
      send({
        url: sim.url,
        adminToken: sim.adminToken,
        adminUserId: admin.id,
        tickets: tickets.map((t) => ({ id: String(t.id), modified: t.modified, state: t.state })),
        agents: agents.map((a) => ({ username: a.username, password: agentPassword, userId: a.id })),
        group: { id: String(group.id), name: group.name },
        // The demo enterprise's seeded tickets, by reference (bench/realtime-unfurls.ts pastes one).
        seeded: [...sim.state.tickets.values()].map((t) => ({ id: String(t.id), reference: t.reference })),
      });
      return;
    case '/requests':
      send({ next: requests.length, entries: requests.slice(from) });
      return;
    case '/moves':
      send(moves);
      return;
    case '/webhooks':
      send(webhooks.map((w) => ({ status: w.status, error: w.error, at: w.at })));
      return;
    case '/burst':
      if (req.method === 'POST') {
        const n = Number(url.searchParams.get('n') ?? 100);
        const overMs = Number(url.searchParams.get('overMs') ?? 30_000);
        if (!(Number.isInteger(n) && n > 0 && overMs >= 0)) {
          res.writeHead(400).end('n: a positive whole number; overMs: 0 or more');
          return;
        }
        startBurst(n, overMs);
        send({ n, overMs });
      } else send(burst);
      return;
    case '/conferences':
      if (req.method === 'POST') {
        const q = (k: string, d: number) => Number(url.searchParams.get(k) ?? d);
        createConferences(
          q('n', 200),
          q('people', 50),
          q('participants', 5),
          q('spanS', 900) * 1000,
          q('leadMaxMin', 10),
        );
      }
      send(conferences);
      return;
    default:
      res.writeHead(404).end();
  }
});
await serveControl(control, 'REALTIME_SIM', { url: sim.url }, () => sim.close());
