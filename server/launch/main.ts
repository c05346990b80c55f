import { ConfigError } from '../env';
import { AppError } from '../errors';
import { loadEnvFiles } from './load-env';

/**
 * Runs a command-line entry point: reads the .env files first, and turns a bad
 * configuration or a refused request into a plain message instead of a stack trace.
 */
export function runMain(mode: 'development' | 'production', main: () => Promise<number | void>): void {
  loadEnvFiles(mode);
  main().then(
    (code) => {
      process.exitCode = code ?? 0;
    },
    (error: unknown) => {
      const expected = error instanceof ConfigError || error instanceof AppError;
      process.stderr.write(`${expected ? (error as Error).message : error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = error instanceof AppError ? 2 : 1;
    },
  );
}

export const defaultMode = () => (process.env.NODE_ENV === 'production' ? 'production' : 'development');
