// Debian's Chromium, which the browser tests drive and no npm package can bring.
// `npm test`'s pretest starts its installation in the background (this file, run as
// a script) and the run goes on: the browser tests come last, when the production
// build is ready, and wait for the installation there if it has not finished.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';

const STATE = fileURLToPath(new URL('../../node_modules/.cache/task-api/chromium', import.meta.url));
const RESULT = path.join(STATE, 'result.json');
const PID = path.join(STATE, 'installer.pid');
const LOG = path.join(STATE, 'apt.log');

/**
 * Starts `apt-get install chromium` in a process of its own, which outlives pretest; answers at once.
 * An installation still under way (a run started before it ended) is left to finish.
 */
export function startChromiumInstall() {
  if (isRunning(installerPid())) return;
  fs.mkdirSync(STATE, { recursive: true });
  fs.rmSync(RESULT, { force: true });
  const log = fs.openSync(LOG, 'w');
  const installer = spawn(process.execPath, [fileURLToPath(import.meta.url), '--install'], {
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.writeFileSync(PID, String(installer.pid));
  installer.unref();
}

function install() {
  const apt = (args) =>
    execFileSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  let result;
  try {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
    result = { ok: true };
  } catch (error) {
    result = { ok: false, error: String(error.message).split('\n')[0] };
  }
  // Whole or not at all: a waiting test reads it as soon as it appears.
  fs.writeFileSync(`${RESULT}.partial`, JSON.stringify(result));
  fs.renameSync(`${RESULT}.partial`, RESULT);
}

function installerPid() {
  return Number(fs.existsSync(PID) ? fs.readFileSync(PID, 'utf8') : 0);
}

function isRunning(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once Chromium is installed; rejects, saying why, when it is not and will not be. */
export async function waitForChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  fs.mkdirSync(STATE, { recursive: true });
  const watcher = fs.watch(STATE);
  const changed = () =>
    new Promise((resolve) => {
      // Also looks again now and then: an installer that was killed writes nothing.
      const timer = setTimeout(resolve, 5_000);
      watcher.once('change', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  try {
    for (;;) {
      if (fs.existsSync(RESULT)) {
        const result = JSON.parse(fs.readFileSync(RESULT, 'utf8'));
        if (result.ok && fs.existsSync(CHROMIUM)) return;
        throw new Error(`Installing Chromium failed (${result.error ?? 'no chromium after it'}); apt-get's output is in ${LOG}`);
      }
      if (!isRunning(installerPid())) {
        throw new Error(`The browser tests need Chromium at ${CHROMIUM}: \`npm test\` installs it, or \`sudo apt-get install chromium\`.`);
      }
      await changed();
    }
  } finally {
    watcher.close();
  }
}

if (process.argv[2] === '--install') install();
