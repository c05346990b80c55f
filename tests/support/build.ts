import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleServer } from '../../server/launch/bundle-server.js';
import { SUPERVISOR_BUNDLE } from '../../server/launch/server-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
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
    if (await isStale(lock)) await fs.rm(lock, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    await fs.writeFile(path.join(lock, 'pid'), String(process.pid));
    if (!(await isBuildFresh())) await build();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

/**
 * A lock left by a run that was killed: its process is gone. A build on a busy machine
 * can take longer than any fixed age, so age decides only for a lock without its pid.
 */
async function isStale(lock: string): Promise<boolean> {
  const pid = Number(await fs.readFile(path.join(lock, 'pid'), 'utf8').catch(() => ''));
  if (!pid) {
    const age = await fs.stat(lock).then(
      (stat) => Date.now() - stat.mtimeMs,
      () => 0,
    );
    return age > STALE_LOCK_MS;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Fresh: `npm run build`'s two steps both newer than every source (a `next build` alone leaves no server bundle). */
async function isBuildFresh(): Promise<boolean> {
  const mtime = (file: string) =>
    fs.stat(file).then(
      (stat) => stat.mtimeMs,
      () => 0,
    );
  const built = Math.min(await mtime(path.join(root, '.next', 'BUILD_ID')), await mtime(SUPERVISOR_BUNDLE));
  const changed = Math.max(...(await Promise.all(SOURCES.map((entry) => newestChange(path.join(root, entry))))));
  return built > changed;
}

async function build(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [nextBin, 'build'], {
      cwd: root,
      // What the tests need is the server: the type check is `npm run typecheck`'s (next.config.mjs).
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', BUILD_WITHOUT_TYPECHECK: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`next build failed:\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`);
  }
  await bundleServer();
}
