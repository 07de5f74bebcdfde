import type { Check, DoctorReport, Section } from '../domain/doctor-report.js';
import type { Locale } from '../i18n/locale.js';
import { type Block, context, type MessagePayload, message, plain, section } from './kit.js';
import { limits } from './limits.js';
import { joinMd, md } from './mrkdwn.js';
import { dateAt, t, tPlain } from './text.js';

/*
 * The doctor's report for a platform admin, privately in Slack: one section per part, one line per
 * check. Details quote the platform and Slack (error words, field names): every one is escaped.
 */

const icons: Record<Check['status'], string> = {
  ok: '✅',
  confirmed: '✅',
  note: 'ℹ️',
  warning: '⚠️',
  ignored: '⚠️',
  unknown: '❔',
  refused: '❌',
  blocking: '⛔',
};

/** The report's sections, in its order. */
const sections: readonly Section[] = ['configuration', 'slack', 'platform', 'guesses', 'store', 'webhooks'];

/** A check's status as the admin reads it (the raw value for one the report does not name). */
const statusLabel = (locale: Locale, status: string): string =>
  status in icons ? tPlain(locale, `doctor.status.${status as Check['status']}`) : status;

const line = (locale: Locale, c: Check) =>
  t(locale, c.blocking && c.status !== 'blocking' ? 'doctor.lineBlocking' : 'doctor.line', {
    icon: c.blocking ? '⛔' : icons[c.status],
    name: c.name,
    status: statusLabel(locale, c.status),
    detail: c.detail,
  });

/**
 * The doctor's report in the admin's language: what the bot writes around the checks is translated;
 * each check's name and detail are the doctor's own (English, the same as `npm run doctor` prints).
 */
export function buildDoctorReport(locale: Locale, report: DoctorReport): MessagePayload {
  const blocking = report.checks.filter((c) => c.blocking).length;
  const verdict = blocking ? t(locale, 'doctor.blocking', { count: blocking }) : t(locale, 'doctor.clear');
  const blocks: Block[] = [
    { type: 'header', text: plain(tPlain(locale, 'doctor.header'), limits.headerText) },
    section(verdict),
  ];
  for (const s of sections) {
    const rows = report.checks.filter((c) => c.section === s);
    if (!rows.length) continue;
    blocks.push(
      section(
        md`*${tPlain(locale, `doctor.section.${s}`)}*\n${joinMd(
          rows.map((c) => line(locale, c)),
          '\n',
        )}`,
      ),
    );
  }
  blocks.push(
    context(t(locale, 'doctor.footer', { requests: report.platformRequests, at: dateAt(locale, report.at) })),
  );
  return message(
    blocking ? t(locale, 'doctor.fallbackBlocking', { count: blocking }) : t(locale, 'doctor.fallbackClear'),
    blocks,
  );
}
