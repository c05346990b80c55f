import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/db/client';
import { openEmbeddedDatabase } from '../../server/db/embedded';
import { migrateDatabase } from '../../server/db/migrate';
import { runAdmin } from '../support/cli';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'taskapi-embedded-'));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/** A data folder of its own for each test, laid out as DATA_DIR is. */
async function dataFolder(name: string) {
  const dataDir = path.join(root, name);
  return { dataDir, dir: path.join(dataDir, 'postgres') };
}

// Starting PGlite and migrating it takes several seconds, many more on a busy machine.
const SLOW = 120_000;

describe('embedded database', () => {
  it('keeps its data across a restart', { timeout: SLOW }, async () => {
    const { dir } = await dataFolder('restart');
    const first = await openEmbeddedDatabase(dir);
    await migrateDatabase(first.url);
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

  it('serves the admin CLI through the server a running app already has open', { timeout: SLOW }, async () => {
    const { dataDir, dir } = await dataFolder('shared');
    const running = await openEmbeddedDatabase(dir);
    await migrateDatabase(running.url);
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
});
