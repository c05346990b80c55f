import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { serializeProtocolTurns } from '../vendor/pglite-socket-turns';

/**
 * The embedded default database: PGlite, exposed on a loopback TCP port that
 * speaks the PostgreSQL wire protocol, so the app reaches it through the same
 * driver adapter and `postgres://` URL as a real server.
 */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface StartOptions {
  /** Where the data lives; omitted, the database lives in memory. */
  dir?: string;
  /** A dump from `dumpEmbeddedDatabase` to start from. */
  load?: Blob;
  port?: number;
}

// Enough for the app's pool, the admin CLI and a migration at once.
const MAX_CONNECTIONS = 20;

export async function startEmbeddedDatabase(options: StartOptions = {}): Promise<EmbeddedDatabase & { db: PGlite }> {
  if (options.dir) await fs.mkdir(options.dir, { recursive: true });
  const db = await createEmbeddedPGlite({ dataDir: options.dir, loadDataDir: options.load });
  const served = await serveEmbeddedDatabase(db, options.port);
  return {
    db,
    url: served.url,
    async stop() {
      await served.stop();
      await db.close();
    },
  };
}

/** A PGlite with the extensions the migrations use. */
export function createEmbeddedPGlite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: { pg_trgm, btree_gin } });
}

/** Serves an open PGlite on a loopback port; stopping closes its connections and leaves the PGlite open. */
export async function serveEmbeddedDatabase(db: PGlite, port = 0): Promise<EmbeddedDatabase> {
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: MAX_CONNECTIONS });
  serializeProtocolTurns(server);
  await server.start();
  return { url: `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`, stop: () => server.stop() };
}

export async function dumpEmbeddedDatabase(db: PGlite): Promise<Blob> {
  return db.dumpDataDir('none');
}

const lockFile = (dir: string) => path.join(dir, 'server.json');

/**
 * The data folder can be opened by one process at a time. The process that
 * opens it publishes its URL beside the data, so that other processes (the admin
 * CLI while `npm run dev` runs) connect to it instead of opening it again.
 */
export async function openEmbeddedDatabase(dir: string): Promise<EmbeddedDatabase & { owned: boolean }> {
  const running = await findRunningServer(dir);
  if (running) return { url: running, owned: false, stop: async () => {} };
  const started = await startEmbeddedDatabase({ dir });
  await fs.writeFile(lockFile(dir), JSON.stringify({ url: started.url, pid: process.pid }));
  return {
    url: started.url,
    owned: true,
    async stop() {
      await fs.rm(lockFile(dir), { force: true });
      await started.stop();
    },
  };
}

async function findRunningServer(dir: string): Promise<string | null> {
  let published: { url: string; pid: number };
  try {
    published = JSON.parse(await fs.readFile(lockFile(dir), 'utf8'));
  } catch {
    return null;
  }
  if (!isAlive(published.pid)) return null;
  const { hostname, port } = new URL(published.url);
  return (await canConnect(hostname, Number(port))) ? published.url : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
