import { parseArgs } from 'node:util';
import { createSimulator } from './server.js';

/**
 * `npm run sim -- [--port 4010] [--token T] [--rate-limit 10] [--latency 0] [--error-rate 0]
 *  [--activity-every 0] [--webhook-url U --webhook-secret S [--webhook-header H]] [--no-seed]
 *  [--quirks]` (answer like the least convenient real service: see SimQuirks)
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    'rate-limit': { type: 'string', default: '10' },
    'token-ttl': { type: 'string' },
    latency: { type: 'string', default: '0' },
    'error-rate': { type: 'string', default: '0' },
    'activity-every': { type: 'string', default: '0' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string' },
    'webhook-header': { type: 'string', default: 'X-Webhook-Secret' },
    'no-seed': { type: 'boolean', default: false },
    quirks: { type: 'boolean', default: false },
  },
});

const number = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n) || n < 0) {
    console.error(`--${name} expects a non-negative number, got "${v}"`);
    process.exit(2);
  }
  return n;
};
if (values['webhook-url'] && !values['webhook-secret']) {
  console.error(
    '--webhook-url needs --webhook-secret (the platform signs nothing; the secret header is the only check)',
  );
  process.exit(2);
}

const sim = await createSimulator({
  port: number('port', values.port),
  host: values.host,
  ...(values.token ? { adminToken: values.token } : {}),
  rateLimit: number('rate-limit', values['rate-limit']),
  ...(values['token-ttl'] ? { tokenTtlSeconds: number('token-ttl', values['token-ttl']) } : {}),
  faults: {
    latencyMs: number('latency', values.latency),
    errorRate: number('error-rate', values['error-rate']),
  },
  activityEveryMs: number('activity-every', values['activity-every']),
  seed: !values['no-seed'],
  quirks: values.quirks,
  ...(values['webhook-url']
    ? {
        webhook: {
          url: values['webhook-url'],
          secret: values['webhook-secret'] as string,
          header: values['webhook-header'] as string,
        },
      }
    : {}),
});

console.log(`Platform simulator listening on ${sim.url}`);
console.log(`PLATFORM_URL=${sim.url}`);
console.log(`PLATFORM_TOKEN=${sim.adminToken}`);
console.log(`Try: curl -H "Authorization: Bearer ${sim.adminToken}" ${sim.url}/api/v3/users/me`);

const stop = () => {
  sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
