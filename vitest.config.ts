import { defineConfig } from 'vitest/config';

/*
 * Two tiers. `unit`: no bot booted, no child process, no browser (domain, blocks, the platform client
 * against the in-process simulator, the store, jobs with fakes, handlers called directly); it builds
 * nothing and is the inner loop (`npm run test:unit`). `e2e` (`*.e2e.test.ts`): the real receiver with
 * signed requests, the Slack double, child processes of the built bot (its globalSetup builds dist/),
 * Chromium. A file's name says its tier.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.e2e.test.ts'],
          // Its slow files wait on real timers (rate windows, settle delays), not on the CPU: more
          // files at once than cores (the e2e tier keeps vitest's default, one per spare core).
          maxWorkers: 4,
          // A worker loads the modules once for all its files, not once per file: most of a listener
          // test's time was loading the services, the platform client and the simulator again. Each
          // file restores what it changes of the process (timers, the environment).
          isolate: false,
          // Projects with different worker counts must run as separate groups: the fast tier first.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
