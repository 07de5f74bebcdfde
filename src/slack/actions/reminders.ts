import { z } from 'zod';
import { ids } from '../../blocks/ids.js';
import { leadChoices, type ReminderPrefs } from '../../domain/reminders.js';
import type { ReminderDeps } from '../deps.js';
import { readValue } from '../input/payloads.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** The values App Home's reminder buttons carry: off, one of the lead times offered, or the default. */
const choice = z.union([
  z.literal('off'),
  z.literal('default'),
  z.enum(leadChoices.map(String) as [string, ...string[]]),
]);

const prefsOf = (value: z.infer<typeof choice>): ReminderPrefs =>
  value === 'off'
    ? { enabled: false }
    : value === 'default'
      ? { enabled: true }
      : { enabled: true, leadMinutes: Number(value) };

/**
 * App Home's reminder settings: the person's own reminders off, or a lead time, or the conference's
 * (the policy's `reminders.set`, for one's own only: the clicker is the one whose choice is kept).
 * Reminders already on their way keep their time; the next ones follow the choice.
 */
export const handleReminderLead =
  (deps: ReminderDeps): ClickHandler =>
  async ({ user, value }) => {
    const chosen = readValue(choice, value);
    deps.access.check(await deps.access.asker(user), 'reminders.set');
    await deps.store.setReminderPrefs(user, prefsOf(chosen));
    await deps.homes.refresh(user);
  };

export function registerReminderActions(routes: ActionRoutes, deps: ReminderDeps): void {
  routes.on(ids.actions.reminderLead, handleReminderLead(deps));
  // A reminder's Join is a link: Slack opens it; the click is only acked.
  routes.on(ids.actions.reminderJoin, async () => undefined);
}
