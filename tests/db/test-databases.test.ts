import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDatabaseHost } from '../support/global-setup';
import { withDatabase } from '../support/postgres';

/**
 * On the embedded defaults each worker's host hands its database from one test file
 * to the next (tests/support/database-host.ts): the next file must find it as the
 * migrations left it, whatever the file before it did.
 */
const source = inject('testDatabase');

describe.runIf(source.kind === 'embedded')('a test file’s embedded database', () => {
  let host: Awaited<ReturnType<typeof startDatabaseHost>>;
  const call = async (path: string, body?: string) => {
    const answer = await fetch(`${host.url}${path}`, { method: 'POST', body });
    const text = await answer.text();
    expect(answer.status, text).toBe(200);
    return text;
  };
  const migrations = (url: string) =>
    withDatabase(url, async (client) => (await client.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n as number);

  beforeAll(async () => {
    if (source.kind === 'embedded') host = await startDatabaseHost(source.dump);
  });
  afterAll(() => host?.stop());

  it('comes to the next file with the migrated rows only, its sequences and session reset, and its old address closed', async () => {
    const first = await call('/acquire');
    const migrated = await migrations(first);
    const addJob = `SELECT (graphile_worker.add_job('left_over', '{}')).id::int AS id`;
    // Left connected, in the middle of a transaction, as a file's last connection may be.
    const client = new pg.Client({ connectionString: first });
    client.on('error', () => {});
    await client.connect();
    await client.query(`INSERT INTO workspace (id, slug, name) VALUES (gen_random_uuid(), 'left-over', 'Left over')`);
    await client.query('DELETE FROM _prisma_migrations');
    const { id: firstJob } = (await client.query<{ id: number }>(addJob)).rows[0]!;
    await client.query('LISTEN left_over');
    await client.query('SELECT pg_advisory_lock(42)');
    await client.query('PREPARE left_over AS SELECT 1');
    await client.query('CREATE TEMPORARY TABLE left_over (id int)');
    await client.query(`SET statement_timeout = '1234ms'`);
    await client.query('BEGIN');
    await client.query(`INSERT INTO workspace (id, slug, name) VALUES (gen_random_uuid(), 'in-flight', 'In flight')`);
    await call('/release', first);

    const next = await call('/acquire');
    await expect(withDatabase(first, () => Promise.resolve())).rejects.toThrow();
    expect(await migrations(next)).toBe(migrated);
    await withDatabase(next, async (client) => {
      const one = async (sql: string) => Object.values((await client.query(sql)).rows[0] as object)[0];
      expect(await one('SELECT count(*)::int FROM workspace')).toBe(0);
      expect(await one('SELECT count(*)::int FROM graphile_worker.jobs')).toBe(0);
      expect(await one(addJob)).toBe(firstJob);
      expect(await one(`SELECT count(*)::int FROM pg_listening_channels()`)).toBe(0);
      expect(await one(`SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory'`)).toBe(0);
      expect(await one(`SELECT to_regclass('pg_temp.left_over')::text`)).toBeNull();
      expect(await one('SHOW statement_timeout')).toBe('0');
      await client.query('PREPARE left_over AS SELECT 1');
    });
    await call('/release', next);
  });

  it('is replaced by a new one from the dump when the file before changed its schema', async () => {
    const first = await call('/acquire');
    await withDatabase(first, (client) => client.query('CREATE TABLE left_over (id int); ALTER TABLE workspace ADD COLUMN left_over int'));
    await call('/release', first);

    const next = await call('/acquire');
    await withDatabase(next, async (client) => {
      expect((await client.query(`SELECT to_regclass('public.left_over') AS found`)).rows[0].found).toBeNull();
      const columns = await client.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'workspace' AND column_name = 'left_over'`,
      );
      expect(columns.rows).toEqual([]);
    });
    await call('/release', next);
  });
});
