import type { Check, DoctorReport } from './doctor.js';

/** Control characters could rewrite the operator's terminal: details quote the platform. */
const printable = (s: string) =>
  [...s]
    .map((c) =>
      (c.codePointAt(0) ?? 0) < 0x20 || ((c.codePointAt(0) ?? 0) >= 0x7f && (c.codePointAt(0) ?? 0) < 0xa0)
        ? '?'
        : c,
    )
    .join('');

const shown: Record<Check['status'], string> = {
  ok: 'ok',
  note: 'note',
  warning: 'WARNING',
  blocking: 'BLOCKING',
  confirmed: 'confirmed',
  refused: 'REFUSED',
  ignored: 'IGNORED',
  unknown: 'unknown',
};

/** The report as a text table: section, check, status, detail; then the verdict and the exit code. */
export function formatReport(report: DoctorReport): string {
  const rows = report.checks.map((c) => [
    c.section,
    c.name,
    c.blocking && c.status !== 'blocking' ? `${shown[c.status]} (blocking)` : shown[c.status],
    c.detail,
  ]);
  const head = ['section', 'check', 'status', 'detail'];
  const widths = [0, 1, 2].map((i) =>
    Math.max((head[i] as string).length, ...rows.map((r) => (r[i] as string).length)),
  );
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i < 3 ? printable(cell).padEnd(widths[i] as number) : printable(cell)))
      .join('  ')
      .trimEnd();
  const blocking = report.checks.filter((c) => c.blocking).length;
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w)).concat('------')),
    ...rows.map(line),
    '',
    `${report.platformRequests} platform request(s) spent, none of them a write.`,
    blocking
      ? `${blocking} blocking problem(s): fix the rows marked BLOCKING (exit code 1).`
      : 'Nothing blocking (exit code 0). Read the WARNING, IGNORED and note rows all the same.',
  ].join('\n');
}
