// Runs before `npm test`: brings what the suite needs beyond npm packages.
// - Debian's Chromium, which the browser tests drive and no npm package can bring.
//   Where we are root with apt (this project's machines and CI) it is installed once,
//   in the background while the other tests run (tests/support/chromium.mjs);
//   elsewhere the run stops and says how.
// - zsh, in which the launchers' printed curl line is read as people paste it. The
//   machine is left as it is: Debian's package is fetched and unpacked into
//   node_modules/.cache (tests/support/shells.mjs). Where that cannot be done, the
//   zsh case is skipped and says why.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, startChromiumInstall } from './chromium.mjs';
import { BUNDLED_ZSH, findZsh } from './shells.mjs';

const isRoot = process.getuid?.() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');

const apt = (args, options = {}) =>
  execFileSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    ...options,
  });

if (!fs.existsSync(CHROMIUM) && (!isRoot || !hasApt)) {
  console.error(`The browser test needs Chromium at ${CHROMIUM}: install it with \`sudo apt-get install chromium\`.`);
  process.exit(1);
}

if (!findZsh()) {
  try {
    fetchZsh();
    console.error(`Fetched Debian's zsh into ${path.relative(process.cwd(), BUNDLED_ZSH)} for the test of the printed curl line.`);
  } catch (error) {
    console.error(
      `zsh is not installed and could not be fetched (${String(error.message).split('\n')[0]}): the curl line's zsh case will be skipped.`,
    );
  }
}

function fetchZsh() {
  if (!hasApt) throw new Error('no apt-get');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'taskapi-zsh-'));
  try {
    try {
      apt(['download', 'zsh'], { cwd: work });
    } catch (error) {
      // A machine that never ran apt-get update has no package lists yet.
      if (!isRoot) throw error;
      apt(['update']);
      apt(['download', 'zsh'], { cwd: work });
    }
    const deb = fs.readdirSync(work).find((name) => name.endsWith('.deb'));
    execFileSync('dpkg-deb', ['-x', path.join(work, deb), path.join(work, 'root')]);
    fs.mkdirSync(path.dirname(BUNDLED_ZSH), { recursive: true });
    fs.copyFileSync(path.join(work, 'root/bin/zsh'), BUNDLED_ZSH);
    fs.chmodSync(BUNDLED_ZSH, 0o755);
    execFileSync(BUNDLED_ZSH, ['-c', 'true']);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// After zsh: its fetch may run apt-get update, which two apt-gets cannot run at once.
if (!fs.existsSync(CHROMIUM)) {
  console.error("Installing Debian's Chromium in the background (once): the browser tests, which come last, wait for it.");
  startChromiumInstall();
}
