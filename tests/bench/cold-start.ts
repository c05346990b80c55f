import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDb } from '../../server/db/client';
import { SERVER_BUNDLE } from '../../server/launch/server-process';
import { seedDemo } from '../../server/seed/demo';
import { freePort } from '../support/ports';
import { tracedRoutes } from '../support/traced-files';
import { createBenchDatabase } from './database';

/**
 * Cold start, as a serverless platform meets it: what each route takes into its
 * function (`next build`'s traced files), and how long a fresh server process takes
 * from its start to its first answered GET of the public API, as `npm run build` bundled
 * it. Run after `npm run build`:
 *
 *   npm run bench:cold-start [-- --runs 5]
 *
 * It writes tests/bench/results/cold-start.md.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1);

/** Milliseconds from the spawn of one production server process to its first 200 on a list of tasks. */
async function firstAnswer(databaseUrl: string, key: string, project: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER_BUNDLE, '--port', String(port)], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-cold-')),
      WEB_CONCURRENCY: '1',
    },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const answer = await fetch(`http://127.0.0.1:${port}/v1/public/${project}/tasks?limit=1`, {
        headers: { authorization: `Bearer ${key}` },
      }).catch(() => null);
      if (answer?.status === 200) return performance.now() - started;
      await answer?.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

const routes = (await tracedRoutes(path.join(root, '.next'))).filter((route) => !route.route.startsWith('/.well-known'));
const database = await createBenchDatabase(serverUrl);
try {
  const db = createDb(database.url, 1);
  const demo = await seedDemo(db);
  await db.$disconnect();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await firstAnswer(database.url, demo.apiKey, demo.projectSlug));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const lines = [
    `# Cold start (${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version})`,
    '',
    '| route | traced MB | of which TypeScript MB |',
    '| --- | --- | --- |',
    ...routes.map((route) => `| \`${route.route}\` | ${megabytes(route.bytes)} | ${megabytes(route.typescriptBytes)} |`),
    '',
    `A fresh production server process, start to its first answered GET of a task list: median ${Math.round(median)} ms of ${runs} (${times.map(Math.round).join(', ')} ms).`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  await fs.mkdir(path.join(root, 'tests/bench/results'), { recursive: true });
  await fs.writeFile(path.join(root, 'tests/bench/results/cold-start.md'), lines.join('\n'));
} finally {
  await database.drop();
}
