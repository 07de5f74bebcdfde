import type { SlackDouble } from '../dev/slack-double.js';

/** A demo person of the playground: a Slack user of the double, and what the platform knows of them. */
export interface DemoPerson {
  id: string;
  /** The Slack handle. */
  name: string;
  realName: string;
  /** The simulator's seeded account of the same e-mail (none for Nico: no platform account). */
  email: string;
  tz: string;
  /** Their Slack language at the start (`en-US`, `fr-FR`); the page's language switch changes it. */
  locale: string;
  /** What they are on the platform, as the page's person switch says it. */
  role: string;
  /** A Slack workspace admin. */
  admin?: boolean;
}

/**
 * The people the page can act as: an admin, an agent in a group, an agent outside it, and someone
 * with no platform account, in four time zones; each in English until the page switches their language. E-mails are the simulator's seeded ones
 * (`src/sim/state.ts`), so confdesk maps them by e-mail with no SIM_ACCOUNTS.
 */
export const demoPeople: readonly DemoPerson[] = [
  {
    id: 'UADMIN',
    name: 'ada',
    realName: 'Ada Admin',
    email: 'admin@acme.example',
    tz: 'Europe/Paris',
    locale: 'en-US',
    role: 'platform admin',
    admin: true,
  },
  {
    id: 'UALICE',
    name: 'alice',
    realName: 'Alice Martin',
    email: 'alice@acme.example',
    tz: 'America/New_York',
    locale: 'en-US',
    role: 'agent in Level 1',
  },
  {
    id: 'UCAROL',
    name: 'carol',
    realName: 'Carol Petit',
    email: 'carol@acme.example',
    tz: 'Asia/Tokyo',
    locale: 'en-US',
    role: 'agent in Level 2',
  },
  {
    id: 'UNOBODY',
    name: 'nico',
    realName: 'Nico Nobody',
    email: 'nico@example.com',
    tz: 'UTC',
    locale: 'en-US',
    role: 'no platform account',
  },
];

/** The playground's channels; the bot is a member of both. */
export const demoChannels: readonly { id: string; name: string }[] = [
  { id: 'C0SUPPORT', name: 'support' },
  { id: 'C0MEETINGS', name: 'meetings' },
];

/** Makes the demo people users of the double (users.info and users.lookupByEmail find them), and names its channels. */
export function addDemoPeople(slack: SlackDouble): void {
  for (const c of demoChannels) slack.channelNames.set(c.id, c.name);
  for (const p of demoPeople)
    slack.addUser({
      id: p.id,
      name: p.name,
      real_name: p.realName,
      email: p.email,
      tz: p.tz,
      locale: p.locale,
      profile: { display_name: p.realName, real_name: p.realName },
      ...(p.admin ? { is_admin: true } : {}),
    });
}
