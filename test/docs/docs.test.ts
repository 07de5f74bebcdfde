import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../src/config/config.js';

/*
 * The README and the pages under docs/ are what a deploying team follows literally: every link they
 * give leads somewhere (a file that exists, a heading that exists in it), and every variable the
 * bot reads is documented.
 */

const pages = ['README.md', 'CHANGELOG.md', ...readdirSync('docs').map((f) => `docs/${f}`)].filter(
  (f) => f.endsWith('.md') && existsSync(f),
);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m?.[1]) continue;
    const slug = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** The relative links of a page (outside code), as [target file, anchor]. */
function linksOf(page: string): { target: string; anchor: string | undefined; text: string }[] {
  const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
  const out: { target: string; anchor: string | undefined; text: string }[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1] ?? '';
    if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
    const [path, anchor] = href.split('#') as [string, string | undefined];
    out.push({ target: path ? normalize(join(dirname(page), path)) : page, anchor, text: m[0] });
  }
  return out;
}

describe('the documentation', () => {
  it('has pages to check, the README among them', () => {
    expect(pages).toContain('README.md');
    expect(pages.length).toBeGreaterThan(8);
  });

  it.each(pages)('%s: every relative link leads to a file, and every anchor to a heading in it', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(page)) {
      if (!existsSync(link.target)) broken.push(`${link.text}: no file ${link.target}`);
      else if (link.anchor !== undefined) {
        if (!link.target.endsWith('.md')) continue;
        if (!anchorsOf(readFileSync(link.target, 'utf8')).has(link.anchor))
          broken.push(`${link.text}: no heading #${link.anchor} in ${link.target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads in one sitting: the README stays under 300 lines', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThan(300);
  });

  it("says the Node version package.json's engines asks for, everywhere it names one", () => {
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } })
      .engines.node;
    const version = /^>=(\d+\.\d+\.\d+)$/.exec(engines)?.[1];
    expect(version, engines).toBeDefined();
    const said = pages.flatMap((page) =>
      [...readFileSync(page, 'utf8').matchAll(/Node(?:\.js)? (20\.\d+(?:\.\d+)?) or newer/g)].map(
        (m) => `${page}: ${m[1]}`,
      ),
    );
    expect(said.length).toBeGreaterThanOrEqual(2);
    expect(said.filter((s) => !s.endsWith(`: ${version}`))).toEqual([]);
    expect(readFileSync('deploy/confdesk.service', 'utf8')).toContain(`Node ${version} or newer`);
  });

  it("the README's and docs/deployment.md's lists of files to ship hold deploy/, which the unit's comment copies from", () => {
    const unit = readFileSync('deploy/confdesk.service', 'utf8');
    expect(unit).toContain('sudo cp deploy/confdesk.service');
    const shipped = (page: string) => {
      const text = readFileSync(page, 'utf8');
      const at = text.indexOf('# ship ');
      return text.slice(at, text.indexOf('\n# on the server', at) + 1 || text.indexOf('\n', at));
    };
    for (const page of ['README.md', 'docs/deployment.md']) {
      const list = shipped(page);
      for (const f of ['package.json', 'package-lock.json', 'manifest.yml', 'dist/', 'scripts/', 'deploy/'])
        expect(list, `${page}: ${f}`).toContain(f);
    }
  });

  it('documents every variable the bot reads, in docs/configuration.md', () => {
    const page = readFileSync('docs/configuration.md', 'utf8');
    // The lower-case proxy spellings are read too, and documented with the upper-case ones.
    const names = Object.keys(envSchema.shape).map((name) => name.toUpperCase());
    const missing = names.filter((name) => !page.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('the anchors are computed as GitHub computes them', () => {
    expect([...anchorsOf('# A `/ticket` b\n## Who may do what?\n## Who may do what?\n')]).toEqual([
      'a-ticket-b',
      'who-may-do-what',
      'who-may-do-what-1',
    ]);
  });
});
