import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { stepDefinitions } from '../domain/workflow-steps.js';

/*
 * `manifest.steps.yml`: the opt-in variant of manifest.yml with the Workflow Builder steps, written
 * from manifest.yml and the steps' table (`domain/workflow-steps.ts`) by `npm run manifest:steps`.
 * Apps with custom steps must be org-ready (`org_deploy_enabled`), run their functions remotely
 * (`function_runtime: remote`, a Bolt app) and cannot be distributed publicly, so this is a second
 * manifest for one workspace or an org-level install; manifest.yml (and distribution mode) stay as
 * they are. https://docs.slack.dev/tools/bolt-js/concepts/custom-steps
 */

const header = [
  ' manifest.steps.yml — GENERATED from manifest.yml and src/domain/workflow-steps.ts by',
  ' `npm run manifest:steps`: do not edit by hand (a test fails when it is stale).',
  ' confdesk with its Workflow Builder steps, for one workspace or an organization (Enterprise Grid)',
  ' on a paid plan. Slack: apps containing custom steps cannot be distributed publicly or listed in',
  ' the Slack Marketplace, so distribution mode uses manifest.yml. README: "Workflow Builder steps".',
].join('\n');

/** The steps variant's text, from manifest.yml's. */
export function stepsManifest(manifestYml: string): string {
  const doc = parseDocument(manifestYml);
  doc.commentBefore = header;
  // Function definitions with `required` lists are a v2 manifest's.
  doc.setIn(['_metadata', 'major_version'], 2);
  doc.setIn(['settings', 'org_deploy_enabled'], true);
  doc.setIn(['settings', 'function_runtime'], 'remote');
  doc.set('functions', doc.createNode(stepDefinitions));
  return doc.toString({ lineWidth: 0 });
}

/** manifest.steps.yml as `npm run manifest:steps` writes it, from the project's manifest.yml. */
export function projectStepsManifest(root: URL = new URL('../../', import.meta.url)): string {
  return stepsManifest(readFileSync(new URL('manifest.yml', root), 'utf8'));
}
