import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countStatements, fixedRequest, requestLogStatements, steadyStatements } from './count';
import { createBenchDatabase, settleAfterWrites } from './database';
import { drive, type LoadResult } from './load';
import { describeMachine } from './machine';
import { parseOptions } from './options';
import { profileServer } from './profile';
import { startStatementCounter } from '../support/pg-counter';
import { checkAims, resultsTable, toMarkdown, type BenchReport, type LimiterStore, type Measurement, type QueryCount } from './report';
import { statementDifference } from './same-statements';
import { measureRequestLogCost } from './request-log-cost';
import { runScale } from './scale';
import { pageSizeProbes, scenarios, type Scenario } from './scenarios';
import { seedBench, type BenchFixture } from './seed';
import { freePort } from '../support/ports';
import {
  benchServerEnv,
  buildApp,
  POOL_SIZE,
  RATE_LIMIT_PER_MINUTE,
  startProductionServer,
  startProcess,
  type RunningServer,
} from './server';
import { productionServerEnv } from '../../server/launch/server-process';

/**
 * `npm run bench`: seeds a fresh database, builds and starts the production
 * server, counts statements per request through a proxy and checks that the
 * floor (tests/bench/floor.ts) sends the same ones as the server; then drives
 * every scenario with autocannon, against the server and the floor, and writes
 * the figures to tests/bench/results/. See options.ts for flags.
 */

const options = parseOptions(process.argv.slice(2), process.env);
const root = fileURLToPath(new URL('../..', import.meta.url));
const resultsDir = path.join(root, 'tests/bench/results');
const SIZES = { bigTasks: 100_000, smallTasks: 1_000 };

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const started = new Date();
const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(error));
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

async function startFloor(databaseUrl: string): Promise<RunningServer> {
  const port = await freePort();
  return startProcess({
    args: ['--import', 'tsx', path.join(root, 'tests/bench/floor.ts')],
    cwd: root,
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(POOL_SIZE), FLOOR_PORT: String(port) },
    port,
    readyPath: '/ready',
  });
}

/** `next start` itself, one process, configured as the production server is. */
async function startNextStart(databaseUrl: string, dataDir: string): Promise<RunningServer> {
  const port = await freePort();
  return startProcess({
    args: [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    cwd: root,
    env: { ...productionServerEnv(process.env), ...benchServerEnv(databaseUrl, dataDir, null) },
    port,
    readyPath: '/v1/public/openapi.json',
  });
}

async function measure(url: string, scenario: Scenario, apiKey: string, connections: number): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await drive(url, scenario, apiKey, connections, options.warmupSeconds);
  return drive(url, scenario, apiKey, connections, options.seconds);
}

/** The floor sends other statements than the server for a scenario: its ratio would measure something else. */
class FloorMismatch extends Error {}

/**
 * Statements per request of each scenario, ours and the floor's; and the
 * statements of one request, the same request to both, compared: a difference
 * stops the run before anything is measured.
 */
async function countAll(databaseUrl: string, dataDir: string, fixture: BenchFixture, selected: Scenario[]): Promise<QueryCount[]> {
  const counter = await startStatementCounter(databaseUrl);
  cleanups.push(() => counter.close());
  const server = await startProductionServer(root, await freePort(), benchServerEnv(counter.url, dataDir, null));
  const floor = await startFloor(counter.url);
  const counts: QueryCount[] = [];
  try {
    const probes = selected.some((s) => s.name === 'list') ? pageSizeProbes(fixture) : [];
    for (const scenario of [...selected, ...probes]) {
      const perRequest = await countStatements(server.url, scenario, fixture.apiKey, counter);
      const floorPerRequest = scenario.floor ? await countStatements(floor.url, scenario, fixture.apiKey, counter) : null;
      const request = fixedRequest(scenario);
      const ours = await steadyStatements(server.url, request, fixture.apiKey, counter);
      if (scenario.floor) {
        const difference = statementDifference(ours, await steadyStatements(floor.url, request, fixture.apiKey, counter));
        if (difference) throw new FloorMismatch(`${scenario.name} (${request.method} ${request.path()}): ${difference}`);
      }
      counts.push({ scenario: scenario.name, perRequest, floorPerRequest, statements: ours[1].map((statement) => statement.text) });
      log(
        `${scenario.name}: ${perRequest} statements per request` +
          (floorPerRequest === null ? '' : ` (floor ${floorPerRequest}; the same ${ours[1].length} statements)`),
      );
    }
    for (const scenario of selected.filter((s) => s.name === 'get' || s.name === 'create')) {
      const perThousand = await requestLogStatements(server.url, scenario, fixture.apiKey, counter);
      log(`${scenario.name}: the request log's own statements per 1,000 requests at one connection: ${perThousand}`);
    }
  } finally {
    await server.stop();
    await floor.stop();
  }
  return counts;
}

