import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { PATIENCE_MS } from './patience';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');

/** What a command printed; `json` is its `--json` record, typed by the caller as the command prints it. */
export interface CliResult<T = unknown> {
  code: number;
  /** The signal that ended the command: SIGTERM when it was still running after 60 s. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json: T;
}

/** Runs the admin CLI's entry point as `npm run admin` does, in a child process, with `stdin` as its standard input. */
export async function runAdmin<T = unknown>(
  args: string[],
  env: Record<string, string | undefined> = {},
  stdin = '',
): Promise<CliResult<T>> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...env })) if (value !== undefined) childEnv[name] = value;
  try {
    const running = promisify(execFile)(process.execPath, [tsx, 'server/admin/cli.ts', ...args], {
      env: childEnv as NodeJS.ProcessEnv,
      timeout: PATIENCE_MS,
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
