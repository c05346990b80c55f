import pg from 'pg';
import { migrateDatabase } from '../../server/db/migrate';

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Connection URL of another database on the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database of its own, migrated the way production is, so runs never share state. */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `taskapi_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = databaseUrl(serverUrl, name);
  const drop = () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  try {
    await migrateDatabase(url);
  } catch (error) {
    await drop();
    throw error;
  }
  return { url, name, drop };
}

export async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

/**
 * Vacuums and analyzes after a run's writes, so that the next run does not meet
 * their dead rows, a planner on stale statistics, or autovacuum working under its
 * load: the floor it is compared with was measured before those writes.
 */
export async function settleAfterWrites(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
