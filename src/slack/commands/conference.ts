import type { App, RespondFn } from '@slack/bolt';
import { buildConferenceCard, button, section } from '../../blocks/conference-card.js';
import { buildConferenceDetails, buildConferenceList } from '../../blocks/conference-list.js';
import { buildDoctorReport } from '../../blocks/doctor.js';
import { ids } from '../../blocks/ids.js';
import { clip, limits } from '../../blocks/limits.js';
import {
  type ConferenceRequestText,
  isCompleteRequest,
  parseConferenceCommand,
} from '../../domain/conference-text.js';
import { durationExamples, parseWhen, pastGraceMs, whenExamples } from '../../domain/time.js';
import { notKeptNotice } from '../../services/kept.js';
import { type ConferenceDeps, formFromText, postCard } from '../conference-flows.js';
import { describeError, inviteFix, tellIfSlow, workingText } from '../describe-error.js';
import { afterAck, requestLog } from '../route.js';
import { digestFormFor, handleDigestCommand } from './digest.js';

/** Usage of `/conference`, shown by `/conference help` and after a command the bot cannot read. */
export const conferenceUsage = [
  '*`/conference`* — plan a video conference',
  '• `/conference` opens the form',
  '• `/conference alice@example.com +33612345678 @bob tomorrow 3pm 45m "Weekly sync"` creates it directly',
  `   times: ${whenExamples} (in your Slack time zone); durations: ${durationExamples}`,
  '• `/conference list [upcoming|past|all|&lt;search&gt;]` your conferences',
  '• `/conference show &lt;id or room name&gt;` · `/conference delete &lt;id&gt;`',
  '• `/conference digest at 9:00 [weekdays] [in Europe/Paris]` · `digest list` · `digest off` · `digest now` — daily statistics here',
  '• `/conference admin doctor` — platform admins: the doctor’s report (configuration, Slack, platform, store), privately',
  '• `/conference help` shows this message',
].join('\n');

/** An "Open the form" button that carries the command text, so a failed command loses nothing. */
const openFormButton = (text: string) => ({
  type: 'actions',
  elements: [
    button('Open the form', ids.actions.conferenceOpenForm, { value: clip(text, limits.buttonValue) }),
  ],
});

const failure = (message: string, text: string) => ({
  response_type: 'ephemeral' as const,
  replace_original: true,
  text: message,
  blocks: [section(message), openFormButton(text)],
});

async function createFromText(
  deps: ConferenceDeps,
  respond: RespondFn,
  client: Parameters<typeof postCard>[0],
  cmd: { user: string; channel: string; text: string },
  req: ConferenceRequestText,
) {
  const now = deps.now();
  const profile = await deps.identity.profile(cmd.user);
  const when = parseWhen(req.when ?? 'now', { zone: profile.tz, now });
  if (!when.ok) return respond(failure(when.error, cmd.text));
  const start = when.value.toJSDate();
  if (start.getTime() < now.getTime() - pastGraceMs)
    return respond(failure(`${req.when} (${profile.tz}) has already passed. Pick a time ahead.`, cmd.text));
  const conference = await deps.conferences.create(cmd.user, {
    channel: cmd.channel,
    participants: req.participants,
    people: req.mentions,
    name: req.name,
    startTime: start,
    duration: req.duration,
    invite: true,
  });
  // The platform has it now: a failure from here on concerns only the card, and is said so.
  // A field the platform silently dropped is said too, never lost.
  const dropped = notKeptNotice(conference.notKept);
  let problem: string;
  try {
    if (await postCard(client, cmd.channel, conference))
      return respond(
        dropped
          ? {
              response_type: 'ephemeral',
              replace_original: true,
              text: `The conference is created. ${dropped}`,
            }
          : { delete_original: true },
      );
    problem = inviteFix(cmd.channel);
  } catch (error) {
    problem = `I could not post its card: ${describeError(error, deps.logger, cmd.channel)}`;
  }
  const fix = `The conference is created. ${problem}${dropped ? ` ${dropped}` : ''} Here is its card:`;
  return respond({
    response_type: 'ephemeral',
    replace_original: true,
    text: fix,
    blocks: [section(fix), ...buildConferenceCard(conference).blocks],
  });
}

