import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../support/patience';
import { freePort } from '../support/ports';
import { findZsh } from '../support/shells.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
// zsh is the machine's or the one `npm test`'s pretest fetched (tests/support/pretest.mjs).
const ZSH = findZsh();
const SHELLS: [string, string | undefined][] = [
  ['bash', '/bin/bash'],
  ['zsh', ZSH],
];

let dataDir: string;
let port: number;
let freshStart: string;
let firstStart: string;
let secondStart: string;

/** The launcher's environment on the embedded defaults: no database, limiter or blob store configured. */
function embeddedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_URL|UPSTASH_|BLOB_|APP_URL|TEST$|VITEST)/.test(name)) delete env[name];
  }
  return env;
}

/**
 * Runs a launcher as `npm run dev` / `npm start` run it, until it has printed the key
 * command, or `until` (everything before the web server starts), then stops it as Ctrl-C would.
 */
async function launch(script: 'dev' | 'start', until = /admin -- key create.*\n/): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', `server/launch/${script}.ts`], {
    cwd: root,
    env: embeddedEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${until} within ${PATIENCE_MS / 1000} s:\n${stdout}\n${stderr}`)), PATIENCE_MS);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (until.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`the launcher exited:\n${stdout}\n${stderr}`)));
  });
  try {
    process.kill(-child.pid!, 'SIGINT');
  } catch {
    // It has exited already: `npm start` before the build exists stops once it has printed its lines.
  }
  await exited;
  return stdout;
}

/** The words a shell makes of a printed command line, with the command itself replaced by one that prints them. */
async function shellWords(shell: string, line: string): Promise<string[]> {
  const command = line.trim().split(' ')[0]!;
  const { stdout } = await run(shell, ['-c', `${command}() { printf '%s\\n' "$@"; }; ${line.trim()}`], { cwd: os.tmpdir() });
  return stdout.trimEnd().split('\n');
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-first-hour-'));
  port = await freePort();
  freshStart = await launch('start', /Setup code: .*\n/);
  firstStart = await launch('dev');
  secondStart = await launch('start');
});

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

const lineWith = (output: string, start: string) =>
  output
    .split('\n')
    .find((line) => line.trim().startsWith(start))
    ?.trim();

describe('npm start on a fresh embedded database', () => {
  it('prints the setup code in a line that says where to enter it, and no demo login', () => {
    expect(freshStart).toContain(`No workspace yet: create one at http://localhost:${port}/setup\n`);
    expect(freshStart).toMatch(
      new RegExp(
        `^  Setup code: [0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4} \\(enter it at http://localhost:${port}/setup to create the first workspace and its owner; it works until then\\)$`,
        'm',
      ),
    );
    expect(freshStart).not.toMatch(/Admin login|tk_[0-9a-f]{40}/);
  });
});

describe('the first start of npm run dev on the embedded defaults', () => {
  it('prints the admin login and the demo key once', () => {
    expect(firstStart).toMatch(/Admin login: +admin@demo\.test \/ \S+/);
    expect(firstStart).toMatch(/Demo API key: +tk_[0-9a-f]{40}/);
  });

  it.for(SHELLS)('prints a curl line that %s reads as the header and the URL, query string included', async ([, shell], context) => {
    if (!shell) return context.skip('zsh is not installed here and `npm test` could not fetch it: install zsh to run this case');
    expect(existsSync(shell), `${shell} is installed`).toBe(true);
    const key = firstStart.match(/tk_[0-9a-f]{40}/)![0];
    expect(await shellWords(shell, lineWith(firstStart, 'curl ')!)).toEqual([
      '-H',
      `Authorization: Bearer ${key}`,
      `http://localhost:${port}/v1/public/web/tasks?limit=2`,
    ]);
  });
});

describe('every start on the embedded database', () => {
  it.each([
    ['npm run dev', () => firstStart],
    ['npm start', () => secondStart],
  ])('%s prints the app URL and the demo workspace slug', (_, output) => {
    expect(output()).toContain(`App:            http://localhost:${port}\n`);
    expect(output()).toContain(`API reference:  http://localhost:${port}/docs\n`);
    expect(output()).toContain('Workspace:      demo\n');
  });

  it('does not print the secrets again after the first start, nor a setup code once the demo owner exists', () => {
    expect(secondStart).not.toMatch(/tk_[0-9a-f]{40}|Admin login/);
    expect(firstStart + secondStart).not.toContain('Setup code');
  });

  it('prints the command that mints a key, and that command mints one', async () => {
    const command = lineWith(secondStart, 'npm run --silent admin -- key create')!;
    expect(command).toBe(
      "npm run --silent admin -- key create --workspace demo --name 'My key' --scopes task:read,task:create,task:update",
    );
    const { stdout } = await run('/bin/bash', ['-c', `${command} --json`], { cwd: root, env: embeddedEnv() });
    expect(JSON.parse(stdout)).toMatchObject({
      name: 'My key',
      scopes: ['task:read', 'task:create', 'task:update'],
      key: expect.stringMatching(/^tk_/),
    });
  });
});
