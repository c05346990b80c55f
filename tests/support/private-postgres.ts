import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/ports';

const run = promisify(execFile);

/**
 * Private database and Redis servers for fault tests, on ports of their own, so
 * that they can be stopped and started without touching the machine's shared ones.
 */

/** PostgreSQL's server binaries: PG_BIN, else the newest under /usr/lib/postgresql (Debian's layout). */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return path.join('/usr/lib/postgresql', versions[0]!, 'bin');
}

export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  remove(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'taskapi-faults-pg-'));
  // initdb and postgres refuse to run as root: as root, they run as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await fsp.chown(dir, Number(stdout), Number(group));
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (action: string, extra: string[] = []) =>
    pg('pg_ctl', [action, '-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', ...extra]);
  await ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => ctl('start').then(() => {}),
    // Fast shutdown: what an operator's restart does, and what ends the open connections.
    stop: () => ctl('stop', ['-m', 'fast']).then(() => {}),
    restart: () => ctl('restart', ['-m', 'fast']).then(() => {}),
    async remove() {
      await ctl('stop', ['-m', 'immediate']).catch(() => {});
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let tries = 0; ; tries++) {
    const up = await run('redis-cli', ['-p', String(port), 'ping']).then(
      ({ stdout }) => stdout.trim() === 'PONG',
      () => false,
    );
    if (up) break;
    if (tries > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
