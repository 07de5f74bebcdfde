// Runs one of confdesk's command-line tools (`npm run doctor`, `outbox`, `backup`, `restore`, `sim`) from
// wherever this tree has it: in a development checkout, its TypeScript source with tsx (no build
// needed); in a production install (`npm ci --omit=dev` beside a built dist/, no tsx, maybe no
// src/), the compiled file in dist/. Uses only Node built-ins.
//   node scripts/tool.mjs store/outbox-cli dead
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [name] = process.argv.splice(2, 1); // the tool reads its own arguments from process.argv.slice(2)
if (!name) {
  console.error('Usage: node scripts/tool.mjs <path under src/ without extension> [arguments]');
  process.exit(2);
}
const source = `src/${name}.ts`;
const built = `dist/${name}.js`;
const hasTsx = (() => {
  try {
    createRequire(`${process.cwd()}/`).resolve('tsx');
    return true;
  } catch {
    return false;
  }
})();
if (existsSync(source) && hasTsx) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(resolve(source)).href);
} else if (existsSync(built)) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(resolve(built)).href);
} else {
  console.error(
    existsSync(source)
      ? `${source} needs the development dependencies (tsx): run npm ci, or npm run build and run it from dist/.`
      : `${built} is missing: build confdesk first (npm ci && npm run build).`,
  );
  process.exit(2);
}
