import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports';

const run = promisify(execFile);

/**
 * PostgreSQL servers of the tests' own, on ports of their own, so that they can be
 * stopped, started and configured without touching the machine's shared one: a
 * primary, and streaming replicas of it.
 */

/** PostgreSQL's server binaries: PG_BIN, else the newest under /usr/lib/postgresql (Debian's layout). */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return path.join('/usr/lib/postgresql', versions[0]!, 'bin');
}

export interface PrivatePostgres {
  /** The `postgres` database as the superuser, over TCP. */
  url: string;
  port: number;
  /** The folder of its Unix socket, its data folder and its log. */
  dir: string;
  /** Runs one of PostgreSQL's tools as the user that owns the data (postgres, when the tests run as root). */
  tool(name: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
  start(): Promise<void>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  remove(): Promise<void>;
}

/** Server settings, as `-c name=value` on its command line. */
export type PostgresSettings = Record<string, string | number>;

// Trust on loopback and the socket, for connections and for replication: these servers hold test data only.
const HBA = [
  'local all all trust',
  'host all all 127.0.0.1/32 trust',
  'local replication all trust',
  'host replication all 127.0.0.1/32 trust',
];

/** A new primary: initdb into a temporary folder, started on a free port. */
export async function startPrivatePostgres(settings: PostgresSettings = {}): Promise<PrivatePostgres> {
  const server = await prepare('taskapi-pg-');
  await server.tool('initdb', ['-D', server.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  await fsp.writeFile(path.join(server.data, 'pg_hba.conf'), `${HBA.join('\n')}\n`);
  return server.launch({ wal_level: 'replica', max_wal_senders: 4, ...settings });
}

/**
 * A streaming replica of `primary`, as `pg_basebackup -R` makes one (a standby that
 * connects back to the primary), started on a free port and read-only; settings
 * such as `recovery_min_apply_delay` apply to it alone.
 */
export async function startPrivateReplica(primary: PrivatePostgres, settings: PostgresSettings = {}): Promise<PrivatePostgres> {
  const server = await prepare('taskapi-pg-replica-');
  const source = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'];
  await server.tool('pg_basebackup', [...source, '-D', server.data, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
  return server.launch({ hot_standby: 'on', ...settings });
}

async function prepare(prefix: string) {
  const bin = postgresBin();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  // initdb and postgres refuse to run as root: as root, they run as the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await fsp.chown(dir, Number(stdout), Number(group));
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);
  const data = path.join(dir, 'data');

  async function launch(settings: PostgresSettings): Promise<PrivatePostgres> {
    const port = await freePort();
    const all: PostgresSettings = { listen_addresses: '127.0.0.1', fsync: 'off', ...settings };
    const options = [`-p ${port}`, `-k ${dir}`, ...Object.entries(all).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
    const ctl = (action: string, extra: string[] = []) =>
      tool('pg_ctl', [action, '-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '60', ...extra]);
    await ctl('start');
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dir,
      tool,
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

  return { data, tool, launch };
}
