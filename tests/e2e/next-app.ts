import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const SOURCES = ['app', 'server', 'next.config.mjs', 'package.json', 'tsconfig.json'];

async function newestChange(entry: string): Promise<number> {
  const stat = await fs.stat(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  const children = await fs.readdir(entry);
  return Math.max(stat.mtimeMs, ...(await Promise.all(children.map((child) => newestChange(path.join(entry, child))))));
}

/**
 * CI builds before it tests; locally the build is reused unless a source file
 * changed after it, so the suite pays for `next build` only when it must.
 */
export async function ensureBuild(): Promise<void> {
  const built = await fs.stat(path.join(root, '.next', 'BUILD_ID')).then((stat) => stat.mtimeMs, () => 0);
  const changed = Math.max(...(await Promise.all(SOURCES.map((entry) => newestChange(path.join(root, entry))))));
  if (built > changed) return;
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

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface NextApp {
  baseUrl: string;
  stop(): Promise<void>;
}

/** `next start` on a free loopback port, on the given database, as a child process. */
export async function startNextApp(databaseUrl: string): Promise<NextApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      APP_URL: baseUrl,
      PORT: String(port),
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_MINUTE: '10000',
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  };

  for (let started = Date.now(); Date.now() - started < 60_000; ) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${baseUrl}/`).then((response) => response.ok, () => false);
    if (ready) return { baseUrl, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`next start did not come up on ${baseUrl}:\n${output}`);
}
