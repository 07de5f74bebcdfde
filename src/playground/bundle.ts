import { fileURLToPath } from 'node:url';
import { StartupError } from '../startup/startup-error.js';

/** The page, built: its script and its style sheet, or why they could not be built. */
export type PageBundle = { ok: true; js: string; css: string } | { ok: false; problem: string };

/** The development tool the playground needs: esbuild, which bundles the page. */
export interface DevTools {
  esbuild: typeof import('esbuild');
}

/**
 * Loads the playground's development dependencies, or stops with the sentence naming the fix: a
 * production install (`npm ci --omit=dev`) has neither, and needs Slack credentials instead.
 */
export async function loadDevTools(): Promise<DevTools> {
  try {
    return { esbuild: await import('esbuild') };
  } catch (error) {
    throw new StartupError(
      'the playground (what starts without Slack credentials) needs the development dependencies: run npm ci, ' +
        'or set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET to connect to Slack (with PLATFORM_URL and its credentials)',
      error,
    );
  }
}

/** The page's sources: src/playground/web, from src/playground or dist/playground alike. */
export const webDir = fileURLToPath(new URL('../../src/playground/web/', import.meta.url));

/**
 * Bundles the page in memory (Preact + TSX, one ES module, and its CSS). A failure is not fatal: the
 * page server shows it, so the bot and its local Slack still run while the page is being fixed.
 */
export async function bundlePage(esbuild: DevTools['esbuild']): Promise<PageBundle> {
  const common = { bundle: true, write: false, logLevel: 'silent', outdir: '/' } as const;
  try {
    const [js, css] = await Promise.all([
      esbuild.build({
        ...common,
        entryPoints: [`${webDir}main.tsx`],
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        jsx: 'automatic',
        jsxImportSource: 'preact',
      }),
      esbuild.build({ ...common, entryPoints: [`${webDir}styles.css`] }),
    ]);
    return { ok: true, js: js.outputFiles[0]?.text ?? '', css: css.outputFiles[0]?.text ?? '' };
  } catch (error) {
    const e = error as { errors?: { text: string; location?: { file: string; line: number } | null }[] };
    const problems = e.errors?.map((x) =>
      x.location ? `${x.location.file}:${x.location.line}: ${x.text}` : x.text,
    );
    return { ok: false, problem: problems?.length ? problems.join('\n') : (error as Error).message };
  }
}
