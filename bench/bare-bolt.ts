import { App } from '@slack/bolt';

/**
 * The baseline of the ack benchmark: a Bolt app on the same HTTP receiver that only acks the same
 * command and button. Started by bench/run.ts as its own process.
 */
const app = new App({
  token: 'xoxb-bench',
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
  clientOptions: process.env.SLACK_API_URL === undefined ? {} : { slackApiUrl: process.env.SLACK_API_URL },
  port: Number(process.env.PORT),
  logLevel: 'error' as never,
});
app.command('/conference', async ({ ack }) => {
  await ack();
});
app.action(/.*/, async ({ ack }) => {
  await ack();
});
const server = (await app.start()) as import('node:http').Server;
// The same keep-alive as confdesk's receiver, so both are measured on the same terms.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
console.log(`Slack app listening on port ${process.env.PORT}`);
// Stopped by SIGTERM, it exits (so that `--cpu-prof` writes its profile, as the bot's does).
process.on('SIGTERM', () => process.exit(0));
