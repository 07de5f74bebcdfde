import type { GuessStatus } from '../platform/findings.js';

/** The doctor's report: one row per check, in sections. */

export type Section = 'configuration' | 'slack' | 'platform' | 'guesses' | 'store' | 'webhooks';
export type CheckStatus = 'ok' | 'note' | 'warning' | 'blocking' | GuessStatus;

export interface Check {
  section: Section;
  name: string;
  status: CheckStatus;
  /** What was found and, when something is wrong, what to do. No secret in it. */
  detail: string;
  /** The bot cannot work as it is: `npm run doctor` exits non-zero. */
  blocking: boolean;
}

export interface DoctorReport {
  checks: Check[];
  /** Platform requests this run spent (at most `maxPlatformRequests`). */
  platformRequests: number;
  blocking: boolean;
  at: Date;
}

/** The rows as the checks add them; `blocking` defaults to the status. */
export class Report {
  readonly checks: Check[] = [];
  add(section: Section, name: string, status: CheckStatus, detail: string, blocking = status === 'blocking') {
    this.checks.push({ section, name, status, detail, blocking });
  }
}
