import { ids } from '../../blocks/ids.js';
import type { Mrkdwn } from '../../blocks/mrkdwn.js';
import {
  buildPeopleBrowser,
  buildPeopleOutcome,
  buildPersonForm,
  type NewPersonValues,
} from '../../blocks/people.js';
import { t, tPlain } from '../../blocks/text.js';
import type { PersonUpdate } from '../../domain/people.js';
import type { Locale } from '../../i18n/locale.js';
import type { Logger } from '../../observability/logger.js';
import { endpoints } from '../../platform/endpoints.js';
import type { PeopleDeps, ViewSubmission } from '../deps.js';
import { type BrowserRef, createMetadata, parseJson, personMetadata, readJson } from '../input/payloads.js';
import { problemOf, viewState } from '../input/view-state.js';
import { peopleWorking } from '../openers/people-browsers.js';
import { submitThenWork } from '../openers/working-modal.js';
import { updateView } from '../replies/reply-error.js';
import type { Listeners } from '../runtime/listener-tables.js';

/*
 * Submissions of the People screens: the browser's Search button, the create form, the
 * edit form and the delete confirmation. The create form's password is read once, handed to the
 * service, and appears in no view, metadata, message or log line. Everything is written in the
 * language of the admin who submits (their Slack locale), the inline problems too.
 */

const p = ids.people;
const createRules = endpoints.createUser.input.shape;

/** The create form as typed (without the password) and the password, or the rule breaks by block id (in `locale`). */
export function readPersonCreate(
  locale: Locale,
  raw: unknown,
):
  | { ok: true; values: NewPersonValues; password: string }
  | { ok: false; values: NewPersonValues; errors: Record<string, string> } {
  const { str, get } = viewState(raw);
  const values: NewPersonValues = {
    username: str(p.username),
    email: str(p.email),
    cellPhone: str(p.cellPhone)?.replace(/[\s.()-]/g, ''),
    firstName: str(p.firstName),
    lastName: str(p.lastName),
  };
  // Not trimmed: spaces may be part of a password.
  const password = get(p.password)?.value ?? '';
  const errors: Record<string, string> = {};
  const say = (key: Parameters<typeof tPlain>[1]) => tPlain(locale, key);
  if (!values.username) errors[p.username] = say('people.problem.username');
  else if (/\s/.test(values.username)) errors[p.username] = say('people.problem.usernameSpaces');
  if (!password) errors[p.password] = say('people.problem.password');
  if (!values.email && !values.cellPhone) errors[p.email] = say('people.problem.emailOrPhone');
  // The rules are the endpoint's (`createUser`); what they find is said in the admin's language.
  if (values.email && problemOf(createRules.email, values.email, 'en'))
    errors[p.email] = say('people.problem.email');
  if (values.cellPhone && problemOf(createRules.cellPhone, values.cellPhone, 'en'))
    errors[p.cellPhone] = say('people.problem.cellPhone');
  return Object.keys(errors).length ? { ok: false, values, errors } : { ok: true, values, password };
}

/** The edit form's update fields as typed (empty ones left out), or the rule breaks by block id (in `locale`). */
export function readPersonEdit(
  locale: Locale,
  raw: unknown,
): { ok: true; values: PersonUpdate } | { ok: false; values: PersonUpdate; errors: Record<string, string> } {
  const { str, int } = viewState(raw);
  const values: PersonUpdate = {
    firstName: str(p.firstName),
    lastName: str(p.lastName),
    avatar: str(p.avatar),
    phoneNumber: str(p.phoneNumber),
    jobTitle: str(p.jobTitle),
    audioOnly: int(p.audioOnly),
    clickToChat: int(p.clickToChat),
    maxOngoingChat: int(p.maxOngoingChat),
  };
  const errors: Record<string, string> = {};
  for (const k of ['audioOnly', 'clickToChat'] as const) {
    const v = values[k];
    if (v !== undefined && v !== 0 && v !== 1) errors[p[k]] = tPlain(locale, 'people.problem.zeroOrOne');
  }
  const max = values.maxOngoingChat;
  if (max !== undefined && (!Number.isInteger(max) || max < 0))
    errors[p.maxOngoingChat] = tPlain(locale, 'people.problem.wholeNumber');
  return Object.keys(errors).length ? { ok: false, values, errors } : { ok: true, values };
}

/**
 * The People browser under a pushed modal, shown again after a write (a deleted person gone, a new one
 * there). A failure here is only logged: the write is done and its outcome is what the person sees.
 */
async function refreshBrowser(
  deps: PeopleDeps,
  client: ViewSubmission['client'],
  user: string,
  browser: BrowserRef | undefined,
  log: Logger,
  locale: Locale,
): Promise<void> {
  if (!browser) return;
  try {
    const page = await deps.people.list(user, { search: browser.q, offset: browser.o });
    await updateView(client, browser.id)(buildPeopleBrowser(locale, page));
  } catch (error) {
    log.warn({ err: error }, 'could not refresh the People browser');
  }
}

