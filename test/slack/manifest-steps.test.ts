import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectStepsManifest } from '../../src/dev/steps-manifest.js';
import { stepDefinitions, stepIds } from '../../src/domain/workflow-steps.js';
import type { StepDeps } from '../../src/slack/deps.js';
import type { Listeners } from '../../src/slack/runtime/listener-tables.js';
import { registerSteps } from '../../src/slack/steps/index.js';

type Json = Record<string, unknown>;
const app = parse(readFileSync('manifest.yml', 'utf8')) as Json;
const text = readFileSync('manifest.steps.yml', 'utf8');
const steps = parse(text) as Json;

describe('manifest.steps.yml, the opt-in variant with the Workflow Builder steps', () => {
  it('is what `npm run manifest:steps` writes from manifest.yml and the steps’ table (never stale)', () => {
    expect(text).toBe(projectStepsManifest());
  });

  it('is manifest.yml (the same scopes, events, commands and settings) plus the functions and the org-ready settings', () => {
    const { functions, _metadata, settings, ...rest } = steps as Json & { settings: Json };
    const { org_deploy_enabled, function_runtime, ...otherSettings } = settings;
    const { _metadata: appMetadata, settings: appSettings, ...appRest } = app as Json & { settings: Json };
    expect(rest).toEqual(appRest);
    expect(otherSettings).toEqual({ ...appSettings, org_deploy_enabled: undefined });
    expect({ org_deploy_enabled, function_runtime }).toEqual({
      org_deploy_enabled: true,
      function_runtime: 'remote',
    });
    expect(_metadata).toEqual({ ...(appMetadata as Json), major_version: 2 });
    expect(functions).toEqual(JSON.parse(JSON.stringify(stepDefinitions)));
  });

  it('leaves manifest.yml (and distribution mode) without steps: custom steps cannot be distributed', () => {
    expect(app.functions).toBeUndefined();
    expect((app.settings as Json).org_deploy_enabled).toBe(false);
  });

  it('declares exactly the steps the bot serves, each acting as a “Run as” person Slack fills in', () => {
    const served: string[] = [];
    registerSteps({ function: (id: string) => void served.push(id) } as unknown as Listeners, {} as StepDeps);
    expect(Object.keys(steps.functions as Json).sort()).toEqual(served.sort());
    expect(served.sort()).toEqual(Object.values(stepIds).sort());
    for (const step of Object.values(stepDefinitions)) {
      expect(step.input_parameters.properties.run_as?.type).toBe('slack#/types/user_context');
      expect(step.input_parameters.required).toContain('run_as');
      expect(step.title.length).toBeLessThanOrEqual(255);
      for (const name of step.output_parameters.required)
        expect(step.output_parameters.properties[name]).toBeDefined();
    }
  });
});
