import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PATIENCE_MS } from '../support/patience';
import { freePort } from '../support/ports';
import { productionServerArgs, productionServerEnv } from '../../server/launch/server-process';

const root = path.resolve(import.meta.dirname, '../..');
export interface AppServer {
  baseUrl: string;
  /** The supervisor's process id: the production servers are its children. */
  pid: number;
  /** The JSON lines logged so far (server/log.ts), by every process of the server. */
  events(): Record<string, unknown>[];
  /** Everything printed so far, stdout and stderr together: the launcher's lines too. */
  output(): string;
  /** The process ids of the production servers listening now, oldest first. */
  workers(): number[];
  /** Stops the server as SIGTERM does and resolves with the supervisor's exit code. */
  stop(): Promise<number | null>;
  /** Ends the server at once, as a machine that dies: SIGKILL to every process of it (started with `detached`), then removes its data folder. */
  kill(): Promise<void>;
}

/**
 * The production server (`npm start`'s) on a free loopback port, on the given
 * database, as a child process: the supervisor with one server process, so that a
 * test's figures are one process's, unless `WEB_CONCURRENCY` asks for more. With
 * `launcher`, the whole of `npm start` (server/launch/start.ts): the supervisor
 * under the launcher, which keeps the resident graphile-worker beside it. With
 * `detached`, its processes are a process group of their own, which `kill` ends
 * together. A variable given as undefined in `extraEnv` is left unset. It has
 * `readyTimeoutMs` to come up.
 */
export async function startAppServer(
  databaseUrl: string,
  extraEnv: Record<string, string | undefined> = {},
  { launcher = false, detached = false, readyTimeoutMs = PATIENCE_MS } = {},
): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-e2e-'));
  const args = launcher ? ['--import', 'tsx', path.join(root, 'server/launch/start.ts')] : productionServerArgs(port, '127.0.0.1');
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
    env: definedOnly({
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
    }) as NodeJS.ProcessEnv,
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
  const kill = async () => {
    try {
      process.kill(detached ? -child.pid! : child.pid!, 'SIGKILL');
    } catch {
      // Every process of it has exited already.
    }
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const concurrency = Number(extraEnv.WEB_CONCURRENCY ?? 1);

  // The supervisor logs each server process as listening once Next.js is prepared:
  // the server is up when all have been, and has failed if the supervisor exits first.
  const up = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => settle(false), readyTimeoutMs);
    function settle(listening: boolean) {
      clearTimeout(timer);
      child.stderr?.off('data', check);
      resolve(listening);
    }
    function check() {
      if (workers().length === concurrency) settle(true);
    }
    child.stderr?.on('data', check);
    void exited.then(() => settle(false));
    check();
  });
  const answers =
    up &&
    (await fetch(`${baseUrl}/`).then(
      (response) => response.ok,
      () => false,
    ));
  if (answers) return { baseUrl, pid: child.pid!, events, output: () => output, workers, stop, kill };
  await stop();
  throw new Error(`The production server did not come up on ${baseUrl}:\n${output}`);
}

function definedOnly(source: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The environment without the variables vitest sets for itself: better-auth reads
 * TEST as "in a test" and turns its origin checks off, which the server that
 * `npm start` runs never does.
 */
export function withoutTestMarkers(source: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(source).filter(([name]) => name !== 'TEST' && !name.startsWith('VITEST')));
}
