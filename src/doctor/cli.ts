import { existsSync } from 'node:fs';
import { type Config, ConfigError, loadConfig } from '../config/config.js';
import { version } from '../observability/version.js';
import { proxyEverything } from '../platform/proxy.js';
import { createSimulator, type Simulator } from '../sim/server.js';
import { platformClientFor } from '../startup/platform-client.js';
import { inspectStore, openStore, storeMissing } from '../store/store.js';
import { bindingOf, parseKey, SecretBox } from '../util/secret-box.js';
import { configProblemsReport, type DoctorReport, distributionDoctor, runDoctor } from './doctor.js';
import { formatReport } from './format.js';

/*
 * `npm run doctor`: reads the same configuration as `npm start` (.env, then the environment), checks
 * Slack, the platform (at most 8 read-only requests), the store (read-only) and the webhooks, prints
 * the table and exits 1 when a row is blocking. Safe beside a running bot.
 */

async function check(config: Config): Promise<DoctorReport> {
  // As `npm start` does: behind a company proxy, the doctor's requests go through it too.
  if (config.proxy) proxyEverything(config.proxy);
  let sim: Simulator | undefined;
  let baseUrl = config.platform.url;
  let credentials = config.platform.credentials;
  if (!baseUrl || !credentials) {
    // PLATFORM_URL=simulator (or unset: the playground, or a start the configuration rows block).
    sim = await createSimulator({ rateLimit: config.platform.rateLimitPerMinute });
    baseUrl = sim.url;
    credentials = { kind: 'token', token: sim.adminToken };
  }
  // It sends nothing itself: the doctor's probe spends its rate budget.
  const platform = platformClientFor(config, { baseUrl, credentials, simulator: sim !== undefined });
  try {
    return await runDoctor({
      config,
      platform: {
        baseUrl,
        credentials,
        simulator: sim !== undefined,
        findings: platform.findings,
        budget: platform.budget,
      },
      store: () =>
        inspectStore({
          databaseUrl: config.store.databaseUrl,
          dataDir: config.store.dataDir,
          ...(config.store.schema ? { schema: config.store.schema } : {}),
        }),
    });
  } finally {
    await platform.close();
    await sim?.close();
  }
}

/** Distribution mode: the registry in the store, each workspace's secrets tried with the key. */
async function checkDistribution(config: Config): Promise<DoctorReport> {
  const options = {
    databaseUrl: config.store.databaseUrl,
    dataDir: config.store.dataDir,
    ...(config.store.schema ? { schema: config.store.schema } : {}),
  };
  // The doctor never creates a store: one that is not there is said (a wrong DATA_DIR), not made.
  const missing = await storeMissing(options);
  if (missing)
    return distributionDoctor(config, {
      teams: async () => [],
      state: async () => ({ opens: true, setUp: false }),
      missing,
    });
  const store = await openStore({ ...options, keepLeases: true });
  const keys = (config.distribution?.keys ?? []).map(parseKey).filter((k): k is Buffer => !!k);
  const box = new SecretBox(keys);
  // As the bot opens them: bound to their workspace, or unbound until the bot sealed them all again.
  const unboundAllowed = !(await store.secretsBoundSince());
  try {
    return await distributionDoctor(config, {
      teams: () => store.installedTeams(),
      state: async (team) => {
        const settings = await store.workspaceSettings(team);
        try {
          box.openFor(
            (await store.installation(team)) ?? '',
            bindingOf(team, 'installation'),
            unboundAllowed,
          );
          if (settings)
            box.openFor(
              (JSON.parse(settings) as { credentials: string }).credentials,
              bindingOf(team, 'credentials'),
              unboundAllowed,
            );
          return { opens: true, setUp: settings !== undefined };
        } catch {
          return { opens: false, setUp: settings !== undefined };
        }
      },
    });
  } finally {
    await store.close();
  }
}

async function main(): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let report: DoctorReport;
  try {
    const config = loadConfig(process.env);
    report = config.distribution ? await checkDistribution(config) : await check(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    report = configProblemsReport(error.problems);
  }
  // Which release looked: a report pasted into an issue or a chat says it.
  console.log(`confdesk ${version} doctor (node ${process.version})\n`);
  console.log(formatReport(report));
  return report.blocking ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`The doctor itself failed: ${(error as Error).message}`);
    process.exitCode = 2;
  },
);
