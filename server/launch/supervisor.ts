import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { env } from '../env';
import { logEvent } from '../log';
import { serveLimitsToWorkers } from '../ratelimit/cluster';
import { workerPoolSize } from './server-process';

/**
 * What `npm start` runs (through server/launch/server-process.ts): the node:cluster
 * primary. It forks WEB_CONCURRENCY production servers (production-server.ts),
 * which share its port, replaces any that dies, and keeps the in-memory rate
 * limits for all of them. SIGTERM or SIGINT stops the servers in order: each
 * finishes the requests it has in flight.
 */

const { values } = parseArgs({ options: { port: { type: 'string' }, hostname: { type: 'string' } } });
const config = env();
const count = config.webConcurrency;
// A worker that dies this soon after its start is likely to die again: wait longer each time.
const QUICK_DEATH_MS = 10_000;
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 30_000;

// The server process beside this module, as it runs: from the build's bundle, or from
// source with the same Node options (tsx's hooks), which the workers inherit.
cluster.setupPrimary({
  exec: path.join(import.meta.dirname, `production-server${path.extname(import.meta.filename)}`),
  args: ['--port', values.port ?? String(config.port), ...(values.hostname ? ['--hostname', values.hostname] : [])],
});
serveLimitsToWorkers();

// Each worker has a pool of its own: DATABASE_POOL_SIZE is shared out between them.
const workerEnv =
  config.database.kind === 'postgres' ? { DATABASE_POOL_SIZE: String(workerPoolSize(config.database.poolSize, count)) } : {};
const started = new Map<number, number>();
let served = false;
let stopping = false;
let failed = false;
let quickDeaths = 0;
const restarts = new Set<NodeJS.Timeout>();

function fork(): Worker {
  const worker = cluster.fork(workerEnv);
  started.set(worker.id, Date.now());
  worker.once('listening', () => {
    served = true;
    logEvent('info', 'server.worker_listening', { worker: worker.id, pid: worker.process.pid });
  });
  return worker;
}

cluster.on('exit', (worker, code, signal) => {
  const lived = Date.now() - (started.get(worker.id) ?? Date.now());
  started.delete(worker.id);
  if (stopping) {
    if (code !== 0) failed = true;
    if (started.size === 0) process.exit(failed ? 1 : 0);
    return;
  }
  logEvent('error', 'server.worker_exited', { worker: worker.id, pid: worker.process.pid, code, signal, livedMs: lived });
  // Nothing has ever been served: the servers cannot start (a taken port, a bad build).
  if (!served) {
    failed = true;
    stop();
    return;
  }
  quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
  const delay = quickDeaths === 0 ? 0 : Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (quickDeaths - 1));
  const restart = setTimeout(() => {
    restarts.delete(restart);
    fork();
  }, delay);
  restarts.add(restart);
});

function stop() {
  if (stopping) return;
  stopping = true;
  for (const restart of restarts) clearTimeout(restart);
  if (started.size === 0) process.exit(failed ? 1 : 0);
  for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

for (let i = 0; i < count; i++) fork();
