import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

/**
 * Runs `next dev|start` as a child with the given extra environment and resolves
 * with its exit code. Ctrl-C reaches the child through the terminal's process group;
 * a plain SIGTERM to this process is passed on.
 */
export function runNext(mode: 'dev' | 'start', port: number, extraEnv: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, [nextBin, mode, '--port', String(port)], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...extraEnv },
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
