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
