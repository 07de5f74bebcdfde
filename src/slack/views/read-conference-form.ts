import type { z } from 'zod';
import { ids } from '../../blocks/ids.js';
import { tPlain } from '../../blocks/text.js';
import type { ConferenceFormValues } from '../../domain/conference.js';
import { pastGraceMs } from '../../domain/time.js';
import type { Locale } from '../../i18n/locale.js';
import { conferenceFields } from '../../platform/endpoints.js';
import { participants as participantsSchema, serviceKey } from '../../platform/schemas.js';
import { problemOf, viewState } from '../input/view-state.js';

const f = ids.conferenceForm;

/** The form as read; the password is apart from `values` because values are shown back in the form. */
export type FormRead =
  | { ok: true; values: ConferenceFormValues; password: string | undefined }
  | { ok: false; errors: Record<string, string>; values: ConferenceFormValues };

/**
 * Reads the conference form's state and checks every rule the spec states, with the same schemas the
 * platform client applies, so that errors show under the inputs (`response_action: errors`).
 */
export function readConferenceForm(
  rawState: unknown,
  mode: 'create' | 'edit',
  now: Date,
  locale: Locale,
): FormRead {
  const { get, str, int, list, date, chosen, option } = viewState(rawState);
  const options = chosen(f.options);
  const typed = list(f.participants);
  const values: ConferenceFormValues = {
    channel: get(f.channel)?.selected_conversation ?? undefined,
    participants: typed,
    people: get(f.people)?.selected_users ?? [],
    name: str(f.name),
    startTime: date(f.startTime),
    duration: int(f.duration),
    message: str(f.message),
    moderation: options.has('moderation'),
    open: options.has('open'),
    invite: options.has('invite'),
    entryMode: str(f.entryMode),
    reminder: int(f.reminder),
    templateId: int(f.templateId),
    language: option(f.language),
    moderator: get(f.moderator)?.selected_user ?? undefined,
    serviceKey: mode === 'create' ? str(f.serviceKey) : undefined,
    sso: chosen(f.scope).has('sso'),
  };
  const password = str(f.password);

  const errors: Record<string, string> = {};
  const check = (blockId: string, schema: z.ZodType, value: unknown) => {
    if (value === undefined) return;
    const p = problemOf(schema, value, locale);
    if (p) errors[blockId] = p;
  };
  if (mode === 'create' && !values.channel)
    errors[f.channel] = tPlain(locale, 'conference.form.errorChannel');
  if (typed.length) check(f.participants, participantsSchema, typed);
  else if (mode === 'create' && values.people.length === 0)
    errors[f.participants] = tPlain(locale, 'conference.form.errorNobody');
  check(f.name, conferenceFields.name, values.name);
  check(f.message, conferenceFields.message, values.message);
  check(f.password, conferenceFields.password, password);
  check(f.duration, conferenceFields.duration, values.duration);
  check(f.reminder, conferenceFields.reminder, values.reminder);
  check(f.templateId, conferenceFields.templateId, values.templateId);
  check(f.serviceKey, serviceKey, values.serviceKey);
  if (mode === 'create' && values.startTime && values.startTime.getTime() < now.getTime() - pastGraceMs)
    errors[f.startTime] = tPlain(locale, 'conference.form.errorPast');
  return Object.keys(errors).length ? { ok: false, errors, values } : { ok: true, values, password };
}
