import type { Check, DoctorReport, Section } from '../domain/doctor-report.js';
import { type Block, context, type MessagePayload, message, plain, section } from './kit.js';
import { limits } from './limits.js';
import { date, joinMd, md } from './mrkdwn.js';

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

const titles: Record<Section, string> = {
  configuration: 'Configuration',
  slack: 'Slack',
  platform: 'Video platform',
  guesses: 'Guesses of the endpoint table (probed read-only)',
  store: 'Store',
  webhooks: 'Webhooks',
};

const line = (c: Check) =>
  md`${c.blocking ? '⛔' : icons[c.status]} *${c.name}* ${c.status}${c.blocking && c.status !== 'blocking' ? ' (blocking)' : ''} — ${c.detail}`;

export function buildDoctorReport(report: DoctorReport): MessagePayload {
  const blocking = report.checks.filter((c) => c.blocking).length;
  const verdict = blocking
    ? md`⛔ ${blocking} blocking problem(s): the rows marked ⛔ say what to fix.`
    : md`✅ Nothing blocking. Read the ⚠️ and ℹ️ rows all the same.`;
  const blocks: Block[] = [
    { type: 'header', text: plain('🩺 confdesk doctor', limits.headerText) },
    section(verdict),
  ];
  for (const s of Object.keys(titles) as Section[]) {
    const rows = report.checks.filter((c) => c.section === s);
    if (!rows.length) continue;
    blocks.push(section(md`*${titles[s]}*\n${joinMd(rows.map(line), '\n')}`));
  }
  blocks.push(
    context(
      md`${report.platformRequests} platform request(s), none a write · ${date(report.at)} · \`npm run doctor\` prints the same table`,
    ),
  );
  return message(
    md`confdesk doctor: ${blocking ? `${blocking} blocking problem(s)` : 'nothing blocking'}`,
    blocks,
  );
}
