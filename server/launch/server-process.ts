import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const root = path.resolve(import.meta.dirname, '../..');

/** Where `npm run build` puts the production server's entry points (server/launch/bundle-server.ts). */
export const LAUNCH_DIR = path.join(root, '.next', 'launch');
/** The supervisor and the server process, as built. */
export const SUPERVISOR_BUNDLE = path.join(LAUNCH_DIR, 'supervisor.mjs');
export const SERVER_BUNDLE = path.join(LAUNCH_DIR, 'production-server.mjs');

/**
 * The environment the production server runs with, where `source` does not set
 * these itself.
 * - V8 sizes its heap by the machine's memory and, under load, let the server grow
 *   past 500 MB with about 70 MB live. A cap makes it collect sooner instead; large
 *   list pages stay within it through the answer budget (server/api/answer-memory.ts).
 *   The young generation is pinned too: Node 26's V8 gives a 192 MB heap semi-spaces
 *   of 32 MB where Node 20's gave 16, 48 MB more garbage before a scavenge, and took
 *   a burst of MCP uploads from 104-144 MB of growth to 132-168. With both, the heap
 *   is at most 240 MB on either.
 * - glibc gives every thread that allocates (V8's and libuv's workers) an arena of
 *   its own, up to eight per core, and keeps their freed memory. Two arenas took the
 *   server from 300 to 229 MB of RSS after the same benchmark run, at the same speed.
 */
export function productionServerEnv(source: Record<string, string | undefined>): {
  NODE_ENV: 'production';
  NODE_OPTIONS: string;
  MALLOC_ARENA_MAX: string;
} {
  return {
    NODE_ENV: 'production',
    NODE_OPTIONS: source.NODE_OPTIONS ?? '--max-old-space-size=192 --max-semi-space-size=16',
    MALLOC_ARENA_MAX: source.MALLOC_ARENA_MAX ?? '2',
  };
}

/**
 * The command line of the production server, run in the repository's folder: its
 * supervisor (server/launch/supervisor.ts), which runs WEB_CONCURRENCY copies of
 * server/launch/production-server.ts on the port, both as the build bundled them.
 */
export function productionServerArgs(port: number, hostname?: string): string[] {
  const args = [SUPERVISOR_BUNDLE, '--port', String(port)];
  return hostname ? [...args, '--hostname', hostname] : args;
}

/** Each server process's share of DATABASE_POOL_SIZE, the connections of all of them together; at least one. */
export function workerPoolSize(total: number, workers: number): number {
  return Math.max(1, Math.floor(total / workers));
}

/**
 * Runs the web server as a child, `next dev` or the production server, with the
 * given extra environment, and resolves with its exit code. Ctrl-C reaches the
 * child through the terminal's process group; a plain SIGTERM to this process is
 * passed on.
 */
export async function runServer(mode: 'dev' | 'start', port: number, extraEnv: Record<string, string>): Promise<number> {
  if (mode === 'start' && !existsSync(SUPERVISOR_BUNDLE)) {
    process.stderr.write('No production build of the server: run `npm run build` first, then `npm start`.\n');
    return 1;
  }
  const args = mode === 'dev' ? [nextBin, 'dev', '--port', String(port)] : productionServerArgs(port);
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      ...(mode === 'start' && productionServerEnv(process.env)),
      ...extraEnv,
    },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolve(code ?? (signal ? 0 : 1));
    });
  });
}
