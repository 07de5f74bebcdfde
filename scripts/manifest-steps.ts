import { writeFileSync } from 'node:fs';
import { projectStepsManifest } from '../src/dev/steps-manifest.js';

// Writes manifest.steps.yml from manifest.yml and the steps' table (see src/dev/steps-manifest.ts).
writeFileSync(new URL('../manifest.steps.yml', import.meta.url), projectStepsManifest());
console.log('manifest-steps: wrote manifest.steps.yml');
