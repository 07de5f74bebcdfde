/** The simulator's records, as it keeps them in memory. Wire shapes are produced by `present.ts`. */

export interface SimEnterprise {
  id: number;
  name: string;
  features: { conference: boolean };
  quotas: { users: number; disk_mb: number; sms: number; sessions: number };
}

export interface SimUser {
  id: number;
  enterpriseId: number;
  username: string;
  password: string;
  email: string | undefined;
  cellPhone: string | undefined;
  firstName: string;
  lastName: string;
  role: 'admin' | 'agent';
  groups: number[];
  extra: Record<string, string | number>;
  created: number;
  deleted: boolean;
}

export interface SimGroup {
  id: number;
  enterpriseId: number;
  name: string;
}

export interface SimConference {
  id: number;
  enterpriseId: number;
  name: string;
  roomName: string;
  participants: string[];
  message: string | undefined;
  password: string | undefined;
  moderation: boolean;
  entryMode: string | undefined;
  startTime: number;
  open: boolean;
  duration: number;
  reminder: number | undefined;
  templateId: number | undefined;
  language: string | undefined;
  invite: boolean;
  moderatorId: number;
  createdBy: number;
  serviceKey: string;
  scope: string[];
  created: number;
  modified: number;
}

export interface SimEvent {
  id: string;
  eventName: string;
  timestamp: number;
  source: 'agent' | 'guest' | 'system';
  data: Record<string, unknown>;
}

export interface SimTicket {
  id: number;
  enterpriseId: number;
  state: string;
  type: string | undefined;
  subject: string | undefined;
  reference: string | undefined;
  description: string | undefined;
  agentId: number | undefined;
  groupId: number | undefined;
  language: string | undefined;
  startTime: number | undefined;
  endTime: number | undefined;
  duration: number;
  reminder: number | undefined;
  serviceKey: string;
  scopes: string[];
  agentTemplateId: number | undefined;
  requestorTemplateId: number | undefined;
  inviteOrganizer: boolean;
  requestor: {
    name: string | undefined;
    firstName: string | undefined;
    company: string | undefined;
    gender: string | undefined;
    country: string | undefined;
    phones: string[];
    emails: string[];
  };
  createdBy: number;
  created: number;
  modified: number;
  deleted: number | undefined;
  events: SimEvent[];
}

/** Media bytes: stored, or generated on the fly from a seed (large synthetic recordings). */
export type SimContent = { kind: 'bytes'; data: Buffer } | { kind: 'generated'; size: number; seed: number };

export interface SimMedia {
  id: number;
  enterpriseId: number;
  userId: number;
  type: 'snapshot' | 'capture' | 'recording' | 'document';
  status: string;
  title: string;
  description: string;
  lat: number | undefined;
  lng: number | undefined;
  format: string;
  filename: string;
  sourceType: number;
  conversationId: string;
  ticketId: number | undefined;
  conferenceId: number | undefined;
  /** Its user group (presented as `group_id`, a guess: the spec does not show the record). */
  groupId: number | undefined;
  tags: string[];
  created: number;
  content: SimContent;
}

export interface SimSession {
  enterpriseId: number;
  ticketId: number | undefined;
  start: number;
  end: number | undefined;
}

export interface SimExport {
  id: string;
  enterpriseId: number;
  ticketId: number;
  format: 'json' | 'csv';
  body: Buffer;
}
