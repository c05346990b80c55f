import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createRequire } from 'node:module';
import { productionServerEnv } from '../../server/launch/server-process';
import { freePort } from '../support/ports';
import { createBenchDatabase } from './database';
import { scenarios, type Scenario } from './scenarios';
import { seedBench } from './seed';
import { benchServerEnv, startProcess, type RunningServer } from './server';

/**
 * `npm run bench:cpu`: CPU time per request of one production server process and
 * of the floor, read from /proc (utime + stime) across a fixed number of requests.
 * Unlike requests per second it hardly moves with what else the machine runs, so
 * a change on a request's path can be judged on a shared machine: run it before
 * and after, or at once with `--against DIR`: a checkout of other code (its own
 * `next build` and generated client in place; given more than once, several),
 * whose servers are measured in turns with this one's and the floor's, so that
 * all meet the same load. `--next-start` measures `next start` too, in the same
 * turns: the App Router route handler that serves /v1/public on Vercel. Needs
 * `next build` first.
 */

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'get,list' },
    requests: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    // A folder for the server's CPU profile (node --cpu-prof), written when it stops.
    profile: { type: 'string' },
    // Repeatable: each checkout's server is measured in the same turns.
    against: { type: 'string', multiple: true },
    'next-start': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('../..', import.meta.url));
const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const TICKS_PER_MS = 100 / 1000;

/** CPU time the process has used so far, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
}

async function send(url: string, scenario: Scenario, apiKey: string, amount: number): Promise<void> {
  const result = await autocannon({
    url,
    connections,
    amount,
    headers: { authorization: `Bearer ${apiKey}` },
    requests: [{ method: scenario.method, setupRequest: (request) => ({ ...request, path: scenario.path() }) }],
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

/** One round: the CPU time per request of `amount` requests, the process warmed already. */
async function perRequest(server: RunningServer, scenario: Scenario, apiKey: string): Promise<number> {
  const before = cpuMs(server.pid);
  await send(server.url, scenario, apiKey, requests);
  return (cpuMs(server.pid) - before) / requests;
}

const database = await createBenchDatabase(serverUrl);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-cpu-'));
try {
  const fixture = await seedBench(database.url, { bigTasks: 5_000, smallTasks: 100 });
  const selected = scenarios(fixture).filter((s) => values.only.split(',').includes(s.name));
  const startServer = async (dir: string, profile: boolean, nextStart = false) => {
    const port = await freePort();
    const server = nextStart
      ? [createRequire(import.meta.url).resolve('next/dist/bin/next'), 'start']
      : ['--import', 'tsx', path.join(dir, 'server/launch/production-server.ts')];
    return startProcess({
      args: [
        ...(profile && values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : []),
        ...server,
        '--port',
        String(port),
        '--hostname',
        '127.0.0.1',
      ],
      cwd: dir,
      env: { ...productionServerEnv(process.env), ...benchServerEnv(database.url, dataDir) },
      port,
      readyPath: '/v1/public/openapi.json',
    });
  };
  const server = await startServer(root, true);
  const againstDirs = values.against ?? [];
  const others: RunningServer[] = [];
  for (const dir of againstDirs) others.push(await startServer(path.resolve(dir), false));
  const nextStart = values['next-start'] ? await startServer(root, false, true) : null;
  const floorPort = await freePort();
  const floor = await startProcess({
    args: ['--import', 'tsx', path.join(root, 'tests/bench/floor.ts')],
    cwd: root,
    env: { NODE_ENV: 'production', DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10', FLOOR_PORT: String(floorPort) },
    port: floorPort,
    readyPath: '/ready',
  });
  try {
    process.stdout.write(
      `CPU ms per request, Node ${process.version}, ${requests} requests a round at ${connections} connections, ` +
        `load average ${os.loadavg()[0]!.toFixed(2)} at the start\n`,
    );
    const median = (figures: number[]) => {
      const sorted = [...figures].sort((a, b) => a - b);
      const middle = sorted.length >> 1;
      return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    const show = (figures: number[]) => `${figures.map((ms) => ms.toFixed(3)).join(' ')} (median ${median(figures).toFixed(3)})`;
    for (const scenario of selected) {
      const ours: number[] = [];
      const theirs: number[][] = others.map(() => []);
      const routeHandler: number[] = [];
      await send(server.url, scenario, fixture.apiKey, requests);
      for (const other of others) await send(other.url, scenario, fixture.apiKey, requests);
      if (nextStart) await send(nextStart.url, scenario, fixture.apiKey, requests);
      const bare: number[] = [];
      await send(floor.url, scenario, fixture.apiKey, requests);
      // The floor takes its turn in each round too, so that it meets the same load.
      for (let round = 0; round < rounds; round++) {
        ours.push(await perRequest(server, scenario, fixture.apiKey));
        for (const [i, other] of others.entries()) theirs[i]!.push(await perRequest(other, scenario, fixture.apiKey));
        if (nextStart) routeHandler.push(await perRequest(nextStart, scenario, fixture.apiKey));
        bare.push(await perRequest(floor, scenario, fixture.apiKey));
      }
      process.stdout.write(
        `${scenario.name}: server ${show(ours)}` +
          others.map((_, i) => `; against${others.length > 1 ? ` ${againstDirs[i]}` : ''} ${show(theirs[i]!)}`).join('') +
          (nextStart ? `; next start ${show(routeHandler)}` : '') +
          `; floor ${show(bare)}\n`,
      );
    }
  } finally {
    await server.stop();
    for (const other of others) await other.stop();
    await nextStart?.stop();
    await floor.stop();
  }
} finally {
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}
