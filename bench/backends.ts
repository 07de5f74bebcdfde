import { SlackDouble } from '../src/dev/slack-double.js';
import { createSimulator } from '../src/sim/server.js';

/**
 * The bench's backends in their own process, so that the load generator measures only the bot: the
 * platform simulator (every answer delayed) and the Slack double. Prints one JSON line with their
 * addresses, then runs until killed.
 */
const sim = await createSimulator({
  rateLimit: 0,
  faults: { latencyMs: Number(process.env.BENCH_PLATFORM_LATENCY_MS) },
});
const slack = await new SlackDouble().start();
slack.addUser({ id: 'UADMIN', email: 'admin@acme.example', tz: 'Europe/Paris' });
// The double keeps every call for tests; the bench only needs answers, and to hear when a priming
// request (response_url `/response/prime-…`) got its reply: a line on stdout names it.
setInterval(() => {
  for (const r of slack.responses)
    if (r.path.startsWith('/response/prime-')) console.log(JSON.stringify({ replied: r.path }));
  slack.calls.length = 0;
  slack.responses.length = 0;
  slack.messages.length = 0;
}, 100).unref();
console.log(
  JSON.stringify({
    platformUrl: sim.url,
    platformToken: sim.adminToken,
    slackApiUrl: slack.apiUrl,
    slackUrl: slack.url,
    teamId: slack.teamId,
    conferenceId: String([...sim.state.conferences.values()][0]?.id),
  }),
);
