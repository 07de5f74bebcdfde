import { z } from 'zod';
import type { ConferenceFormValues } from '../../blocks/conference-form.js';
import { pastGraceMs } from '../../domain/time.js';
import { conferenceFields } from '../../platform/endpoints.js';
import { participants as participantsSchema, serviceKey } from '../../platform/schemas.js';
import { ids } from '../ids.js';

const f = ids.conferenceForm;

/** The parts of a submitted view's state the form uses (Slack's `view.state.values`). */
const element = z.looseObject({
  value: z.string().nullish(),
  selected_users: z.array(z.string()).nullish(),
  selected_user: z.string().nullish(),
  selected_conversation: z.string().nullish(),
  selected_date_time: z.number().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).nullish(),
});
const stateValues = z.record(z.string(), z.record(z.string(), element));

/** The form as read; the password is apart from `values` because values are shown back in the form. */
export type FormRead =
  | { ok: true; values: ConferenceFormValues; password: string | undefined }
  | { ok: false; errors: Record<string, string>; values: ConferenceFormValues };

const problemOf = (schema: z.ZodType, value: unknown): string | undefined => {
  const r = schema.safeParse(value);
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'is not valid');
};
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Reads the conference form's state and checks every rule the spec states, with the same schemas the
 * platform client applies, so that errors show under the inputs (`response_action: errors`).
 */
export function readConferenceForm(rawState: unknown, mode: 'create' | 'edit', now: Date): FormRead {
  const parsed = stateValues.safeParse(rawState);
  const state = parsed.success ? parsed.data : {};
  const get = (blockId: string) => state[blockId]?.value;
  const str = (blockId: string) => {
    const v = get(blockId)?.value?.trim();
    return v ? v : undefined;
  };
  const int = (blockId: string) => {
    const v = str(blockId);
    return v === undefined ? undefined : Number(v);
  };
  const options = new Set((get(f.options)?.selected_options ?? []).map((o) => o.value));
  const typed = (str(f.participants) ?? '')
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const dt = get(f.startTime)?.selected_date_time;
  const values: ConferenceFormValues = {
    channel: get(f.channel)?.selected_conversation ?? undefined,
    participants: typed,
    people: get(f.people)?.selected_users ?? [],
    name: str(f.name),
    startTime: typeof dt === 'number' ? new Date(dt * 1000) : undefined,
    duration: int(f.duration),
    message: str(f.message),
    moderation: options.has('moderation'),
    open: options.has('open'),
    invite: options.has('invite'),
    entryMode: str(f.entryMode),
    reminder: int(f.reminder),
    templateId: int(f.templateId),
    language: get(f.language)?.selected_option?.value,
    moderator: get(f.moderator)?.selected_user ?? undefined,
    serviceKey: mode === 'create' ? str(f.serviceKey) : undefined,
    sso: (get(f.scope)?.selected_options ?? []).some((o) => o.value === 'sso'),
  };
  const password = str(f.password);

  const errors: Record<string, string> = {};
  const check = (blockId: string, schema: z.ZodType, value: unknown) => {
    if (value === undefined) return;
    const p = problemOf(schema, value);
    if (p) errors[blockId] = capitalized(p);
  };
  if (mode === 'create' && !values.channel) errors[f.channel] = 'Choose where to post the conference card.';
  if (typed.length) check(f.participants, participantsSchema, typed);
  else if (mode === 'create' && values.people.length === 0)
    errors[f.participants] = 'Add at least one e-mail or phone number, or pick people from Slack below.';
  check(f.name, conferenceFields.name, values.name);
  check(f.message, conferenceFields.message, values.message);
  check(f.password, conferenceFields.password, password);
  check(f.duration, conferenceFields.duration, values.duration);
  check(f.reminder, conferenceFields.reminder, values.reminder);
  check(f.templateId, conferenceFields.templateId, values.templateId);
  check(f.serviceKey, serviceKey, values.serviceKey);
  if (mode === 'create' && values.startTime && values.startTime.getTime() < now.getTime() - pastGraceMs)
    errors[f.startTime] = 'This time has passed. Pick a time ahead, or leave empty to start now.';
  return Object.keys(errors).length ? { ok: false, errors, values } : { ok: true, values, password };
}
