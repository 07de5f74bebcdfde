import { describe, expect, it } from 'vitest';
import { escaped } from '../../../src/blocks/mrkdwn.js';
import { policy } from '../../../src/domain/policy.js';
import { workspaceRules } from '../../../src/domain/workspace-settings.js';
import { en } from '../../../src/i18n/en.js';
import { createLogger } from '../../../src/observability/logger.js';
import {
  PlatformAddressError,
  PlatformClosedError,
  type PlatformError,
  PlatformGrantDeadlineError,
  PlatformHttpError,
  PlatformNetworkError,
  PlatformRateLimitedError,
  PlatformResponseError,
} from '../../../src/platform/errors.js';
import { AccessService } from '../../../src/services/access.js';
import { type ConfdeskError, noPlatformAccount } from '../../../src/services/errors.js';
import type { IdentityService } from '../../../src/services/identity.js';
import { describeError } from '../../../src/slack/replies/describe-error.js';
import { workingText } from '../../../src/slack/replies/working-notice.js';
import { englishLeft } from '../../i18n/english-left.js';

/*
 * The one sentence of a failure in the person's language: the platform's errors (English in
 * platform/, below blocks/) are written in French by code and status, English staying exactly the
 * platform's own sentence; the policy's refusals and the identity's sentences come from the catalogs.
 */

const log = createLogger('silent');
const page = '<html><head><title>Proxy page</title></head></html>';
/** Every sentence the platform's errors have (the platform's own words: `Détail X`, `host.example`). */
const platformErrors: PlatformError[] = [
  new PlatformNetworkError('getMe', 'timeout', undefined),
  new PlatformNetworkError('getMe', 'connection', 'ECONNREFUSED'),
  new PlatformNetworkError('createTicket', 'connection', undefined, { brokeOff: 'mayBeDone' }),
  new PlatformNetworkError('getMe', 'connection', undefined, { brokeOff: 'retryable' }),
  new PlatformHttpError('getMe', 401, undefined),
  new PlatformHttpError('getTicket', 403, { message: 'Détail X' }),
  new PlatformHttpError('getTicket', 403, undefined),
  new PlatformHttpError('getTicket', 404, { message: 'Détail X' }),
  new PlatformHttpError('getTicket', 404, ''),
  new PlatformHttpError('getTicket', 404, page),
  new PlatformHttpError('getTicket', 302, undefined, 'host.example'),
  new PlatformHttpError('getTicket', 301, undefined),
  new PlatformHttpError('getTicket', 503, undefined),
  new PlatformHttpError('getTicket', 409, { message: 'Détail X' }),
  new PlatformHttpError('getTicket', 409, ''),
  new PlatformHttpError('getTicket', 418, page),
  new PlatformRateLimitedError('getMe', 12_400),
  new PlatformResponseError('getMe', 'id', 'Détail X', true),
  new PlatformResponseError('getMe', 'id', 'not a number'),
  new PlatformClosedError('getMe'),
  new PlatformAddressError('getMedia', 'host.example', 'Détail X'),
  new PlatformGrantDeadlineError('moveTicket', 20_000),
];
const platformOwn = ['Détail X', 'host.example', 'Proxy page', 'Conflict', 'HTTP 418'];

