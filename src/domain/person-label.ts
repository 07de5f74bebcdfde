/** A person as a card names them: the platform's id when it gives one, and a label for people. */
export interface PersonLabel {
  id?: string;
  label: string;
}

/**
 * A person as the platform embeds them in a record (a ticket's agent, a conference's moderator): a
 * bare id, or an object with some of id/name/firstname/lastname/username. The best label the record
 * allows, never empty. (Written once: the ticket and conference mappers both use it.)
 */
export function personLabel(p: unknown): PersonLabel | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p === 'string' || typeof p === 'number') return { id: String(p), label: `user ${p}` };
  const o = p as Record<string, unknown>;
  const full = [o.firstname, o.lastname].filter((x) => typeof x === 'string' && x).join(' ');
  const label =
    (o.name as string | undefined) || full || (o.username as string | undefined) || `user ${o.id}`;
  return { ...(o.id !== undefined ? { id: String(o.id) } : {}), label };
}
