/*
 * The platform simulator as its own process, for bench/workspaces.ts: the real rate limit (10
 * requests a minute per user), and one enterprise per workspace with an admin account of its own
 * (a workspace's settings name that account's token), made when the bench asks. A second small
 * server (the "control") answers the bench:
 *
 *   POST /accounts {from, count, tickets} → [{email, token, agentToken, tickets}]: enterprises
 *                  from..from+count-1, each with its admin (admin@ws<i>.example), an agent, and
 *                  `tickets` tickets (for the event check)
 *   GET  /moves    every state move (ticket, timeline event id, to, the ticket's version, time)
 *
 * It prints one line `WORKSPACES_SIM {"url":…,"control":…}` once both listen, and stops on SIGTERM/SIGINT.
 */

import { createServer, type IncomingMessage } from 'node:http';
import { createSimulator } from '../../src/sim/server.js';
import { serveControl } from '../realtime/control.js';

const sim = await createSimulator({ rateLimit: 10, rateWindowMs: 60_000 });

interface Move {
  ticketId: string;
  eventId: string;
  to: string;
  modified: number;
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
    eventId: event?.id ?? '',
    to,
    // The ticket's version as the platform gives it: to the second.
    modified: Math.floor((event?.timestamp ?? Date.now()) / 1000) * 1000,
    at: event?.timestamp ?? Date.now(),
  });
};

function makeAccounts(from: number, count: number, tickets: number) {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const enterpriseId = 1_000 + i;
    sim.state.enterprises.set(enterpriseId, {
      id: enterpriseId,
      name: `Workspace ${i}`,
      features: { conference: true },
      quotas: { users: 50, disk_mb: 1_024, sms: 100, sessions: 1_000 },
    });
    const email = `admin@ws${i}.example`;
    const admin = sim.state.addUser({
      enterpriseId,
      username: `ws${i}admin`,
      password: `ws${i}-admin-password`,
      email,
      cellPhone: undefined,
      firstName: 'Admin',
      lastName: String(i),
      role: 'admin',
    });
    const agent = sim.state.addUser({
      enterpriseId,
      username: `ws${i}agent`,
      password: `ws${i}-agent-password`,
      email: `agent@ws${i}.example`,
      cellPhone: undefined,
      firstName: 'Agent',
      lastName: String(i),
      role: 'agent',
    });
    const made = Array.from({ length: tickets }, (_, t) =>
      sim.state.createTicket(admin, {
        emails: [`customer${t}@ws${i}.example`],
        phones: [],
        invite: false,
        subject: `Workspace ${i} ticket ${t}`,
      }),
    );
    return {
      email,
      token: sim.tokenFor(admin.username),
      agentToken: sim.tokenFor(agent.username),
      tickets: made.map((t) => String(t.id)),
    };
  });
}

const readJson = async (req: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
};

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const send = (body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /accounts':
      readJson(req).then(
        (body) => {
          const b = body as { from: number; count: number; tickets?: number };
          send(makeAccounts(b.from, b.count, b.tickets ?? 0));
        },
        (e: Error) => res.writeHead(500).end(e.message),
      );
      return;
    case 'GET /moves':
      req.resume();
      send(moves);
      return;
    default:
      req.resume();
      res.writeHead(404).end();
  }
});
await serveControl(control, 'WORKSPACES_SIM', { url: sim.url }, () => sim.close());
