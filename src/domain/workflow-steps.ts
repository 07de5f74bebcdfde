import { z } from 'zod';
import { email, phone } from '../platform/schemas.js';
import { ticketMoves } from './ticket-workflow.js';

/*
 * confdesk's Workflow Builder steps (Bolt custom steps), as the manifest declares them and as their
 * inputs are read. https://docs.slack.dev/tools/bolt-js/concepts/custom-steps
 *
 * Who a step acts for: only a person Slack vouches for. A `slack#/types/user_context` input has no
 * field in Workflow Builder and cannot be typed by the builder: Slack fills it with the person who
 * started the workflow (or the one who clicked a button in an earlier step), with a `secret` Slack
 * checks. An `interactivity` input carries its `interactor`, the same kind of value. A user id in a
 * plain input proves nothing (the builder typed it), so no step reads one to decide who acts.
 * https://docs.slack.dev/reference/types/user_context-type
 */

/** One input or output parameter of a step, as the manifest writes it. */
export interface StepParameter {
  type: string;
  title: string;
  description?: string;
  hint?: string;
  items?: { type: string };
  enum?: readonly string[];
  choices?: readonly { value: string; title: string }[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** A step as the manifest's `functions` declares it (manifest v2: `properties` and `required`). */
export interface StepDefinition {
  title: string;
  description: string;
  input_parameters: { properties: Record<string, StepParameter>; required: string[] };
  output_parameters: { properties: Record<string, StepParameter>; required: string[] };
}

/** The steps' callback ids (the manifest's `functions` keys, Bolt's `function_executed` routing key). */
export const stepIds = {
  createConference: 'create_conference',
  openTicket: 'open_ticket',
  moveTicket: 'move_ticket',
} as const;
export type StepId = (typeof stepIds)[keyof typeof stepIds];

/** The input every step reads its person from: filled by Slack, never by the builder. */
const runAs: StepParameter = {
  type: 'slack#/types/user_context',
  title: 'Run as',
  description:
    'The person the step acts for, with their own rights on the video platform: the person who used the workflow, or who clicked a button in an earlier step.',
};

const channel = (what: string): StepParameter => ({
  type: 'slack#/types/channel_id',
  title: 'Channel',
  description: `Where the ${what}’s card is posted (confdesk must be a member: /invite @confdesk).`,
});

const cardLink: StepParameter = {
  type: 'string',
  title: 'Card link',
  description: 'The permalink of the card confdesk posted (empty when Slack gave none).',
};

/** The steps, by callback id: what `manifest.steps.yml`'s `functions` holds (generated from this). */
export const stepDefinitions: Record<StepId, StepDefinition> = {
  [stepIds.createConference]: {
    title: 'Create a video conference',
    description: 'Plans a video conference on the platform and posts its card with a Join button.',
    input_parameters: {
      properties: {
        run_as: runAs,
        title: { type: 'string', title: 'Title' },
        participants: {
          type: 'array',
          items: { type: 'slack#/types/user_id' },
          title: 'Participants',
          description: 'Slack people invited (by their Slack e-mail).',
        },
        guests: {
          type: 'string',
          title: 'Guests',
          description: 'Other participants: e-mails or international phone numbers, separated by commas.',
        },
        start: { type: 'slack#/types/timestamp', title: 'Start' },
        duration: {
          type: 'integer',
          title: 'Duration (minutes)',
          minimum: 5,
          maximum: 1440,
          default: 30,
        },
        channel: channel('conference'),
      },
      required: ['run_as', 'title', 'start', 'channel'],
    },
    output_parameters: {
      properties: {
        conference_id: { type: 'string', title: 'Conference id' },
        join_link: { type: 'string', title: 'Join link', description: 'Empty when the platform gave none.' },
        card_link: cardLink,
      },
      required: ['conference_id'],
    },
  },
  [stepIds.openTicket]: {
    title: 'Open an assistance ticket',
    description: 'Opens a remote-assistance ticket on the platform and posts its card, as /ticket does.',
    input_parameters: {
      properties: {
        run_as: runAs,
        interactivity: {
          type: 'slack#/types/interactivity',
          title: 'Interactivity',
          description: 'Optional: when set, the step acts for the person who clicked (its interactor).',
        },
        requestor: {
          type: 'string',
          title: 'Requestor',
          description: 'The requestor’s e-mail or international phone number (+33…).',
        },
        subject: { type: 'string', title: 'Subject' },
        group: { type: 'string', title: 'Group', description: 'A platform group’s name (optional).' },
        agent: {
          type: 'slack#/types/user_id',
          title: 'Agent',
          description: 'Optional: the agent, by their Slack e-mail; empty, the person the step runs as.',
        },
        channel: channel('ticket'),
      },
      required: ['run_as', 'requestor', 'subject', 'channel'],
    },
    output_parameters: {
      properties: {
        ticket_id: { type: 'string', title: 'Ticket id' },
        reference: { type: 'string', title: 'Reference' },
        card_link: cardLink,
      },
      required: ['ticket_id'],
    },
  },
  [stepIds.moveTicket]: {
    title: 'Move a ticket',
    description: 'Moves an assistance ticket to its next state, as its card’s buttons do.',
    input_parameters: {
      properties: {
        run_as: runAs,
        ticket: { type: 'string', title: 'Ticket', description: 'The ticket’s id or reference.' },
        move: {
          type: 'string',
          title: 'Move',
          enum: ticketMoves.map((m) => m.id),
          choices: ticketMoves.map((m) => ({ value: m.id, title: m.label })),
        },
      },
      required: ['run_as', 'ticket', 'move'],
    },
    output_parameters: {
      properties: { state: { type: 'string', title: 'New state' } },
      required: ['state'],
    },
  },
};

/** A `user_context` as Slack fills it: an id, and the secret Slack checks it with. */
const userContext = z.object({ id: z.string().regex(/^[UW][A-Z0-9]+$/), secret: z.string().min(1) });

/**
 * The Slack person a step acts for, as Slack vouches for them: the `interactivity` input's
 * interactor when the workflow has one, else the `run_as` user_context. Undefined when neither is
 * there in Slack's shape (the step then fails and says how to set the input). Nothing else of the
 * inputs names the person: a user id typed into a plain input is the builder's word, not Slack's.
 */
export function vouchedPerson(inputs: Record<string, unknown>): string | undefined {
  const interactor = z.object({ interactor: userContext }).safeParse(inputs.interactivity ?? undefined);
  if (interactor.success) return interactor.data.interactor.id;
  const context = userContext.safeParse(inputs.run_as ?? undefined);
  return context.success ? context.data.id : undefined;
}

const text = (label: string, max = 255) =>
  z
    .string({ error: `${label} is missing` })
    .trim()
    .min(1, `${label} is empty`)
    .max(max, `${label} is longer than ${max} characters`);
const slackUser = z.string().regex(/^[UW][A-Z0-9]+$/, 'is not a Slack user');

/** Splits a list of e-mails and phones typed with commas, semicolons or new lines (a phone may hold spaces). */
const contacts = (s: string) =>
  s
    .split(/[,;\n]+/)
    .map((c) => c.trim())
    .filter(Boolean);

/** The conference step's inputs, read. */
export const conferenceStepInputs = z.object({
  title: text('The title', 120),
  participants: z.array(slackUser).optional().default([]),
  guests: z
    .string()
    .optional()
    .transform((s, ctx) => {
      const out: string[] = [];
      for (const c of contacts(s ?? '')) {
        if (email.safeParse(c).success) out.push(c);
        else {
          const p = phone.safeParse(c);
          if (p.success) out.push(p.data);
          else
            ctx.addIssue({
              code: 'custom',
              message: `“${c}” is neither an e-mail nor an international phone number`,
            });
        }
      }
      return out;
    }),
  // Slack's timestamp type: Unix seconds (a number, or its digits).
  start: z.coerce.number({ error: 'The start is missing' }).int().positive('The start is missing'),
  duration: z.coerce
    .number()
    .int()
    .min(5, 'The duration is under 5 minutes')
    .max(1440)
    .optional()
    .default(30),
  channel: z
    .string({ error: 'The channel is missing' })
    .regex(/^[CGD][A-Z0-9]+$/, 'The channel is not a Slack channel'),
});

/** The ticket step's inputs, read. */
export const ticketStepInputs = z.object({
  requestor: z
    .string({ error: 'The requestor is missing' })
    .trim()
    .transform((s, ctx) => {
      if (email.safeParse(s).success) return { emails: [s], phones: [] as string[] };
      const p = phone.safeParse(s);
      if (p.success) return { emails: [] as string[], phones: [p.data] };
      ctx.addIssue({
        code: 'custom',
        message: 'The requestor is neither an e-mail nor an international phone number (+33…)',
      });
      return z.NEVER;
    }),
  subject: text('The subject'),
  group: z.string().trim().optional(),
  agent: slackUser.optional(),
  channel: z
    .string({ error: 'The channel is missing' })
    .regex(/^[CGD][A-Z0-9]+$/, 'The channel is not a Slack channel'),
});

/** The move step's inputs, read. */
export const moveStepInputs = z.object({
  ticket: text('The ticket', 100),
  move: z.enum(ticketMoves.map((m) => m.id) as [string, ...string[]], {
    error: `The move must be one of: ${ticketMoves.map((m) => m.id).join(', ')}`,
  }),
});

/** The first problem of a failed read: the input's name and the schema's words for it (English). */
export const inputProblem = (error: z.ZodError): { field: string; message: string } => {
  const issue = error.issues[0];
  return { field: issue?.path.join('.') ?? '', message: issue?.message ?? 'an input is not valid' };
};
