import type { GuessStatus } from '../platform/findings.js';

/*
 * The doctor's report as data: `npm run doctor` prints it, `/conference admin doctor` renders it
 * (blocks/doctor.ts). Here, below both, so that rendering it does not load the doctor.
 */

export type Section = 'configuration' | 'slack' | 'platform' | 'guesses' | 'store' | 'webhooks';
export type CheckStatus = 'ok' | 'note' | 'warning' | 'blocking' | GuessStatus;

/** One row of the report. */
export interface Check {
  section: Section;
  name: string;
  status: CheckStatus;
  /** What was found and, when something is wrong, what to do. No secret in it. */
  detail: string;
  /** The bot cannot work as it is: `npm run doctor` exits non-zero. */
  blocking: boolean;
}

/** The doctor's report: one row per check, in sections. */
export interface DoctorReport {
  checks: Check[];
  /** Platform requests this run spent (at most `maxPlatformRequests`). */
  platformRequests: number;
  blocking: boolean;
  at: Date;
}