async function loadRun(
  limiter: LimiterStore,
  server: RunningServer,
  floor: RunningServer,
  fixture: BenchFixture,
  selected: Scenario[],
  connections: number[],
  label: string = limiter,
): Promise<Measurement[]> {
  const measurements: Measurement[] = [];
  for (const scenario of selected) {
    for (const c of connections) {
      const ours = await measure(server.url, scenario, fixture.apiKey, c);
      const floorResult = scenario.floor ? await measure(floor.url, scenario, fixture.apiKey, c) : null;
      measurements.push({ scenario: scenario.name, limiter, connections: c, ours, floor: floorResult });
      log(
        `${label} ${scenario.name} c=${c}: ${ours.requestsPerSecond.toFixed(0)} req/s, p50 ${ours.p50} ms` +
          (floorResult ? ` (floor ${floorResult.requestsPerSecond.toFixed(0)} req/s, p50 ${floorResult.p50} ms)` : '') +
          (ours.non2xx + ours.errors ? `, ${ours.non2xx} non-2xx, ${ours.errors} errors` : ''),
      );
    }
  }
  return measurements;
}

/** The scale section (scale.ts), on a database of its own, with the server as `npm start` runs it. */
async function scaleSection(dataDir: string): Promise<string> {
  return runScale({
    serverUrl: options.serverUrl,
    seconds: Math.min(options.seconds, 5),
    sizes: options.scaleSizes,
    startServer: async (databaseUrl) => startProductionServer(root, await freePort(), benchServerEnv(databaseUrl, dataDir, null)),
    log,
  });
}

const SCALE_HEADING = '## Projects of a million tasks';

/** latest.md with its scale section replaced by (or, without one, followed by) `section`. */
async function withScaleSection(section: string): Promise<string> {
  const latest = await readFile(path.join(resultsDir, 'latest.md'), 'utf8').catch(() => '');
  const start = latest.indexOf(SCALE_HEADING);
  if (start < 0) return `${latest.trimEnd()}\n\n${section}`;
  const next = latest.indexOf('\n## ', start + SCALE_HEADING.length);
  return `${latest.slice(0, start)}${section}${next < 0 ? '' : latest.slice(next + 1)}`;
}

