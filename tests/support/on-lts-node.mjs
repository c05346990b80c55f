// Runs Node.js with the given arguments on the Node.js production runs on, the one
// tests/support/lts-node.mjs brings, whatever Node started npm. It is first in the PATH of what
// that starts, so the servers, the database hosts, npm, npx and tsx run on it too. The fault and
// deployment tests and the benchmark start this way. ON_NODE=current keeps the Node that started
// it. Where the binary cannot be brought (another platform, no registry), it says so and keeps
// that Node too.
//
//   node tests/support/on-lts-node.mjs --import tsx tests/bench/run.ts --quick
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));

function ltsBin() {
  if (process.env.ON_NODE === 'current') return path.dirname(process.execPath);
  try {
    return execFileSync(process.execPath, [path.join(root, 'tests/support/lts-node.mjs')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const output = String(error.stderr || error.message);
    const reason = /\b\w*Error: (.*)/.exec(output)?.[1] ?? output.trim().split('\n')[0];
    process.stderr.write(`Running on this machine's Node.js ${process.version}: production's could not be brought (${reason}).\n`);
    return path.dirname(process.execPath);
  }
}

const bin = ltsBin();
const child = spawn(path.join(bin, 'node'), args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
