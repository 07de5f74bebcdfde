/** A person acting on a conference, as the platform knows them. */
export interface Actor {
  id: string;
  role: string | undefined;
}

/** Who may edit or delete a conference: its moderator, or an admin of the platform. */
export function canManageConference(actor: Actor, conference: { moderatorId: string | undefined }): boolean {
  return (
    actor.role === 'admin' || (conference.moderatorId !== undefined && conference.moderatorId === actor.id)
  );
}

/**
 * Who may see a conference's recordings and snapshots: those who may manage it, and its participants
 * (matched by e-mail).
 */
export function canViewConferenceMedia(
  actor: Actor & { email: string },
  conference: { moderatorId: string | undefined; participants: string[] },
): boolean {
  const email = actor.email.toLowerCase();
  return (
    canManageConference(actor, conference) || conference.participants.some((p) => p.toLowerCase() === email)
  );
}

/** A person acting on a ticket: their platform id, role and groups. */
export interface TicketActor extends Actor {
  groupIds: readonly string[];
}

/**
 * Who may move a ticket: its assigned agent, the members of its group, and platform admins. The
 * answer says why not, for the refusal.
 */
export function ticketPermission(
  actor: TicketActor,
  ticket: { agentId: string | undefined; groupId: string | undefined },
): { allowed: true } | { allowed: false; why: string } {
  if (actor.role === 'admin') return { allowed: true };
  if (ticket.agentId !== undefined && ticket.agentId === actor.id) return { allowed: true };
  if (ticket.groupId !== undefined && actor.groupIds.includes(ticket.groupId)) return { allowed: true };
  return {
    allowed: false,
    why:
      ticket.groupId !== undefined
        ? 'only its agent, the members of its group and platform admins can act on this ticket'
        : 'only its agent and platform admins can act on this ticket',
  };
}
