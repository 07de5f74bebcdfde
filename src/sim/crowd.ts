import type { SimUser } from './model.js';
import { SEED_PASSWORD, type SimState } from './state.js';

const firsts = ['Élodie', 'Marc', 'Zoë', 'Jürgen', 'Amira', 'Chen', 'Inès', 'Olivier', 'Søren', 'Priya'];
const lasts = [
  'Lefèvre',
  'Novak',
  'García',
  'Okafor',
  'Tanaka',
  'Dubois',
  'Müller',
  'Rossi',
  'Kowalski',
  'Singh',
];

/**
 * `count` more people in an enterprise (to try the type-ahead pickers with thousands of users):
 * accented first and last names cycling through short lists, each login and e-mail unique
 * (`elodie.lefevre17`), spread over the enterprise's groups. Deterministic, so tests can name whom a
 * query must find.
 */
export function seedCrowd(state: SimState, count: number, enterpriseId = 1): SimUser[] {
  const groups = [...state.groups.values()].filter((g) => g.enterpriseId === enterpriseId).map((g) => g.id);
  const plain = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ø/g, 'o').toLowerCase();
  const made: SimUser[] = [];
  for (let i = 0; i < count; i++) {
    const first = firsts[i % firsts.length] as string;
    const last = lasts[Math.floor(i / firsts.length) % lasts.length] as string;
    const username = `${plain(first)}.${plain(last)}${i}`;
    made.push(
      state.addUser({
        enterpriseId,
        username,
        password: SEED_PASSWORD,
        email: `${username}@crowd.example`,
        cellPhone: undefined,
        firstName: first,
        lastName: last,
        role: 'agent',
        groups: groups.length ? [groups[i % groups.length] as number] : [],
      }),
    );
  }
  return made;
}
