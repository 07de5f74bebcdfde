import type { AllMiddlewareArgs, App, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { buildConferenceDetails, buildConferenceList } from '../../blocks/conference-list.js';
import {
  buildConferenceCreated,
  buildConferenceDeletePrompt,
  buildConferenceFailure,
  buildConferencePast,
} from '../../blocks/conference-replies.js';
import { buildDoctorReport } from '../../blocks/doctor.js';
import { ids } from '../../blocks/ids.js';
import { textMessage } from '../../blocks/kit.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import { md } from '../../blocks/mrkdwn.js';
import { buildUsage } from '../../blocks/usage.js';
import {
  type ConferenceRequestText,
  isCompleteRequest,
  parseConferenceCommand,
} from '../../domain/conference-text.js';
import { parseLinkCommand } from '../../domain/identity-link-text.js';
import { parseMediaFilters } from '../../domain/media.js';
import { parseWhen, pastGraceMs } from '../../domain/time.js';
import { notKeptNotice } from '../../services/kept.js';
import type { ConferenceDeps, LinkDeps, MediaDeps } from '../deps.js';
import { formFromText } from '../openers/forms.js';
import { openMediaLibrary } from '../openers/media-library-view.js';
import { postConferenceCard } from '../openers/post-conference-card.js';
import { describeError, inviteFix } from '../replies/describe-error.js';
import type { Responder } from '../replies/reply-error.js';
import { tellIfSlow, workingText } from '../replies/working-notice.js';
import { afterAck, requestLog } from '../runtime/after-ack.js';
import { digestFormFor, handleDigestCommand } from './digest.js';
import { handleLinkCommand } from './identity-link.js';
import { adminUsage, handleAdminPeople, handlePasswordCommand, peopleAdminWords } from './people.js';

/** A failed `/conference`, replacing its "Working…", with the form button. */
const failure = (problem: Mrkdwn | string, text: string) => ({
  response_type: 'ephemeral' as const,
  replace_original: true,
  ...buildConferenceFailure(problem, text),
});

async function createFromText(
  deps: ConferenceDeps,
  respond: Responder,
  cmd: { user: string; channel: string; text: string },
  req: ConferenceRequestText,
) {
  const now = deps.now();
  const profile = await deps.identity.profile(cmd.user);
  const when = parseWhen(req.when ?? 'now', { zone: profile.tz, now });
  if (!when.ok) return respond(failure(when.error, cmd.text));
  const start = when.value.toJSDate();
  if (start.getTime() < now.getTime() - pastGraceMs)
    return respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildConferencePast(req.when ?? 'now', profile.tz, cmd.text),
    });
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
  let problem: Mrkdwn;
  try {
    if (await postConferenceCard(deps, cmd.channel, conference))
      return respond(
        dropped
          ? {
              response_type: 'ephemeral',
              replace_original: true,
              ...buildConferenceCreated(conference, { dropped }),
            }
          : { delete_original: true },
      );
    problem = inviteFix(cmd.channel);
  } catch (error) {
    problem = md`I could not post its card: ${describeError(error, deps.logger, cmd.channel)}`;
  }
  return respond({
    response_type: 'ephemeral',
    replace_original: true,
    ...buildConferenceCreated(conference, { dropped, problem }),
  });
}

/**
 * `/conference`: acks at once (the platform may take seconds), then answers through the response_url.
 * Text that is complete creates directly; otherwise the form opens prefilled with what was understood.
 */
