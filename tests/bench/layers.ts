import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import pg from 'pg';
import { createBenchDatabase } from './database';
import { rawStatementsDb } from './floor-db';
import { scenarios } from './scenarios';
import { seedBench } from './seed';
import { benchServerEnv } from './server';

/**
 * `npm run bench:layers`: a get's CPU time by layer, in one process, with no HTTP
 * between the caller and the code: the product's read functions (authenticateKey,
 * getTask) on a plain pg pool, as the floor calls them; the same functions on
 * Prisma's client; the procedure through tRPC's caller (the gate, zod's input and
 * output, the procedure's middleware); the procedure through trpc-to-openapi
 * (callProcedure, its answer a web Response); and the whole handler of /v1/public
 * called with a web Request. Each layer's figure less the one below is what that
 * layer adds, measured by process.cpuUsage() rather than by the sampling profiler,
 * whose shares under load count a process's waits for a CPU to the frame it waits
 * in. Rounds run the layers in turns, each round from another one, so that all
 * meet the same load and none always follows the same one.
 */

// Each turn starts from a collected heap, so that no layer pays for the garbage of the one before.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '8' },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);
const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const database = await createBenchDatabase(serverUrl);
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'taskapi-layers-'));
const pool = new pg.Pool({ connectionString: database.url, max: 10 });
// The database is dropped at the end with its connections: one still closing is ended then, not an error.
pool.on('error', () => {});
try {
  const fixture = await seedBench(database.url, { bigTasks: 5_000, smallTasks: 100 });
  const get = scenarios(fixture).find((scenario) => scenario.name === 'get')!;
  // The server's configuration as the benchmark runs it, read by env() on first use, before the app's modules load.
  Object.assign(process.env, { NODE_ENV: 'production', ...benchServerEnv(database.url, dataDir) });
  const { authenticateKey } = await import('../../server/auth/api-key');
  const { getTask } = await import('../../server/tasks/get');
  const { db, disconnectDb } = await import('../../server/db/client');
  const { handlePublicRequest } = await import('../../server/http/public-api');
  const { publicRouter } = await import('../../server/api/router');
  const { callProcedure } = await import('../../server/http/openapi-caller');
  const { stopRequestLog } = await import('../../server/request-log/flush');
  const { settleKeyUsage } = await import('../../server/auth/last-used');

  const raw = rawStatementsDb(pool);
  const split = (target: string) => {
    const [, slug, taskId] = /^\/v1\/public\/([^/]+)\/tasks\/([^/]+)$/.exec(target)!;
    return { slug: decodeURIComponent(slug!), taskId: decodeURIComponent(taskId!) };
  };
  const readFunctions = (from: typeof raw) => async (target: string) => {
    const { slug, taskId } = split(target);
    const found = await authenticateKey(from, fixture.apiKey, slug);
    JSON.stringify(await getTask(from, found!.project!, taskId));
  };
  const layers: [string, (target: string) => Promise<void>][] = [
    ['read functions on pg', readFunctions(raw)],
    ['read functions on Prisma', readFunctions(db())],
    [
      "tRPC's caller",
      async (target) => {
        const { slug, taskId } = split(target);
        const state = {
          requestId: randomUUID(),
          clientAddress: '127.0.0.1',
          headers: new Headers({ authorization: `Bearer ${fixture.apiKey}` }),
          answerMemory: { reserve: () => Promise.resolve() },
        };
        JSON.stringify(await publicRouter.createCaller({ state }).tasks.get({ projectSlug: slug, taskId }));
      },
    ],
    [
      'trpc-to-openapi',
      async (target) => {
        const headers = { authorization: `Bearer ${fixture.apiKey}` };
        const request = new Request(`http://127.0.0.1${target}`, { headers });
        const state = {
          requestId: randomUUID(),
          clientAddress: '127.0.0.1',
          headers: request.headers,
          answerMemory: { reserve: () => Promise.resolve() },
        };
        const path = target.slice('/v1/public'.length);
        const response = await callProcedure({ request, method: 'GET', path, query: new URLSearchParams(), state, etag: true });
        if (response.status !== 200) throw new Error(`${target}: ${response.status} ${await response.text()}`);
        await response.text();
      },
    ],
    [
      'the /v1/public handler',
      async (target) => {
        const request = new Request(`http://127.0.0.1${target}`, { headers: { authorization: `Bearer ${fixture.apiKey}` } });
        const response = await handlePublicRequest(request);
        if (response.status !== 200) throw new Error(`${target}: ${response.status} ${await response.text()}`);
        await response.text();
      },
    ],
  ];

  /** CPU time of this process per call, in microseconds, across `requests` calls `concurrency` at a time. */
  const perCall = async (call: (target: string) => Promise<void>): Promise<number> => {
    let left = requests;
    collect();
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await call(get.path());
      }),
    );
    const used = process.cpuUsage(before);
    return (used.user + used.system) / requests;
  };

  const figures = layers.map((): number[] => []);
  for (const [, call] of layers) await perCall(call);
  // Each round starts with another layer, so that none always follows the same one.
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < layers.length; turn++) {
      const i = (round + turn) % layers.length;
      figures[i]!.push(await perCall(layers[i]![1]));
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
  process.stdout.write(
    `CPU us per get in one process, Node ${process.version}, ${requests} calls a round ${concurrency} at a time, ` +
      `${rounds} rounds, load average ${os.loadavg()[0]!.toFixed(2)} at the end\n`,
  );
  let below = 0;
  for (const [i, [name]] of layers.entries()) {
    const middle = median(figures[i]!);
    process.stdout.write(
      `${name.padEnd(26)} ${middle.toFixed(0).padStart(5)}  (+${(middle - below).toFixed(0)})  rounds ${figures[i]!.map((f) => f.toFixed(0)).join(' ')}\n`,
    );
    below = middle;
  }
  await settleKeyUsage();
  await stopRequestLog();
  await disconnectDb();
} finally {
  await pool.end();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}
