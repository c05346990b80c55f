import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { PATIENCE_MS } from './patience';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');

/** What a command printed; `json` is its `--json` record, typed by the caller as the command prints it. */
export interface CliResult<T = unknown> {
  code: number;
  /** The signal that ended the command: SIGTERM when it was still running after PATIENCE_MS. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json: T;
}

/** Runs the admin CLI's entry point as `npm run admin` does, in a child process, with `stdin` as its standard input. */
export function runAdmin<T = unknown>(args: string[], env: Record<string, string | undefined> = {}, stdin = ''): Promise<CliResult<T>> {
  return runProcess<T>(process.execPath, [tsx, 'server/admin/cli.ts', ...args], { env, stdin });
}

/**
 * Runs a command in a child process with the test's environment and `env` over it (a
 * variable given as undefined is left unset), `stdin` as its standard input; resolves
 * with what it printed and how it ended, its exit code not thrown.
 */
export async function runProcess<T = unknown>(
  command: string,
  args: string[],
  { env = {}, stdin = '', cwd }: { env?: Record<string, string | undefined>; stdin?: string; cwd?: string } = {},
): Promise<CliResult<T>> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) childEnv[name] = value;
  try {
    const running = promisify(execFile)(command, args, {
      env: childEnv as NodeJS.ProcessEnv,
      cwd,
      timeout: PATIENCE_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    running.child.stdin?.end(stdin);
    const { stdout, stderr } = await running;
    return { code: 0, signal: null, stdout, stderr, json: parse(stdout) as T };
  } catch (error) {
    const {
      code,
      signal = null,
      stdout = '',
      stderr = '',
    } = error as { code?: number; signal?: NodeJS.Signals | null; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, signal, stdout, stderr, json: parse(stdout) as T };
  }
}

function parse(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** Runs an admin command in this process, through the same code as the CLI's entry point. */
export async function runAdminInProcess<T = unknown>(args: string[], stdin = ''): Promise<CliResult<T>> {
  const { runCli } = await import('../../server/admin/run');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), stdin: async () => stdin });
  return { code, signal: null, stdout, stderr, json: parse(stdout) as T };
}
