import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from '../../server/db/migrate';
import { migratedEmbeddedDump } from './embedded-dump';
import { databaseUrl, withDatabase } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'postgres'; serverUrl: string; template: string } | { kind: 'embedded'; hosts: string[]; dump: string };
  }
}

/**
 * Migrates one database per run; each test file then starts from a copy of it:
 * a PostgreSQL template when DATABASE_URL names a server, else a PGlite dump,
 * which one database host per worker (tests/support/database-host.ts) serves.
 */
export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = `taskapi_test_${runId}`;
    await withDatabase(serverUrl, (client) => client.query(`CREATE DATABASE ${template}`));
    await migrateDatabase(databaseUrl(serverUrl, template));
    project.provide('testDatabase', { kind: 'postgres', serverUrl, template });
    return async () => {
      await withDatabase(serverUrl, async (client) => {
        const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${template}%`]);
        for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      });
    };
  }
  const dump = path.join(os.tmpdir(), `taskapi-test-${runId}.tar`);
  await fs.writeFile(dump, Buffer.from(await (await migratedEmbeddedDump()).arrayBuffer()));
  const hosts = await Promise.all(Array.from({ length: project.config.maxWorkers }, () => startDatabaseHost(dump)));
  project.provide('testDatabase', { kind: 'embedded', hosts: hosts.map((host) => host.url), dump });
  return async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    await fs.rm(dump, { force: true });
  };
}

/** Starts tests/support/database-host.ts on a migrated dump and reads its control address. */
export async function startDatabaseHost(dump: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'database-host.ts'), dump], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), exited.then(() => [])])) as string[];
  if (!line) throw new Error('The test database host exited before it listened');
  return {
    url: line,
    stop: () => {
      child.kill();
      return exited;
    },
  };
}