/**
 * `/conference`: acks at once (the platform may take seconds), then answers through the response_url.
 * Text that is complete creates directly; otherwise the form opens prefilled with what was understood.
 */
export function registerConferenceCommand(app: App, deps: ConferenceDeps): void {
  const working = (what: string) => ({
    response_type: 'ephemeral' as const,
    text: workingText(what, deps.conferences.waitMs()),
  });
  app.command(ids.commands.conference, async ({ ack, command, respond, client }) => {
    const cmd = parseConferenceCommand(command.text ?? '');
    const user = command.user_id;
    const channel = command.channel_id;
    const text = command.text ?? '';
    const log = requestLog(deps.logger, { user, team: command.team_id, command: command.command });
    // After the ack, the work runs detached; its failures become an ephemeral reply (with the form
    // button when the command's text could be retried there).
    const later = (work: () => Promise<unknown>, retryText?: string) =>
      afterAck(
        {
          kind: 'command',
          respond,
          channel,
          log,
          ...(retryText !== undefined ? { build: (message: string) => failure(message, retryText) } : {}),
        },
        work,
      );

    switch (cmd.kind) {
      case 'help':
        return ack({ response_type: 'ephemeral', text: conferenceUsage });
      case 'digest':
        await ack();
        // Alone, or `edit <id>`: the form (the trigger lasts 3 s); otherwise the command itself.
        if (cmd.args === '' || /^edit\b/i.test(cmd.args))
          return later(async () => {
            const view = await digestFormFor(deps, cmd.args.replace(/^edit\s*/i, ''), { user, channel });
            if (typeof view === 'string') {
              await respond({ response_type: 'ephemeral', text: view });
              return;
            }
            await client.views.open({ trigger_id: command.trigger_id, view });
          });
        return later(async () => {
          await tellIfSlow(respond, 'Working on the digest', deps.conferences.waitMs());
          await handleDigestCommand(deps, cmd.args, { user, channel }, respond);
        });
      case 'usage':
        return ack({ response_type: 'ephemeral', text: `${cmd.error}\n\n${conferenceUsage}` });
      case 'admin': {
        if (cmd.args.toLowerCase() !== 'doctor')
          return ack({
            response_type: 'ephemeral',
            text: `\`/conference admin\` knows one command: \`/conference admin doctor\`.\n\n${conferenceUsage}`,
          });
        await ack(working('Working through the doctor’s checks'));
        return later(async () => {
          await deps.access.require(user, 'admin.doctor');
          if (!deps.doctor) {
            await respond({
              response_type: 'ephemeral',
              replace_original: true,
              text: 'The doctor is not available in this process: run `npm run doctor` beside the bot.',
            });
            return;
          }
          const report = await deps.doctor();
          await respond({ response_type: 'ephemeral', replace_original: true, ...buildDoctorReport(report) });
        });
      }
      case 'list': {
        await ack(working('Looking up your conferences'));
        const q = { filter: cmd.filter, search: cmd.search, offset: 0 };
        return later(async () => {
          const page = await deps.conferences.list(user, q);
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            ...buildConferenceList(q, page),
          });
        });
      }
      case 'show':
        await ack(working('Looking up the conference'));
        return later(async () => {
          const c = await deps.conferences.see(user, cmd.ref);
          await respond({ response_type: 'ephemeral', replace_original: true, ...buildConferenceDetails(c) });
        });
      case 'delete':
        await ack(working('Looking up the conference'));
        return later(async () => {
          const c = await deps.conferences.forManagement(user, cmd.ref, 'delete');
          // The card's own Delete button (with its confirmation dialog) does the deletion.
          await respond({
            response_type: 'ephemeral',
            replace_original: true,
            text: `Delete “${c.name}”?`,
            blocks: [
              section('Delete this conference? Press *Delete* on the card below to confirm.'),
              ...buildConferenceCard(c).blocks,
            ],
          });
        });
      case 'create': {
        if (text.trim() && isCompleteRequest(cmd.request)) {
          await ack(working('Creating the conference'));
          return later(
            () => createFromText(deps, respond, client, { user, channel, text }, cmd.request),
            text,
          );
        }
        await ack();
        return later(async () => {
          const view = await formFromText(deps, user, channel, text);
          await client.views.open({ trigger_id: command.trigger_id, view });
        });
      }
    }
  });
}
