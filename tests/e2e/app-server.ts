import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/ports';
import { productionServerArgs, productionServerEnv } from '../../server/launch/server-process';

const root = path.resolve(import.meta.dirname, '../..');
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const SOURCES = ['app', 'server', 'next.config.mjs', 'package.json', 'tsconfig.json'];
const STALE_LOCK_MS = 10 * 60_000;

async function newestChange(entry: string): Promise<number> {
  const stat = await fs.stat(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const children = await fs.readdir(entry);
  return Math.max(stat.mtimeMs, ...(await Promise.all(children.map((child) => newestChange(path.join(entry, child))))));
}

/**
 * CI builds before it tests; locally the build is reused unless a source file
 * changed after it, so the suite pays for `next build` only when it must. Test
 * files run side by side: a lock keeps them from building into .next at once.
 */
export async function ensureBuild(): Promise<void> {
  const lock = path.join(root, '.next-build-lock');
  for (;;) {
    if (await isBuildFresh()) return;
    const taken = await fs.mkdir(lock).then(
      () => true,
      () => false,
    );
    if (taken) break;
    // A lock older than any build is left by a run that was killed.
    const age = await fs.stat(lock).then(
      (stat) => Date.now() - stat.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await fs.rm(lock, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    if (!(await isBuildFresh())) await build();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

async function isBuildFresh(): Promise<boolean> {
  const built = await fs.stat(path.join(root, '.next', 'BUILD_ID')).then(
    (stat) => stat.mtimeMs,
    () => 0,
  );
  const changed = Math.max(...(await Promise.all(SOURCES.map((entry) => newestChange(path.join(root, entry))))));
  return built > changed;
}

async function build(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [nextBin, 'build'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`next build failed:\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
  }
}

export interface AppServer {
  baseUrl: string;
  /** The supervisor's process id: the production servers are its children. */
  pid: number;
  /** The JSON lines logged so far (server/log.ts), by every process of the server. */
  events(): Record<string, unknown>[];
  /** The process ids of the production servers listening now, oldest first. */
  workers(): number[];
  /** Stops the server as SIGTERM does and resolves with the supervisor's exit code. */
  stop(): Promise<number | null>;
}

/**
 * The production server (`npm start`'s) on a free loopback port, on the given
 * database, as a child process: the supervisor with one server process, so that a
 * test's figures are one process's, unless `WEB_CONCURRENCY` asks for more. With
 * `launcher`, the whole of `npm start` (server/launch/start.ts): the supervisor
 * under the launcher, which keeps the resident graphile-worker beside it.
 */
export async function startAppServer(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
  { launcher = false } = {},
): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-e2e-'));
  const args = launcher ? ['--import', 'tsx', path.join(root, 'server/launch/start.ts')] : productionServerArgs(port, '127.0.0.1');
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...withoutTestMarkers(process.env),
      ...productionServerEnv(process.env),
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      APP_URL: baseUrl,
      PORT: String(port),
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '10000',
      WEB_CONCURRENCY: '1',
      ...extraEnv,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The last line may still be arriving; lines not of the log are Next's own.
  const events = () =>
    output
      .split('\n')
      .slice(0, -1)
      .filter((line) => line.startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  const workers = () => {
    const gone = new Set(events().flatMap((event) => (event.event === 'server.worker_exited' ? [event.pid] : [])));
    return events().flatMap((event) => (event.event === 'server.worker_listening' && !gone.has(event.pid) ? [event.pid as number] : []));
  };

  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
    return code;
  };
  const concurrency = Number(extraEnv.WEB_CONCURRENCY ?? 1);

  for (let started = Date.now(); Date.now() - started < 60_000;) {
    if (child.exitCode !== null) break;
    const ready =
      workers().length === concurrency &&
      (await fetch(`${baseUrl}/`).then(
        (response) => response.ok,
        () => false,
      ));
    if (ready) return { baseUrl, pid: child.pid!, events, workers, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The production server did not come up on ${baseUrl}:\n${output}`);
}

/**
 * The environment without the variables vitest sets for itself: better-auth reads
 * TEST as "in a test" and turns its origin checks off, which the server that
 * `npm start` runs never does.
 */
export function withoutTestMarkers(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).filter(([name]) => name !== 'TEST' && !name.startsWith('VITEST')));
}
