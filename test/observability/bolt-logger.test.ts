import { describe, expect, it } from 'vitest';
import { boltLogger, scrubSecrets } from '../../src/observability/bolt-logger.js';
import { createLogger } from '../../src/observability/logger.js';

describe('Bolt’s log lines', () => {
  const secrets = ['hunter2', 's3cr"et{', 'ab}cd', '"}}', '\\', '{{{', 'with space'];

  it('never carry a password a submitted form held, whatever characters it has', () => {
    for (const pw of secrets) {
      const body = {
        type: 'view_submission',
        view: {
          state: {
            values: {
              user_password: { value: { type: 'plain_text_input', value: pw } },
              email: { value: { type: 'plain_text_input', value: 'dave@acme.example' } },
            },
          },
        },
        password: pw,
      };
      const out = scrubSecrets(JSON.stringify(body));
      expect(out).not.toContain(JSON.stringify(pw).slice(1, -1));
      expect(out).toContain('"user_password":"[redacted]"');
      expect(out).toContain('dave@acme.example');
    }
  });

  it('never carry the platform credentials typed in the workspace settings (distribution mode)', () => {
    const body = {
      type: 'view_submission',
      view: {
        callback_id: 'workspace_settings',
        state: {
          values: {
            platform_url: { value: { type: 'plain_text_input', value: 'https://cloud.example' } },
            platform_token: { value: { type: 'plain_text_input', value: 'tok-123-secret' } },
            platform_password: { value: { type: 'plain_text_input', value: 'pw-456' } },
          },
        },
      },
    };
    const out = scrubSecrets(JSON.stringify(body));
    expect(out).not.toContain('tok-123-secret');
    expect(out).not.toContain('pw-456');
    expect(out).toContain('https://cloud.example');
  });

  it('are scrubbed on their way to the log at debug', () => {
    const lines: string[] = [];
    const log = boltLogger(createLogger('debug', { write: (l: string) => void lines.push(l) }));
    log.debug(
      JSON.stringify({ view: { state: { values: { user_password: { value: { value: 'hunter2' } } } } } }),
    );
    expect(lines.join('')).not.toContain('hunter2');
    expect(lines.join('')).toContain('[redacted]');
  });
});