async function main(): Promise<void> {
  if (options.scaleOnly) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-bench-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    if (options.build) await buildApp(root);
    const section = await scaleSection(dataDir);
    await mkdir(resultsDir, { recursive: true });
    await writeFile(path.join(resultsDir, 'latest.md'), await withScaleSection(section));
    process.stdout.write(`\n${section}\n`);
    return;
  }
  const database = await createBenchDatabase(options.serverUrl);
  cleanups.push(() => database.drop());
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  log(`database ${database.name}, files in ${dataDir}`);

  const machine = await describeMachine(database.url, options.redisUrl);
  const startLoad = os.loadavg()[0]!;
  if (startLoad > 0.5 * machine.cpus) log(`warning: load average ${startLoad.toFixed(2)} already; the figures will be low and noisy`);
  const seedStart = Date.now();
  const fixture = await seedBench(database.url, SIZES);
  log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
  if (options.build) await buildApp(root);

  const selected = scenarios(fixture).filter((s) => options.only.length === 0 || options.only.includes(s.name));
  const queries = await countAll(database.url, dataDir, fixture, selected);
  if (options.statementsOnly) {
    log('the floor sends the same statements as the server in every scenario it serves');
    return;
  }

  const floor = await startFloor(database.url);
  cleanups.push(() => floor.stop());
  const measurements: Measurement[] = [];
  const memory: BenchReport['memory'] = [];

  // npm start's default: one server process per core (WEB_CONCURRENCY unset), against the one-process
  // run below. Measured first, like that run's reads, on a database no write of the benchmark has touched.
  const busiest = Math.max(...options.connections);
  const processes = os.availableParallelism();
  const coreScenarios = selected.filter((s) => s.name === 'get' || s.name === 'list');
  const defaultProcesses: { scenario: string; result: LoadResult }[] = [];
  if (processes > 1 && coreScenarios.length > 0) {
    const server = await startProductionServer(root, await freePort(), {
      ...benchServerEnv(database.url, dataDir, null),
      WEB_CONCURRENCY: String(processes),
    });
    try {
      for (const scenario of coreScenarios) {
        const result = await measure(server.url, scenario, fixture.apiKey, busiest);
        defaultProcesses.push({ scenario: scenario.name, result });
        log(`${processes} processes ${scenario.name} c=${busiest}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50} ms`);
      }
    } finally {
      await server.stop();
    }
  }

  // The route Vercel serves /v1/public through: `next start` hands the reads to the App Router's route
  // handler, which npm start's edge passes by. Before the writes too, and each beside the floor.
  if (coreScenarios.length > 0) {
    const server = await startNextStart(database.url, dataDir);
    try {
      const routeHandler = await loadRun('memory', server, floor, fixture, coreScenarios, options.connections, 'next start');
      measurements.push(...routeHandler.map((m) => ({ ...m, route: 'next start' as const })));
    } finally {
      await server.stop();
    }
  }

  const runs: [LimiterStore, string | null, number[]][] = [['memory', null, options.connections]];
  // The Redis run repeats the scenarios at the highest concurrency only: it measures the limiter's store, not the app again.
  if (options.redisUrl) runs.push(['redis', options.redisUrl, [Math.max(...options.connections)]]);
  for (const [limiter, redisUrl, connections] of runs) {
    const server = await startProductionServer(root, await freePort(), benchServerEnv(database.url, dataDir, redisUrl));
    try {
      // The floor again in each run: the writes of the run before leave the database (its cache above all) otherwise than they found it.
      measurements.push(...(await loadRun(limiter, server, floor, fixture, selected, connections)));
      const { total, largest } = server.memory();
      memory.push({
        limiter,
        finalRssBytes: total.rss,
        peakRssBytes: total.peakRss,
        largestProcessRssBytes: largest.rss,
        largestProcessPeakRssBytes: largest.peakRss,
      });
    } finally {
      await server.stop();
    }
    await settleAfterWrites(database.url);
  }

  const requestLogCost = await measureRequestLogCost({
    scenarios: coreScenarios,
    connections: options.connections,
    startServer: async (extra) =>
      startProductionServer(root, await freePort(), { ...benchServerEnv(database.url, dataDir, null), ...extra }),
    measure: (url, scenario, connections) => measure(url, scenario, fixture.apiKey, connections),
    log,
  });

  const allCores: BenchReport['allCores'] = defaultProcesses.map(({ scenario, result }) => ({
    scenario,
    connections: busiest,
    processes,
    result,
    oneProcess: measurements.find((m) => !m.route && m.scenario === scenario && m.limiter === 'memory' && m.connections === busiest)!.ours,
  }));

  // Where one process's CPU time goes under the busiest get: tests/bench/profile.ts.
  const get = selected.find((s) => s.name === 'get');
  const profile = get
    ? await profileServer({
        root,
        port: await freePort(),
        env: benchServerEnv(database.url, dataDir, null),
        scenario: get.name,
        connections: busiest,
        warmUp: (url) => drive(url, get, fixture.apiKey, busiest, Math.max(options.warmupSeconds, 2)),
        load: (url) => drive(url, get, fixture.apiKey, busiest, options.seconds),
      })
    : null;

  const report: BenchReport = {
    startedAt: started.toISOString(),
    minutes: (Date.now() - started.getTime()) / 60_000,
    machine,
    settings: {
      'seconds per run': options.seconds,
      'warm-up seconds': options.warmupSeconds,
      'tasks in big project (top-level)': SIZES.bigTasks,
      'tasks in small project (top-level)': SIZES.smallTasks,
      'database pool (server and floor)': POOL_SIZE,
      'rate limit per minute': RATE_LIMIT_PER_MINUTE,
    },
    measurements,
    queries,
    memory,
    allCores,
    requestLogCost,
    profile,
    loadAverage: [startLoad, os.loadavg()[0]!],
  };
  await mkdir(resultsDir, { recursive: true });
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const markdown = `${toMarkdown(report).trimEnd()}\n\n${await scaleSection(dataDir)}`;
  await writeFile(path.join(resultsDir, `${stamp}.json`), `${JSON.stringify({ ...report, aims: checkAims(report) }, null, 2)}\n`);
  await writeFile(path.join(resultsDir, `${stamp}.md`), markdown);
  await writeFile(path.join(resultsDir, 'latest.md'), markdown);
  process.stdout.write(`\n${resultsTable(report)}\n\n`);
  for (const check of checkAims(report)) process.stdout.write(`${check.met ? 'met   ' : 'MISSED'} ${check.aim}: ${check.detail}\n`);
  log(`written to ${path.relative(root, resultsDir)}/${stamp}.{json,md} and latest.md`);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof FloorMismatch)) throw error;
  log(`stopped: the floor does not send what the server sends, so its figures would not be a floor.\n${error.message}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
