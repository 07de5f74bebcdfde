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
