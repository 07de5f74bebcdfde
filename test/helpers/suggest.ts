/**
 * A type-ahead request as Slack sends it to the options load URL (`block_suggestion`): the menu's
 * action id and what the person typed so far.
 */
export function suggestion(
  user: string,
  actionId: string,
  value: string,
  team = 'T0000DBL',
): Record<string, unknown> {
  return {
    type: 'block_suggestion',
    user: { id: user, team_id: team },
    team: { id: team, domain: 'acme' },
    api_app_id: 'A1',
    token: 'legacy',
    container: { type: 'view', view_id: 'V1' },
    view: { id: 'V1', type: 'modal', callback_id: 'ticket_form', private_metadata: '' },
    action_id: actionId,
    block_id: 'agent',
    value,
  };
}

/** The options of a type-ahead answer (the ack's body). */
export const optionsOf = (body: unknown): { text: { text: string }; value: string }[] =>
  (body as { options?: { text: { text: string }; value: string }[] } | null)?.options ?? [];
