// Runs before `npm test`: the settings page's end-to-end test drives Debian's
// Chromium, which no npm package can bring. On a machine where we are root with
// apt (this project's machines and CI), install it once; elsewhere say how.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get')) {
    console.error(`The browser test needs Chromium at ${CHROMIUM}: install it with \`sudo apt-get install chromium\`.`);
    process.exit(1);
  }
  console.error("Installing Debian's Chromium for the browser test (once)…");
  const apt = (args) =>
    execFileSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'chromium']);
}
