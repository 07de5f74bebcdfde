import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config/config.js';

/** UNFURL_*_PATTERN: none by default; a pattern that does not compile or captures no id stops the start. */
describe('unfurl patterns', () => {
  it('are none by default', () => {
    expect(loadConfig({}).unfurls).toEqual({ ticket: undefined, conference: undefined, media: undefined });
  });

  it('are read as given when each compiles and captures the id', () => {
    const c = loadConfig({
      UNFURL_TICKET_PATTERN: '^https://desk\\.example\\.com/t/(\\d+)',
      UNFURL_MEDIA_PATTERN: 'medias/(?<id>\\d+)',
    });
    expect(c.unfurls.ticket).toBe('^https://desk\\.example\\.com/t/(\\d+)');
    expect(c.unfurls.media).toBe('medias/(?<id>\\d+)');
  });

  it('refuses a pattern without a capture group, and one that does not compile, naming each', () => {
    let problems: string[] = [];
    try {
      loadConfig({ UNFURL_TICKET_PATTERN: '^https://desk/t/\\d+', UNFURL_CONFERENCE_PATTERN: '(unclosed' });
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^UNFURL_TICKET_PATTERN: expected a regular expression with the id as a capture group/,
    );
    expect(problems[1]).toMatch(/^UNFURL_CONFERENCE_PATTERN: /);
  });
});
