import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

/**
 * V8 sizes its heap by the machine's memory and, under load, let the server grow
 * past 500 MB with about 70 MB live. A cap makes it collect sooner instead.
 */
export const PRODUCTION_NODE_OPTIONS = '--max-old-space-size=320';

/**
 * Runs `next dev|start` as a child with the given extra environment and resolves
 * with its exit code. Ctrl-C reaches the child through the terminal's process group;
 * a plain SIGTERM to this process is passed on.
 */
export function runNext(mode: 'dev' | 'start', port: number, extraEnv: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, [nextBin, mode, '--port', String(port)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      ...(mode === 'start' && { NODE_OPTIONS: process.env.NODE_OPTIONS ?? PRODUCTION_NODE_OPTIONS }),
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
