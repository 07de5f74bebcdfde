import { buildDeletedCard } from '../../blocks/conference-card.js';
import { buildConferenceForm } from '../../blocks/conference-form.js';
import {
  buildConferenceDetails,
  buildConferenceList,
  buildJoinReply,
  buildMediaList,
} from '../../blocks/conference-list.js';
import { ids } from '../../blocks/ids.js';
import { buildWorkingView } from '../../blocks/modal.js';
import { phrase, tPlain } from '../../blocks/text.js';
import { buildDeletedUnfurl } from '../../blocks/unfurl.js';
import type { ConferenceFormValues } from '../../domain/conference.js';
import type { Locale } from '../../i18n/locale.js';
import { within } from '../../util/within.js';
import type { ConferenceDeps } from '../deps.js';
import {
  conferencePage,
  type FormMetadata,
  idValue,
  participantsPage,
  readJson,
  readValue,
} from '../input/payloads.js';
import { formFromText, gateMs } from '../openers/forms.js';
import { showUnfurl } from '../openers/unfurl-in-place.js';
import { ephemeral } from '../replies/ephemeral.js';
import { replyError, updateView } from '../replies/reply-error.js';
import { workingText } from '../replies/working-notice.js';
import type { ActionRoutes, ClickHandler } from '../runtime/action-routes.js';

/** Delete (after Slack's confirmation dialog): the card says so in place, the conference's other cards are told. */
export const handleConferenceDelete =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond, container, client }) => {
    const c = await deps.conferences.remove(user, readValue(idValue, value));
    // On a link's unfurl, the unfurl says it (the message is the poster's, not the bot's to replace).
    if (container.unfurl)
      await showUnfurl(client, container.unfurl, buildDeletedUnfurl(deps.locales.channel, c.name, c.id));
    else {
      // A card in a channel speaks the channel's language; one in a private reply, the person's.
      const locale = container.isEphemeral ? await deps.locales.person(user) : deps.locales.channel;
      await respond({ replace_original: true, ...buildDeletedCard(locale, c, user) });
    }
    deps.publisher.conferenceChanged(c);
  };

/** Recordings & snapshots: the conference's media, privately (it says itself when the platform is slow). */
export const handleConferenceMedia =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const wait = deps.conferences.waitMs();
    const locale = deps.locales.person(user);
    if (wait >= 3_000)
      await respond(ephemeral(workingText(await locale, phrase('working.recordings'), wait)));
    const { conference, items, total } = await deps.conferences.medias(user, readValue(idValue, value));
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildMediaList(await locale, conference, items, total),
    });
  };

/** Show: the conference's details, privately. */
export const handleConferenceShow =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const locale = deps.locales.person(user);
    const c = await deps.conferences.see(user, readValue(idValue, value));
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildConferenceDetails(await locale, c),
    });
  };

/** The details' participant pages, in place. */
export const handleConferenceShowPage =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const { id, page } = readJson(participantsPage, value);
    const locale = deps.locales.person(user);
    const c = await deps.conferences.see(user, id);
    await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildConferenceDetails(await locale, c, page),
    });
  };

/** Join: the link is given privately, on a click, to those the policy lets join. */
export const handleConferenceJoin =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const locale = deps.locales.person(user);
    const { conference, url } = await deps.conferences.joinLink(user, readValue(idValue, value));
    await respond({
      response_type: 'ephemeral',
      replace_original: false,
      ...buildJoinReply(await locale, conference, url),
    });
  };

/** The list's pages, in place. */
export const handleConferencePage =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, respond }) => {
    const q = readJson(conferencePage, value);
    const locale = deps.locales.person(user);
    const page = await deps.conferences.list(user, q);
    await respond({
      response_type: 'ephemeral',
      replace_original: true,
      ...buildConferenceList(await locale, q, page),
    });
  };

/** A failed command's "Open the form": the create form, prefilled from the command's words. */
export const handleConferenceOpenForm =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, channel, client, triggerId }) => {
    const view = await formFromText(deps, user, channel, value);
    await client.views.open({ trigger_id: triggerId, view: view });
  };

/** Edit: permission, then the prefilled form; its save updates the card clicked in place. */
export const handleConferenceEdit =
  (deps: ConferenceDeps): ClickHandler =>
  async ({ user, value, container: at, responseUrl, client, triggerId, log }) => {
    const conferenceId = readValue(idValue, value);
    // From a link's unfurl: the save updates the conference's own cards, not the poster's message.
    const meta: FormMetadata = at.unfurl
      ? { mode: 'edit', conferenceId }
      : at.isEphemeral || !at.channel || !at.ts
        ? { mode: 'edit', conferenceId, responseUrl }
        : { mode: 'edit', conferenceId, channel: at.channel, ts: at.ts };
    // The person's language is asked for beside the conference (their cached profile: no platform request).
    const asked = deps.locales.person(user);
    const form = (
      { values, hasPassword }: { values: ConferenceFormValues; hasPassword: boolean },
      locale: Locale,
    ) => buildConferenceForm({ locale, mode: 'edit', values, metadata: JSON.stringify(meta), hasPassword });
    // The trigger_id lasts 3 s: a refusal known quickly is an ephemeral reply; a slow platform gets a
    // "Working…" modal at once, then the form (or the refusal) in it.
    const loading = deps.conferences.forEditing(user, conferenceId);
    const early = await within(loading, gateMs);
    if (early && 'error' in early) throw early.error;
    const locale = await asked;
    if (early) {
      await client.views.open({ trigger_id: triggerId, view: form(early.value, locale) });
      return;
    }
    const title = tPlain(locale, 'conference.form.titleEdit');
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: buildWorkingView(
        locale,
        title,
        workingText(locale, phrase('working.loadingConference'), deps.conferences.waitMs()),
      ),
    });
    const show = updateView(client, opened.view?.id as string);
    await loading.then(
      (loaded) => show(form(loaded, locale)),
      (error: unknown) => replyError({ kind: 'modal', show, title, log, channel: at.channel, locale }, error),
    );
  };

/**
 * The conference card's buttons and the list's: Join (its link, privately), Edit, Delete, Recordings &
 * snapshots, Show and the list's paging. Every refusal or failure is an ephemeral reply. The doors that
 * answer in the channel say "Working…" when the platform is slow; those that open a modal have 3 s
 * (the trigger) and say it in the modal; Recordings & snapshots says it itself.
 */
export function registerConferenceActions(routes: ActionRoutes, deps: ConferenceDeps): void {
  const working = { working: phrase('working.working') };
  routes.on(ids.actions.conferenceDelete, handleConferenceDelete(deps), working);
  routes.on(ids.actions.conferenceMedia, handleConferenceMedia(deps));
  routes.on(ids.actions.conferenceShow, handleConferenceShow(deps), working);
  routes.on(ids.actions.conferenceShowPage, handleConferenceShowPage(deps), working);
  routes.on(ids.actions.conferenceJoin, handleConferenceJoin(deps), working);
  routes.on(ids.actions.conferencePage, handleConferencePage(deps), working);
  routes.on(ids.actions.conferenceOpenForm, handleConferenceOpenForm(deps));
  routes.on(ids.actions.conferenceEdit, handleConferenceEdit(deps));
}
