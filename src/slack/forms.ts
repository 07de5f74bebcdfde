import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { buildWorkingView } from '../blocks/modal.js';
import { buildTicketForm } from '../blocks/ticket-form.js';
import type { TicketFormValues } from '../domain/ticket.js';
import type { Logger } from '../observability/logger.js';
import { formFromText } from './conference-flows.js';
import type { ConferenceDeps, TicketFormDeps } from './deps.js';
import { workingText } from './describe-error.js';
import { replyError, updateView } from './reply-error.js';
import { afterAck, requestLog } from './route.js';

/*
 * The create forms, opened from several doors (a command, a shortcut, a button, App Home): here, so
 * that no surface imports another for them.
 */

const title = 'New ticket';

/**
 * Opens the create form. The trigger lasts 3 s and the group and agent lists come from the platform,
 * so a "Loading…" modal opens at once and the form replaces it when the lists are there.
 */
export async function openTicketForm(
  deps: TicketFormDeps,
  client: WebClient,
  triggerId: string,
  user: string,
  values: TicketFormValues,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: buildWorkingView(title, workingText('Loading the groups and agents', deps.waitMs())),
  });
  const viewId = opened.view?.id as string;
  // The agent defaults to the person, when they have a platform account.
  const agent = values.agent ?? (await deps.tickets.agentFor(user));
  const show = updateView(client, viewId);
  await deps.tickets.formChoices(user, { agent, groupId: values.groupId }).then(
    (choices) => show(buildTicketForm({ values: { ...values, agent }, choices, metadata: '' })),
    (error: unknown) =>
      replyError({ kind: 'modal', show, title, log: requestLog(deps.logger, { user }) }, error),
  );
}

/**
 * Opens the create form for a door without a command's text (the global shortcut, Home's button).
 * A refusal (no account) is shown in a modal: a shortcut from Home has no channel to answer in.
 */
export function openConferenceForm(
  deps: ConferenceDeps,
  client: WebClient,
  triggerId: string,
  who: { user: string; channel?: string | undefined; log: Logger },
): void {
  const show = (view: ModalView) => client.views.open({ trigger_id: triggerId, view });
  afterAck({ kind: 'modal', show, title: 'New conference', log: who.log }, async () =>
    show(await formFromText(deps, who.user, who.channel, '')),
  );
}
