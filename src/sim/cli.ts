import { parseArgs } from 'node:util';
import { createSimulator } from './server.js';

/**
 * `npm run sim -- [options]`: the platform simulator alone (docs/simulator.md). `--help` prints the
 * options; an option it does not know is one line and the options, exit 2.
 */
const usage = `Usage: npm run sim -- [options]   (the video platform simulator, with demo data)
  --port N              port to listen on (default 4010; 0: any free port)
  --host H              address to listen on (default 127.0.0.1)
  --token T             the admin's bearer token (default: a random one, printed)
  --rate-limit N        requests per user per minute (default 10; 0: no limit)
  --token-ttl S         lifetime of the tokens POST /api/v3/token gives, in seconds
  --latency MS          added to every answer (default 0)
  --error-rate R        share of requests answered 503, 0..1 (default 0)
  --activity-every MS   a random ticket happening every MS (default 0: none)
  --webhook-url U       send the platform's webhooks to U (needs --webhook-secret)
  --webhook-secret S    the secret header's value the webhooks carry
  --webhook-header H    that header's name (default X-Webhook-Secret)
  --no-seed             start empty, without the demo data
  --quirks              answer like the least convenient real service (see docs/simulator.md)
  -h, --help            print this and exit`;

const options = {
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
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const parsed = (() => {
  try {
    return parseArgs({ options });
  } catch (error) {
    // ERR_PARSE_ARGS_UNKNOWN_OPTION, _UNEXPECTED_POSITIONAL, _INVALID_OPTION_VALUE: its first sentence.
    console.error(`${(error as Error).message.split('\n')[0]}\n\n${usage}`);
    process.exit(2);
  }
})();
const { values } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(0);
}

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
