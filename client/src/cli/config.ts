import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

export interface Config {
  /** The API's root. */
  url?: string;
  key?: string;
  /** The project commands use when none is named. */
  project?: string;
}

export type Env = Record<string, string | undefined>;

/** Where `task-api login` keeps the key: TASK_API_CONFIG, else the XDG configuration folder. */
export function configPath(env: Env): string {
  if (env.TASK_API_CONFIG) return env.TASK_API_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'task-api', 'config.json');
}

export async function readConfig(env: Env): Promise<Config> {
  const file = configPath(env);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.failure);
  }
  try {
    return JSON.parse(text) as Config;
  } catch {
    throw new CliError(`${file} is not JSON: run task-api login again`, EXIT.failure);
  }
}

/** Writes the file readable by its owner only (0600, its folder 0700), whole or not at all. */
export async function writeConfig(env: Env, config: Config): Promise<string> {
  const file = configPath(env);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(partial, 0o600);
  await fs.rename(partial, file);
  return file;
}

export const DEFAULT_URL = 'http://localhost:3000/v1/public';

/** The key and root a command uses: TASK_API_KEY and TASK_API_URL first, then the file `task-api login` wrote. */
export async function credentials(env: Env): Promise<{ key: string; url: string; project: string | undefined }> {
  const config = await readConfig(env);
  const key = env.TASK_API_KEY || config.key;
  if (!key) throw new CliError('No API key: set TASK_API_KEY, or run task-api login', EXIT.authentication);
  return { key, url: env.TASK_API_URL || config.url || DEFAULT_URL, project: env.TASK_API_PROJECT || config.project };
}
