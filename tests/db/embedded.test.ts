import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../server/db/client';
import { openEmbeddedDatabase, startEmbeddedDatabase } from '../../server/db/embedded';
import { runAdmin } from '../support/cli';
import { migratedEmbeddedDump } from '../support/embedded-dump';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-embedded-'));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/** A data folder of its own for each test, laid out as DATA_DIR is. */
async function dataFolder(name: string) {
  const dataDir = path.join(root, name);
  return { dataDir, dir: path.join(dataDir, 'postgres') };
}

let migrated: Promise<Blob> | undefined;
/**
 * A migrated database's dump: the run's own on the embedded defaults (tests/support/global-setup.ts),
 * else one made here once. A PGlite made from nothing runs initdb, 6 to 12 s of CPU; the tests
 * that are not about a first start begin from this instead.
 */
function migratedDump(): Promise<Blob> {
  const source = inject('testDatabase');
  migrated ??= source.kind === 'embedded' ? fs.readFile(source.dump).then((bytes) => new Blob([bytes])) : migratedEmbeddedDump();
  return migrated;
}

/** A data folder holding a migrated database, as an earlier run of the app leaves it. */
async function migratedFolder(name: string) {
  const folder = await dataFolder(name);
  const started = await startEmbeddedDatabase({ dir: folder.dir, load: await migratedDump() });
  await started.stop();
  return folder;
}

describe('embedded database', () => {
  it('keeps its data across a restart', async () => {
    const { dir } = await migratedFolder('restart');
    const first = await openEmbeddedDatabase(dir);
    const client = createDb(first.url, 1);
    await client.workspace.create({ data: { slug: 'kept', name: 'Kept' } });
    await client.$disconnect();
    await first.stop();

    const second = await openEmbeddedDatabase(dir);
    const again = createDb(second.url, 1);
    try {
      expect(await again.workspace.findUnique({ where: { slug: 'kept' } })).toMatchObject({ name: 'Kept' });
    } finally {
      await again.$disconnect();
      await second.stop();
    }
  });

  it('serves the admin CLI through the server a running app already has open', async () => {
    const { dataDir, dir } = await migratedFolder('shared');
    const running = await openEmbeddedDatabase(dir);
    const client = createDb(running.url, 1);
    try {
      expect(running.owned).toBe(true);
      expect((await openEmbeddedDatabase(dir)).owned).toBe(false);
      const result = await runAdmin<{ id: string }>(['workspace', 'create', '--slug', 'from-cli', '--name', 'From CLI', '--json'], {
        DATABASE_URL: undefined,
        DATA_DIR: dataDir,
      });
      expect(result.code).toBe(0);
      expect(await client.workspace.findUnique({ where: { slug: 'from-cli' } })).toMatchObject({ id: result.json.id });
    } finally {
      await client.$disconnect();
      await running.stop();
    }
  });

  it('lets the admin CLI exit with 1 when migrating the folder it opened fails', async () => {
    const { dataDir, dir } = await dataFolder('failed-migration');
    // A type the first migration creates, there already: `prisma migrate deploy` fails on it.
    const blocked = await openEmbeddedDatabase(dir);
    const client = new pg.Client(blocked.url);
    await client.connect();
    await client.query(`CREATE TYPE "Role" AS ENUM ('other')`);
    await client.end();
    await blocked.stop();

    const result = await runAdmin(['key', 'list', '--workspace', 'demo'], { DATABASE_URL: undefined, DATA_DIR: dataDir });
    expect(result.stderr).toContain('Migrations failed');
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 1, signal: null });
  });

  it('hands a NOTIFY to each other connection listening on its channel, as a server does', async () => {
    const embedded = await startEmbeddedDatabase({ load: await migratedDump() });
    const [sender, listener, unlistened, elsewhere] = Array.from({ length: 4 }, () => new pg.Client(embedded.url));
    const heard = new Map<pg.Client, string[]>();
    try {
      for (const client of [sender!, listener!, unlistened!, elsewhere!]) {
        await client.connect();
        heard.set(client, []);
        client.on('notification', ({ channel, payload }) => heard.get(client)!.push(`${channel}:${payload}`));
      }
      await listener!.query('LISTEN "jobs:insert"; LISTEN other');
      await unlistened!.query('LISTEN "jobs:insert"');
      await unlistened!.query('UNLISTEN "jobs:insert"');
      await elsewhere!.query('LISTEN other');

      const arrived = once(listener!, 'notification');
      await sender!.query('BEGIN');
      await sender!.query(`SELECT pg_notify('jobs:insert', 'first')`);
      await sender!.query('COMMIT');
      await arrived;
      // Each socket is in order: a notification on `done` comes after any earlier one.
      await Promise.all([unlistened!, elsewhere!].map((client) => client.query('LISTEN done')));
      const done = [unlistened!, elsewhere!].map((client) => once(client, 'notification'));
      await sender!.query(`NOTIFY done, 'now'`);
      await Promise.all(done);

      expect(heard.get(listener!)).toEqual(['jobs:insert:first']);
      expect(heard.get(unlistened!)).toEqual(['done:now']);
      expect(heard.get(elsewhere!)).toEqual(['done:now']);
    } finally {
      await Promise.all([sender!, listener!, unlistened!, elsewhere!].map((client) => client.end()));
      await embedded.stop();
    }
  });
});
