import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../support/ports';
import type { PrivatePostgres } from '../support/private-postgres';
import { PGBOUNCER } from './pgbouncer-install.mjs';

export interface PgBouncer {
  /** A database of the primary, through the pooler. */
  url(database: string): string;
  /** A SHOW command on the admin console (`POOLS`, `CLIENTS`, `STATS`…): its rows, every value as text. */
  show(what: string): Promise<Record<string, string>[]>;
  /** Everything it has logged so far. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database and user: what the primary sees of all the pooled clients. */
  poolSize: number;
  /** Client connections it accepts in all; past it, a new one is refused. */
  maxClientConnections: number;
}

/**
 * Debian's PgBouncer (1.18) in transaction mode in front of `primary`, as Neon's
 * `-pooler` host and Supabase's port 6543 are: a server connection is a client's for
 * one transaction, then another's. It reaches the primary through its Unix socket,
 * so its server connections are the primary's only ones without a client address.
 * It refuses to run as root: as root, it runs as the postgres user.
 */
export async function startPgBouncer(primary: PrivatePostgres, options: PgBouncerOptions): Promise<PgBouncer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-pgbouncer-'));
  const port = await freePort();
  const logFile = path.join(dir, 'pgbouncer.log');
  const config = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: dir,
    logfile: logFile,
    pidfile: path.join(dir, 'pgbouncer.pid'),
    auth_type: 'trust',
    // Trust still wants the user named here.
    auth_file: path.join(dir, 'userlist.txt'),
    admin_users: 'postgres',
    pool_mode: 'transaction',
    default_pool_size: options.poolSize,
    reserve_pool_size: 0,
    max_client_conn: options.maxClientConnections,
    // node-postgres may put these in its startup packet, which PgBouncer refuses unless told to ignore them.
    ignore_startup_parameters: 'extra_float_digits,options,statement_timeout',
    log_connections: 0,
    log_disconnections: 0,
  };
  const ini = [
    '[databases]',
    `* = host=${primary.dir} port=${primary.port}`,
    '[pgbouncer]',
    ...Object.entries(config).map(([name, value]) => `${name} = ${value}`),
  ].join('\n');
  await fs.writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`);
  await fs.writeFile(config.auth_file, '"postgres" ""\n');

  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const owner = await fs.stat(primary.dir);
    await fs.chown(dir, owner.uid, owner.gid);
  }
  const command = [PGBOUNCER, path.join(dir, 'pgbouncer.ini')];
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', ...command], { stdio: 'ignore', detached: true })
    : spawn(command[0]!, command.slice(1), { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => fs.readFile(logFile, 'utf8').catch(() => '');

  const stop = async () => {
    try {
      // runuser and PgBouncer are one process group: SIGTERM ends PgBouncer at once.
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Gone already.
    }
    await exited;
    await fs.rm(dir, { recursive: true, force: true });
  };

  // The admin console, once it answers: PgBouncer is up.
  const deadline = Date.now() + 30_000;
  let admin: pg.Client | undefined;
  while (!admin) {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
    client.on('error', () => {});
    admin = await client.connect().then(
      () => client,
      () => undefined,
    );
    if (admin) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      const logged = await log();
      await stop();
      throw new Error(`PgBouncer did not start on port ${port}:\n${logged}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const adminConsole = admin;

  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async show(what) {
      const result = await adminConsole.query<Record<string, string>>(`SHOW ${what}`);
      return result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name, String(value)])));
    },
    log,
    async stop() {
      await adminConsole.end().catch(() => {});
      await stop();
    },
  };
}