export const handleConferenceCommand = (deps: ConferenceDeps & MediaDeps & LinkDeps) => {
  const working = (what: string) => ({
    response_type: 'ephemeral' as const,
    ...textMessage(workingText(what, deps.conferences.waitMs())),
  });
  return async ({
    ack,
    command,
    respond: boltRespond,
    client,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const respond: Responder = boltRespond;
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
          ...(retryText !== undefined ? { build: (message: Mrkdwn) => failure(message, retryText) } : {}),
        },
        work,
      );

    switch (cmd.kind) {
      case 'help':
        return ack({ response_type: 'ephemeral', ...buildUsage('conference') });
      case 'digest':
        await ack();
        // Alone, or `edit <id>`: the form (the trigger lasts 3 s); otherwise the command itself.
        if (cmd.args === '' || /^edit\b/i.test(cmd.args))
          return later(async () => {
            const view = await digestFormFor(deps, cmd.args.replace(/^edit\s*/i, ''), { user, channel });
            if (!('type' in view)) {
              await respond({ response_type: 'ephemeral', ...view });
              return;
            }
            await client.views.open({ trigger_id: command.trigger_id, view });
          });
        return later(async () => {
          await tellIfSlow(respond, 'Working on the digest', deps.conferences.waitMs());
          await handleDigestCommand(deps, cmd.args, { user, channel }, respond);
        });
      case 'usage':
        return ack({ response_type: 'ephemeral', ...buildUsage('conference', cmd.error) });
      // issue 22: people
      case 'password':
        await ack(working('Working on the password reset'));
        return later(() => handlePasswordCommand(deps, cmd.login, { user, respond }));
      case 'admin': {
        // issue 22: people
        if (peopleAdminWords.test(cmd.args)) {
          await ack();
          return later(() =>
            handleAdminPeople(deps, cmd.args, { user, triggerId: command.trigger_id, client, log, channel }),
          );
        }
        // issue 22: `admin link @person <account>` and `admin unlink @person`.
        const linking = parseLinkCommand(cmd.args);
        if (linking) {
          if (linking.kind === 'bad')
            return ack({ response_type: 'ephemeral', ...textMessage(md`${linking.problem}`) });
          await ack(
            working(linking.kind === 'link' ? 'Looking up the platform account' : 'Working on the link'),
          );
          return later(async () => {
            const message = await handleLinkCommand(deps, linking, { user, team: command.team_id });
            await respond({ response_type: 'ephemeral', replace_original: true, ...textMessage(message) });
          });
        }
        // In distribution mode the workspace's settings middleware answered it before this listener.
        if (cmd.args.trim().toLowerCase() === 'settings')
          return ack({
            response_type: 'ephemeral',
            ...textMessage(
              md`This confdesk serves one workspace: its settings come from its environment (\`.env\`, see the README's *Configuration*). \`/conference admin settings\` is for confdesk installed with Add to Slack.`,
            ),
          });
        if (cmd.args.toLowerCase() !== 'doctor') return ack({ response_type: 'ephemeral', ...adminUsage() });
        await ack(working('Working through the doctor’s checks'));
        return later(async () => {
          await deps.access.require(user, 'admin.doctor');
          if (!deps.doctor) {
            await respond({
              response_type: 'ephemeral',
              replace_original: true,
              ...textMessage(
                md`The doctor is not available in this process: run \`npm run doctor\` beside the bot.`,
              ),
            });
            return;
          }
          const report = await deps.doctor();
          await respond({ response_type: 'ephemeral', replace_original: true, ...buildDoctorReport(report) });
        });
      }
      // issue 22: the media library modal, with the filters typed (a bad one is told in the modal).
      case 'media': {
        const filters = parseMediaFilters(cmd.args);
        if (!filters.ok)
          return ack({ response_type: 'ephemeral', ...buildUsage('conference', filters.error) });
        await ack();
        return later(() =>
          openMediaLibrary(deps, {
            user,
            triggerId: command.trigger_id,
            client,
            log,
            text: cmd.args,
            channel,
          }),
        );
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
            ...buildConferenceDeletePrompt(c),
          });
        });
      case 'create': {
        if (text.trim() && isCompleteRequest(cmd.request)) {
          await ack(working('Creating the conference'));
          return later(() => createFromText(deps, respond, { user, channel, text }, cmd.request), text);
        }
        await ack();
        return later(async () => {
          const view = await formFromText(deps, user, channel, text);
          await client.views.open({ trigger_id: command.trigger_id, view });
        });
      }
    }
  };
};

/** Registers `handleConferenceCommand`. */
export function registerConferenceCommand(app: App, deps: ConferenceDeps & MediaDeps & LinkDeps): void {
  app.command(ids.commands.conference, handleConferenceCommand(deps));
}