describe('describeError in the person’s language', () => {
  it('writes every platform error in English exactly as the platform says it, and in French with no English left', () => {
    for (const error of platformErrors) {
      const english = describeError(error, log, undefined, 'en').text;
      expect(english, error.message).toBe(escaped(error.userMessage).text);
      const french = describeError(error, log, undefined, 'fr').text;
      expect(french, error.message).not.toBe(english);
      expect(englishLeft({ text: french }, platformOwn), french).toEqual([]);
      for (const own of platformOwn.filter((w) => error.userMessage.includes(w)))
        expect(french, error.message).toContain(own);
    }
  });

  it('keeps the platform’s own words escaped in French too', () => {
    const error = new PlatformHttpError('getTicket', 409, { message: '<!channel> & co' });
    expect(describeError(error, log, undefined, 'fr').text).toContain('&lt;!channel&gt; &amp; co');
  });

  it('writes the generic sentences (Slack’s refusals, a bad request, an unexpected failure) in French', () => {
    const slackGone = Object.assign(new Error('An API error occurred: not_in_channel'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'not_in_channel' },
    });
    expect(describeError(slackGone, log, 'C1', 'fr').text).toBe(
      'Je ne suis pas membre de <#C1>, je ne peux donc pas y publier\u202f: tapez `/invite @confdesk` dans le canal, puis réessayez.',
    );
    expect(describeError(slackGone, log, 'C1', 'en').text).toBe(
      'I am not a member of <#C1>, so I cannot post there: type `/invite @confdesk` in the channel. Then try again.',
    );
    const unexpected = describeError(new Error('boom'), log, undefined, 'fr').text;
    expect(unexpected).toMatch(/^Une erreur s’est produite du côté de confdesk \(référence `[0-9A-F]{6}`\)/);
    const bad = new PlatformHttpError('createTicket', 400, { message: 'email: invalid' });
    expect(describeError(bad, log, undefined, 'fr').text).toBe(
      'La plateforme vidéo a refusé cette demande\u202f: email: invalid. Vérifiez les valeurs, puis réessayez.',
    );
    expect(describeError(bad, log, undefined, 'en').text).toBe(
      'The video platform refused this: email: invalid. Please check the values and try again.',
    );
  });
});

describe('the services’ sentences in the reader’s language', () => {
  it('says “no platform account” in French, English unchanged', () => {
    const e = noPlatformAccount('zoe@x.example');
    expect(e.userMessage.text).toBe(
      'Your Slack e-mail (zoe@x.example) has no account on the video platform. Ask a platform administrator to create one with this e-mail, then try again.',
    );
    expect(e.messageIn('fr').text).toContain('Votre e-mail Slack (zoe@x.example) n’a pas de compte');
    expect(noPlatformAccount(undefined).messageIn('fr').text).toMatch(
      /^Votre profil Slack n’a pas d’adresse e-mail/,
    );
  });

  it('has one catalog sentence per policy row, the English exactly the row’s “You cannot …”', () => {
    const rows = { ...policy, 'ticket.create-admins': workspaceRules('admin')['ticket.create'] };
    for (const [name, rule] of Object.entries(rows)) {
      expect((en as Record<string, string>)[`policy.${name}`], name).toBe(`You cannot ${rule?.refusal}.`);
    }
  });

  it('refuses in the person’s language, the workspace’s own row too', () => {
    const identity = {
      platformUser: async () => ({ id: '7', username: 'a', role: 'agent', email: 'a@x', groupIds: [] }),
    } as unknown as IdentityService;
    const refusal = (access: AccessService) => {
      try {
        access.check(
          { slackId: 'U1', account: { id: '7', username: 'a', role: 'agent', email: 'a@x', groupIds: [] } },
          'ticket.list-all',
        );
      } catch (e) {
        return e as ConfdeskError;
      }
      throw new Error('not refused');
    };
    const e = refusal(new AccessService(identity));
    expect(e.code).toBe('not_allowed');
    expect(e.userMessage.text).toBe(`You cannot ${policy['ticket.list-all'].refusal}.`);
    expect(e.messageIn('fr').text).toMatch(/^Vous ne pouvez pas lister les tickets de tout le monde\u202f: /);
    const own = new AccessService(identity, workspaceRules('admin'));
    try {
      own.check(
        { slackId: 'U1', account: { id: '7', username: 'a', role: 'agent', email: 'a@x', groupIds: [] } },
        'ticket.create',
      );
      throw new Error('not refused');
    } catch (error) {
      expect((error as ConfdeskError).messageIn('fr').text).toMatch(
        /^Vous ne pouvez pas créer de tickets\u202f: dans cet espace/,
      );
    }
  });
});

describe('the working notice', () => {
  it('says the wait in the person’s language, a surface’s own English action kept as it is', () => {
    expect(workingText('en', 'Loading the ticket', 45_000).text).toBe(
      'Loading the ticket… The video platform allows only a few requests a minute and is busy: this will take about 45 s. You can close this; I will post the result.',
    );
    expect(workingText('fr', { key: 'working.creatingConference' }, 150_000).text).toBe(
      'Création de la conférence… La plateforme vidéo n’accepte que quelques requêtes par minute et elle est occupée\u202f: cela prendra environ 3\u202fmin. Vous pouvez fermer ce message\u202f; je publierai le résultat.',
    );
    expect(workingText('fr', { key: 'working.working' }, 100).text).toBe('En cours…');
  });
});
