// Runs a benchmark script on the Node.js production runs on, the one tests/support/lts-node.mjs
// brings, whatever Node started npm: the server, the floor and the load generator are its
// children, so the figures are the production Node's. BENCH_NODE=current keeps the Node that
// started it, to print another Node's figures beside (the report names the Node it ran on).
//
//   node tests/bench/on-lts-node.mjs tests/bench/run.ts --quick
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [script, ...args] = process.argv.slice(2);
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin =
  process.env.BENCH_NODE === 'current'
    ? path.dirname(process.execPath)
    : execFileSync(process.execPath, [path.join(root, 'tests/support/lts-node.mjs')], { encoding: 'utf8' }).trim();
const child = spawn(path.join(bin, 'node'), ['--import', 'tsx', path.resolve(root, script), ...args], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
