import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Readiness } from '../../src/observability/readiness.js';
import { userAgent, version } from '../../src/observability/version.js';
import { startPlatform } from '../helpers/platform.js';

/*
 * The release number has one source, package.json: what the bot says it runs, the lockfile's copy
 * and the CHANGELOG's entry all follow it. (That /readyz and `npm run doctor` of the built bot say it
 * is version.e2e.test.ts's.)
 */

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  version: string;
  packages: Record<string, { version?: string }>;
};

describe('the release number', () => {
  it('is package.json’s, a semantic version, and package-lock.json says the same', () => {
    expect(version).toBe(pkg.version);
    expect(version).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages['']?.version).toBe(pkg.version);
  });

  it('has its CHANGELOG.md entry, dated, below Unreleased, with something in it', () => {
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    const heading = new RegExp(
      `^## \\[${pkg.version.replaceAll('.', '\\.')}\\] - (\\d{4}-\\d{2}-\\d{2})$`,
      'm',
    );
    const m = heading.exec(changelog);
    expect(m, `no "## [${pkg.version}] - YYYY-MM-DD" heading in CHANGELOG.md`).not.toBeNull();
    expect(Number.isNaN(Date.parse(m?.[1] ?? ''))).toBe(false);
    expect(changelog.indexOf('## [Unreleased]')).toBeGreaterThan(-1);
    expect(changelog.indexOf('## [Unreleased]')).toBeLessThan(m?.index ?? -1);
    // The entry runs to the next version's heading (or the end) and lists changes.
    const entry = changelog.slice(m?.index ?? 0).split(/^## \[/m)[1] ?? '';
    expect(entry).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security|Upgrading)$/m);
    expect(entry).toMatch(/^- /m);
  });

  it('is in the readiness report', () => {
    expect(new Readiness().add('store', () => ({ ok: true })).report()).toEqual({
      ok: true,
      version: pkg.version,
      checks: { store: { ok: true } },
    });
  });

  it('reaches the platform as the User-Agent of each request, as its access log keeps it', async () => {
    const p = await startPlatform();
    try {
      const from = p.sim.requests.length;
      await p.client.getMe(undefined, { fresh: true });
      const sent = p.sim.requests.slice(from);
      expect(sent.map((r) => r.path)).toEqual(['/api/v3/users/me']);
      expect(sent[0]?.userAgent).toBe(`confdesk/${pkg.version} (node ${process.version})`);
      expect(userAgent).toBe(sent[0]?.userAgent);
    } finally {
      await p.close();
    }
  });
});