/** The Search button of the People browser: the first page of what the box holds, in place. */
export const handlePeopleBrowserSubmit =
  (deps: PeopleDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { view } = submission;
    const state = view.state.values as Record<string, Record<string, { value?: unknown }> | undefined>;
    const typed = state[p.search]?.[ids.actions.peopleSearch]?.value;
    const search = (typeof typed === 'string' ? typed : '').trim().slice(0, 500);
    const locale = await deps.locales.person(submission.body.user.id);
    const working = peopleWorking(deps, locale, 'people.working.search');
    await submitThenWork(
      submission,
      { title: tPlain(locale, 'people.browser.title'), working, logger: deps.logger, locale },
      async ({ user, show }) =>
        show(buildPeopleBrowser(locale, await deps.people.list(user, { search, offset: 0 }))),
    );
  };

/**
 * The create form: rule breaks inline at once; otherwise "Working…", the user created, the outcome.
 * A refusal brings the form back with what was typed except the password, the reason under the
 * input it names.
 */
export const handlePersonCreate =
  (deps: PeopleDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client } = submission;
    const locale = await deps.locales.person(submission.body.user.id);
    const read = readPersonCreate(locale, view.state.values);
    if (!read.ok) return ack({ response_action: 'errors', errors: read.errors });
    const { values, password } = read;
    const meta = createMetadata.safeParse(parseJson(view.private_metadata));
    const browser = meta.success ? meta.data.b : undefined;
    const blocks = p as Record<string, string>;
    const again = (message: Mrkdwn, error: unknown) => {
      const named = (error as { field?: unknown })?.field;
      const field = typeof named === 'string' ? blocks[named] : undefined;
      return buildPersonForm({
        locale,
        mode: 'create',
        values,
        notices: [
          field ? t(locale, 'people.create.againField') : t(locale, 'people.create.again', { message }),
        ],
        ...(field ? { problems: { [field]: message } } : {}),
      });
    };
    const working = peopleWorking(deps, locale, 'people.working.create');
    await submitThenWork(
      submission,
      { title: tPlain(locale, 'people.create.title'), working, again, logger: deps.logger, locale },
      async ({ user, show, log }) => {
        const created = await deps.people.create(user, {
          ...values,
          username: values.username ?? '',
          password,
        });
        await show(buildPeopleOutcome(locale, { kind: 'created', ...created }));
        await refreshBrowser(deps, client, user, browser, log, locale);
      },
    );
  };

/** The edit form: the fields given are saved; a refusal brings the form back with the reason. */
export const handlePersonEdit =
  (deps: PeopleDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { ack, view, client } = submission;
    const locale = await deps.locales.person(submission.body.user.id);
    const read = readPersonEdit(locale, view.state.values);
    if (!read.ok) return ack({ response_action: 'errors', errors: read.errors });
    const { u: userId, b: browser } = readJson(personMetadata, view.private_metadata);
    const again = (message: Mrkdwn) =>
      buildPersonForm({
        locale,
        mode: 'edit',
        values: read.values,
        metadata: view.private_metadata,
        who: tPlain(locale, 'people.userFallback', { id: userId }),
        notices: [t(locale, 'people.edit.again', { message })],
      });
    const working = peopleWorking(deps, locale, 'people.working.save');
    await submitThenWork(
      submission,
      { title: tPlain(locale, 'people.edit.title'), working, again, logger: deps.logger, locale },
      async ({ user, show, log }) => {
        const person = await deps.people.update(user, userId, read.values);
        await show(buildPeopleOutcome(locale, { kind: 'updated', person }));
        await refreshBrowser(deps, client, user, browser, log, locale);
      },
    );
  };

/** The delete confirmation's Delete. */
export const handlePersonDelete =
  (deps: PeopleDeps) =>
  async (submission: ViewSubmission): Promise<void> => {
    const { view, client } = submission;
    const { u: userId, b: browser } = readJson(personMetadata, view.private_metadata);
    const locale = await deps.locales.person(submission.body.user.id);
    const working = peopleWorking(deps, locale, 'people.working.delete');
    await submitThenWork(
      submission,
      { title: tPlain(locale, 'people.delete.title'), working, logger: deps.logger, locale },
      async ({ user, show, log }) => {
        const person = await deps.people.remove(user, userId);
        await show(buildPeopleOutcome(locale, { kind: 'deleted', person }));
        await refreshBrowser(deps, client, user, browser, log, locale);
      },
    );
  };

/** Registers the People screens' submissions. */
export function registerPeopleViews(app: Listeners, deps: PeopleDeps): void {
  app.view(ids.views.peopleBrowser, handlePeopleBrowserSubmit(deps));
  app.view(ids.views.personCreate, handlePersonCreate(deps));
  app.view(ids.views.personEdit, handlePersonEdit(deps));
  app.view(ids.views.personDelete, handlePersonDelete(deps));
}
