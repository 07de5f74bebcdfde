import type { Check, CheckStatus, Section } from '../domain/doctor-report.js';

export type { Check, CheckStatus, DoctorReport, Section } from '../domain/doctor-report.js';

/** The rows as the checks add them; `blocking` defaults to the status. */
export class Report {
  readonly checks: Check[] = [];
  add(section: Section, name: string, status: CheckStatus, detail: string, blocking = status === 'blocking') {
    this.checks.push({ section, name, status, detail, blocking });
  }
}
