/*
 * Media share (issue 22): a 200 MB media streamed from the platform simulator into the Slack double's
 * upload flow through the library's own share path (`MediaService.shareSource` → `shareMediaFile` →
 * files.getUploadURLExternal → POST → files.completeUploadExternal), with the process's memory
 * sampled meanwhile. The simulator generates the bytes as it sends them and the double counts them as
 * they arrive, so the figure is the bot's path plus both doubles', all in this one process: an upper
 * bound for the bot alone.
 *
 * Prints: bytes received by the double, seconds, MB/s, peak RSS and arrayBuffers growth over the
 * figure before the share. Knobs: BENCH_MEDIA_MB (200), BENCH_MEDIA_RUNS (1).
 *
 * Run: npx tsx bench/media-share.ts
 */
import { SlackDouble } from '../src/dev/slack-double.js';
import { retryingClient } from '../src/outbound/clients.js';
import { createPlatformClient } from '../src/platform/client.js';
import { AccessService } from '../src/services/access.js';
import { IdentityService } from '../src/services/identity.js';
import { MediaService } from '../src/services/media.js';
import { createSimulator } from '../src/sim/server.js';
import { shareMediaFile } from '../src/slack/openers/media-library-view.js';

const mb = Number(process.env.BENCH_MEDIA_MB ?? 200);
const runs = Number(process.env.BENCH_MEDIA_RUNS ?? 1);
const size = mb * 1024 * 1024;

const sim = await createSimulator({ rateLimit: 0 });
const slack = await new SlackDouble().start();
slack.addUser({ id: 'UALICE', email: 'alice@acme.example', tz: 'UTC' });
// Count the upload, keep none of it: the figure is the transfer's, not the double's copy of small files.
slack.keepUploadBytes = 0;
const platform = createPlatformClient({
  baseUrl: sim.url,
  credentials: { kind: 'token', token: sim.adminToken },
  rateLimitPerMinute: 10_000,
});
const web = retryingClient({ token: 'xoxb-bench', apiUrl: slack.apiUrl });
const identity = new IdentityService(web, platform);
const media = new MediaService(platform, identity, new AccessService(identity));
const alice = [...sim.state.users.values()].find((u) => u.username === 'alice');
if (!alice) throw new Error('the simulator has no alice');

const toMb = (n: number) => (n / 1024 / 1024).toFixed(1);
for (let run = 1; run <= runs; run++) {
  const m = sim.state.addMedia({
    enterpriseId: 1,
    userId: alice.id,
    type: 'recording',
    title: `Bench recording ${run}`,
    format: 'video/mp4',
    content: { kind: 'generated', size, seed: run },
  });
  // Warm the identity cache (a person's first click reads who they are), so the figure is the transfer.
  await identity.platformUser('UALICE');
  const base = process.memoryUsage();
  let peakRss = 0;
  let peakBuffers = 0;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss - base.rss);
    peakBuffers = Math.max(peakBuffers, now.arrayBuffers - base.arrayBuffers);
  };
  const timer = setInterval(sample, 10);
  const started = performance.now();
  const source = await media.shareSource('UALICE', String(m.id));
  const { shared } = await shareMediaFile(web, source, {
    user: 'UALICE',
    channel: 'CBENCH',
    limit: media.maxUploadBytes,
    locale: 'en',
    channelLocale: 'en',
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  sample();
  const received = [...slack.uploads.values()].at(-1)?.size ?? 0;
  console.log(
    [
      `media share run ${run}: ${shared ? 'shared' : 'NOT shared'}, ${received.toLocaleString('en')} bytes received by the double (expected ${size.toLocaleString('en')})`,
      `  ${seconds.toFixed(2)} s, ${(size / 1024 / 1024 / seconds).toFixed(0)} MB/s`,
      `  peak growth during the transfer: RSS +${toMb(peakRss)} MB, arrayBuffers +${toMb(peakBuffers)} MB (file: ${toMb(size)} MB)`,
    ].join('\n'),
  );
  sim.state.medias.delete(m.id);
}

await platform.close();
await slack.stop();
await sim.close();
