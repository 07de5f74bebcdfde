// Installs promtool (Debian's `prometheus` package) when it is missing and this machine can install
// it (root with apt-get), so that docs/alerts.yml is checked by Prometheus's own tool on every test
// run (`promtool check rules`, `promtool test rules`), and a real bot's /metrics with `promtool check
// metrics`. Where it cannot, it says so and those checks are skipped with a visible message.
// Already installed, it costs one existsSync. The package's own service is never started.
// CONFDESK_PROMTOOL points at another promtool; CONFDESK_SKIP_PROMTOOL_INSTALL=1 never installs.
import { existsSync } from 'node:fs';
import { aptInstall, canInstall } from './apt.mjs';

const promtool = process.env.CONFDESK_PROMTOOL || '/usr/bin/promtool';
if (!existsSync(promtool) && !process.env.CONFDESK_SKIP_PROMTOOL_INSTALL && canInstall())
  aptInstall(['prometheus'], { what: 'the alert rules’ checks', noServiceStart: true });
if (!existsSync(promtool))
  console.warn(
    `confdesk: no promtool at ${promtool}: docs/alerts.yml's promtool checks will be SKIPPED. ` +
      "Install Debian's prometheus (sudo apt-get install --no-install-recommends prometheus) or set CONFDESK_PROMTOOL.",
  );
