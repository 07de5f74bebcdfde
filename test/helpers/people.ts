/**
 * Slack people of the tests. Their e-mails match the simulator's seeded accounts (admin is a platform
 * admin, alice and bob are agents), except `nobody` (no platform account) and `nomail` (no e-mail).
 */
export const people = {
  admin: { id: 'UADMIN', email: 'admin@acme.example', tz: 'Europe/Paris' },
  alice: { id: 'UALICE', email: 'alice@acme.example', tz: 'America/New_York' },
  bob: { id: 'UBOB', email: 'bob@acme.example', tz: 'Asia/Tokyo' },
  nobody: { id: 'UNOBODY', email: 'nobody@example.com', tz: 'UTC' },
  nomail: { id: 'UNOMAIL', email: undefined, tz: 'UTC' },
} as const;

/** The bot's clock in the tests: Friday 26 March 2027, 10:00 UTC (two days before Europe's DST switch). */
export const botNow = new Date('2027-03-26T10:00:00Z');
