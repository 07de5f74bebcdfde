import { readFileSync } from 'node:fs';

/*
 * The release running, as `/readyz`, `npm run doctor`, the start's log line and the platform's
 * User-Agent say it. Read once from package.json at the root of the project: two levels up from
 * src/observability under tsx and from dist/observability once built (the image copies package.json
 * beside dist/), so the number has one source and a release changes it in one place.
 */

/** package.json's `version` (the CHANGELOG names each one). */
export const version: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The User-Agent of confdesk's requests to the platform: its release and Node's. */
export const userAgent = `confdesk/${version} (node ${process.version})`;
