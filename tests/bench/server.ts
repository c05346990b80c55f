import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bundleServer } from '../../server/launch/bundle-server';
import { productionServerArgs, productionServerEnv } from '../../server/launch/server-process';

/** The database connections of the server and of the floor. */
export const POOL_SIZE = 10;
// Lifted, not switched off: the limiter still runs on every request, so its cost is in the figures.
export const RATE_LIMIT_PER_MINUTE = 1_000_000_000;

/** The server's configuration in every bench. Empty values override whatever .env files would add: the run is configured here alone. */
export function benchServerEnv(databaseUrl: string, dataDir: string, redisUrl: string | null = null): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
    REDIS_URL: redisUrl ?? '',
    UPSTASH_REDIS_REST_URL: '',
    UPSTASH_REDIS_REST_TOKEN: '',
    BLOB_READ_WRITE_TOKEN: '',
    APP_URL: '',
    DATA_DIR: dataDir,
  };
}

export interface RunningServer {
  url: string;
  pid: number;
  /**
   * Resident memory now and the highest seen since start (the kernel's high-water mark), in bytes:
   * of the process and its children (the supervisor's server processes) added up, and of the one
   * process whose high-water mark is highest.
   */
  memory(): { total: ProcessMemory; largest: ProcessMemory };
  stop(): Promise<void>;
}

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const READY_TIMEOUT_MS = 60_000;

/** `npm run build`'s steps in `root`, output shown, as the production server needs them. */
export async function buildApp(root: string): Promise<void> {
  const child = spawn(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
  });
  const code = await exited(child);
  if (code !== 0) throw new Error(`next build exited with ${code}`);
  await bundleServer();
}

/**
 * Starts a server process (the production server, or the floor) and waits until `readyPath`
 * answers. Its output is kept and shown only if it fails to come up or dies.
 */
export async function startProcess(options: {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  port: number;
  readyPath: string;
}): Promise<RunningServer> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  child.on('exit', (code) => {
    if (!stopping) console.error(`Server ${options.args.join(' ')} exited with ${code}:\n${output}`);
  });

  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited before it was ready:\n${output}`);
    const ok = await fetch(url + options.readyPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Server not ready after ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    memory: () => treeMemory(child.pid!),
    async stop() {
      stopping = true;
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** The production server as `npm start` runs it, configured only through its environment. */
export function startProductionServer(root: string, port: number, env: Record<string, string>): Promise<RunningServer> {
  return startProcess({
    args: productionServerArgs(port, '127.0.0.1'),
    cwd: root,
    // As `npm start` runs it; with one server process unless WEB_CONCURRENCY asks for more,
    // so that the figures compare with earlier runs on any machine.
    env: { ...productionServerEnv(process.env), WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1', ...env },
    port,
    readyPath: '/v1/public/openapi.json',
  });
}

export interface ProcessMemory {
  rss: number;
  peakRss: number;
}

function treeMemory(pid: number): { total: ProcessMemory; largest: ProcessMemory } {
  const each = [pid, ...descendants(pid)].map(processMemory);
  return {
    total: each.reduce((sum, one) => ({ rss: sum.rss + one.rss, peakRss: sum.peakRss + one.peakRss })),
    largest: each.reduce((most, one) => (one.peakRss > most.peakRss ? one : most)),
  };
}

function descendants(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.flatMap((child) => [child, ...descendants(child)]);
  } catch {
    return [];
  }
}

function processMemory(pid: number): ProcessMemory {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kib('VmRSS'), peakRss: kib('VmHWM') };
  } catch {
    return { rss: 0, peakRss: 0 };
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}
